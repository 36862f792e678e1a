import { json } from '@codemirror/lang-json';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { shippedScenarios } from '../gallery/scenarios';
import { schemaProblems } from './lint';
import { scenarioSchemaFacet } from './schemaAssist';
import { scenarioSchema } from './schema';

function problems(text: string) {
  const state = EditorState.create({ doc: text, extensions: [json(), scenarioSchemaFacet.of(scenarioSchema)] });
  return schemaProblems(state);
}

describe('the committed scenario schema in the editor', () => {
  it('is found', () => {
    expect(scenarioSchema?.title).toBe('Scenario');
  });

  it('accepts every shipped scenario', () => {
    expect(shippedScenarios.length).toBeGreaterThan(0);
    for (const s of shippedScenarios)
      expect({ file: s.file, problems: problems(s.text) }).toEqual({ file: s.file, problems: [] });
    // Validating every shipped scenario (nearly 40 files) takes several seconds
    // on a loaded 2-core machine: more than vitest's default 5 s.
  }, 30_000);

  it('locates a wrong type and an unknown field with their paths', () => {
    const text =
      '{\n  "name": "x",\n  "threads": "two",\n  "colour": 1,\n  "app": { "kind": "linked-list", "shards": 2 },\n  "schedulers": [{ "id": "early" }]\n}';
    const p = problems(text);
    expect(p.find((x) => x.path === 'threads')).toMatchObject({ line: 3, col: 14 });
    expect(p.some((x) => x.line === 4)).toBe(true);
  });
});
