import { describe, expect, it } from 'vitest';
import { locateJson, plain, type Located } from './jsonLocate';

describe('the located JSON parse', () => {
  it('gives the same value as JSON.parse, escapes and nesting included', () => {
    const text = ' {"a": [1, -2.5e3, true, null, "x\\"y\\u00e9"], "b": {}, "c": [], "a\\/b": {"d": false}} ';
    expect(plain(locateJson(text))).toEqual(JSON.parse(text));
  });

  it('keeps the span of every key and value', () => {
    const text = '{\n  "name": "ü😀x",\n  "list": [ 1, {"k": 2} ]\n}';
    const root = locateJson(text);
    const span = (v: Located) => text.slice(v.from, v.to);
    if (root.kind !== 'object') throw new Error('not an object');
    expect(root.members.map((m) => text.slice(m.keyFrom, m.keyTo))).toEqual(['"name"', '"list"']);
    expect(span(root.members[0].value)).toBe('"ü😀x"');
    const list = root.members[1].value;
    expect(span(list)).toBe('[ 1, {"k": 2} ]');
    if (list.kind !== 'array') throw new Error('not an array');
    expect(list.items.map(span)).toEqual(['1', '{"k": 2}']);
  });

  it('refuses what is not JSON', () => {
    for (const bad of ['{"a": 1,}', '[1 2]', '{"a" 1}', '"open', '1 2', '{a: 1}', ''])
      expect(() => locateJson(bad), bad).toThrow(SyntaxError);
  });
});
