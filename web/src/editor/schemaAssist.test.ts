import { CompletionContext } from '@codemirror/autocomplete';
import { json } from '@codemirror/lang-json';
import { EditorState, type TransactionSpec } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { hoverTexts, scenarioSchemaFacet, schemaCompletion } from './schemaAssist';
import type { Schema } from './schemaCheck';
import { scenarioSchema } from './schema';

const ROOT: Schema = {
  type: 'object',
  properties: {
    threads: { type: 'integer', minimum: 1, maximum: 64, description: 'Worker threads.' },
    name: { type: 'string', description: 'The name.' },
    app: { $ref: '#/$defs/App' },
    flag: { anyOf: [{ type: 'boolean' }, { type: 'null' }] },
    cost: { type: 'string', enum: ['light', 'heavy'] },
  },
  $defs: {
    App: {
      description: 'The application.',
      oneOf: [
        { type: 'object', properties: { kind: { const: 'list' }, shards: { type: 'integer' } } },
        { type: 'object', properties: { kind: { const: 'kv' }, keys: { type: 'integer' } } },
      ],
    },
  },
};

/** The state of `text` with the cursor at `|` (removed). */
function at(text: string, schema: Schema | null = ROOT) {
  const pos = text.indexOf('|');
  const state = EditorState.create({
    doc: text.slice(0, pos) + text.slice(pos + 1),
    extensions: [json(), scenarioSchemaFacet.of(schema ?? undefined)],
  });
  return { state, pos };
}

function complete(text: string, explicit = true) {
  const { state, pos } = at(text);
  const r = schemaCompletion(new CompletionContext(state, pos, explicit));
  /** The document after choosing option `i`, with the cursor shown as `|`. */
  const choose = (i: number) => {
    let after = state;
    const apply = r?.options[i].apply;
    if (typeof apply !== 'function') throw new Error('apply is not a function');
    apply(
      { dispatch: (spec: TransactionSpec) => (after = state.update(spec).state) } as never,
      r!.options[i],
      r!.from,
      pos,
    );
    const c = after.selection.main.head;
    return after.doc.sliceString(0, c) + '|' + after.doc.sliceString(c);
  };
  return r && { labels: r.options.map((o) => o.label), from: r.from, choose };
}

function hover(text: string, schema?: Schema) {
  const { state, pos } = at(text, schema);
  const t = hoverTexts(state, pos, 1);
  return t && { range: state.doc.sliceString(t.from, t.to), text: `${t.description ?? ''}|${t.type}` };
}

describe('completion from the schema', () => {
  it('offers the property names not yet used, in a key being typed', () => {
    const r = complete('{\n  "name": "x",\n  "|"\n}');
    expect(r?.labels).toEqual(['"threads"', '"app"', '"flag"', '"cost"']);
    expect(r?.choose(0)).toBe('{\n  "name": "x",\n  "threads": |\n}');
    expect(r?.from).toBe(19); // the opening quote of the key
  });

  it('offers property names after an opening quote with no closing one', () => {
    const r = complete('{\n  "|\n}');
    expect(r?.labels).toContain('"threads"');
    expect(r?.from).toBe(4);
    expect(r?.choose(0)).toBe('{\n  "threads": |\n}');
    expect(complete('{"name": "x", "|\n}')?.labels).not.toContain('"name"');
  });

  it('offers property names far into a document the editor has not parsed yet', () => {
    // A new state's parse stops a few thousand characters in; the cursor is past it.
    const filler = `"name": "${'x'.repeat(20_000)}",\n  `;
    const r = complete(`{\n  ${filler}"|\n}`);
    expect(r?.labels).toContain('"threads"');
    expect(r?.labels).not.toContain('"name"');
  });

  it('offers property names on request in an empty object, and nothing unasked', () => {
    expect(complete('{|}')?.labels).toContain('"name"');
    expect(complete('{|}', false)).toBeNull();
  });

  it('offers the properties of the oneOf branch the tag picks, else of every branch', () => {
    expect(complete('{"app": {"kind": "kv", "|"}}')?.labels).toEqual(['"keys"']);
    expect(complete('{"app": {"kind": "kv", "k|": 3}}')?.choose(0)).toBe('{"app": {"kind": "kv", "keys"|: 3}}');
    expect(complete('{"app": {"|"}}')?.labels).toEqual(['"kind"', '"shards"', '"keys"']);
  });

  it('offers constants at a value: enums, booleans and null, oneOf consts', () => {
    expect(complete('{"cost": |}')?.labels).toEqual(['"light"', '"heavy"']);
    expect(complete('{"flag": |}')?.labels).toEqual(['true', 'false', 'null']);
    const tag = complete('{"app": {"kind": "l|"}}');
    expect(tag?.labels).toEqual(['"list"', '"kv"']);
    expect(tag?.choose(1)).toBe('{"app": {"kind": "kv"|}}');
  });

  it('offers nothing without a schema or where the schema says nothing', () => {
    const { state, pos } = at('{"|"}', null);
    expect(schemaCompletion(new CompletionContext(state, pos, true))).toBeNull();
    expect(complete('{"threads": |}')).toBeNull();
  });
});

describe('hover documentation from the schema', () => {
  it('shows the description and the range of a key', () => {
    expect(hover('{"thr|eads": 3}')).toEqual({ range: '"threads"', text: 'Worker threads.|integer, 1..=64' });
  });

  it('follows $ref and the oneOf branch into a nested value', () => {
    expect(hover('{"app": {"kind": "kv", "ke|ys": 1}}')?.text).toBe('|integer');
    expect(hover('{"a|pp": {}}')?.text).toMatch(/^The application\./);
  });

  it('shows nothing outside the schema', () => {
    expect(hover('{"oth|er": 1}')).toBeNull();
  });

  it('documents `threads` from the committed scenario schema', () => {
    expect(hover('{"thr|eads": 3}', scenarioSchema)?.text).toMatch(/^Worker threads/);
  });
});
