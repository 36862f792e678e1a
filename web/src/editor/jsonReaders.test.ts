import { json } from '@codemirror/lang-json';
import { ensureSyntaxTree } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { shippedScenarios } from '../gallery/scenarios';
import { locateJson, plain, type Located } from './jsonLocate';
import { dataOf, pointerOf } from './schemaAssist';

/** Every located value with the JSON pointer the schema check gives its problems. */
function withPointers(v: Located, pointer = '', out: [string, Located][] = []): [string, Located][] {
  out.push([pointer, v]);
  const esc = (k: string) => k.replaceAll('~', '~0').replaceAll('/', '~1');
  if (v.kind === 'object') for (const m of v.members) withPointers(m.value, `${pointer}/${esc(m.key)}`, out);
  if (v.kind === 'array') v.items.forEach((item, i) => withPointers(item, `${pointer}/${i}`, out));
  return out;
}

/**
 * The schema check (`locateJson`) and completion/hover (`dataOf`, `pointerOf`
 * on the editor's tree) read the same text: they must agree on the data and
 * on the field path of every value, or a problem's path would name another
 * field than the one hover documents.
 */
function agree(text: string) {
  const state = EditorState.create({ doc: text, extensions: [json()] });
  const tree = ensureSyntaxTree(state, state.doc.length, 10_000);
  if (!tree) throw new Error('the editor did not parse the text');
  const located = locateJson(text);
  expect(dataOf(state, tree.topNode)).toEqual(plain(located));
  expect(plain(located)).toEqual(JSON.parse(text));
  for (const [pointer, v] of withPointers(located))
    expect({ at: v.from, pointer: pointerOf(state, tree.resolveInner(v.from, 1)) }).toEqual({ at: v.from, pointer });
}

describe('the editor reads JSON one way', () => {
  it('agrees on data and field paths for keys with escapes and nested arrays', () => {
    agree('{"a/b": [1, {"c~d": [true, null, "x\\"y"]}], "é": {"": -2.5e3}, "e": [[], [{}]]}');
  });

  it('agrees on every shipped scenario', () => {
    expect(shippedScenarios.length).toBeGreaterThan(0);
    for (const s of shippedScenarios) agree(s.text);
  }, 30_000);
});
