import { describe, expect, it } from 'vitest';
import { locateJson } from './jsonLocate';
import { schemaAt, validate, type Schema } from './schemaCheck';

/** A small schema in the shape schemars writes: `$defs`, tagged `oneOf`s, nullable `anyOf`s. */
const ROOT: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'app'],
  properties: {
    name: { type: 'string', description: 'The name.' },
    threads: { type: 'integer', minimum: 1, maximum: 64 },
    ratio: { type: 'number', minimum: 0, maximum: 1 },
    tag: { type: 'string', pattern: '^[a-z]+$' },
    app: { $ref: '#/$defs/App' },
    delivery: { anyOf: [{ $ref: '#/$defs/Delivery' }, { type: 'null' }] },
    mode: { $ref: '#/$defs/Mode' },
    cost: { type: 'string', enum: ['light', 'heavy'] },
    mix: { type: 'object', additionalProperties: { type: 'number', minimum: 0 } },
    list: { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 2 },
  },
  $defs: {
    App: {
      oneOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['kind'],
          properties: { kind: { type: 'string', const: 'list' }, shards: { type: 'integer', minimum: 1 } },
        },
        {
          type: 'object',
          additionalProperties: false,
          required: ['kind', 'keys'],
          properties: { kind: { type: 'string', const: 'kv' }, keys: { type: 'integer' } },
        },
      ],
    },
    Delivery: {
      type: 'object',
      additionalProperties: false,
      required: ['rate'],
      properties: { rate: { type: 'number', description: 'Requests a second.' } },
    },
    Mode: {
      oneOf: [
        { type: 'string', const: 'sequential' },
        { type: 'string', const: 'concurrent' },
      ],
    },
  },
};

function problems(text: string) {
  return validate(ROOT, ROOT, locateJson(text)).map((p) => ({
    pointer: p.pointer,
    at: text.slice(p.from, p.to),
    message: p.message,
  }));
}

const base = '"name": "x", "app": {"kind": "list"}';

describe('schema validation', () => {
  it('accepts a valid document', () => {
    expect(problems(`{${base}, "threads": 4, "delivery": null, "mode": "concurrent", "mix": {"R": 0.5}}`)).toEqual([]);
  });

  it('reports a wrong type at the value', () => {
    expect(problems(`{${base}, "threads": "two"}`)).toEqual([
      { pointer: '/threads', at: '"two"', message: 'Expected `integer` but received `string`' },
    ]);
  });

  it('accepts an integer where a number goes, not a fraction where an integer goes', () => {
    expect(problems(`{${base}, "ratio": 1}`)).toEqual([]);
    expect(problems(`{${base}, "threads": 1.5}`)[0].message).toMatch(/integer.*number/);
  });

  it('checks the range and the pattern', () => {
    expect(problems(`{${base}, "threads": 99, "ratio": -0.5, "tag": "A1"}`)).toEqual([
      { pointer: '/threads', at: '99', message: '`99` is above the maximum 64' },
      { pointer: '/ratio', at: '-0.5', message: '`-0.5` is below the minimum 0' },
      { pointer: '/tag', at: '"A1"', message: '`A1` does not match the pattern `^[a-z]+$`' },
    ]);
  });

  it('reports an unknown property at its key and a missing one at the object', () => {
    expect(problems('{"name": "x", "colour": 1}')).toEqual([
      { pointer: '', at: '', message: 'The required property `app` is missing' },
      { pointer: '/colour', at: '"colour"', message: 'Property `colour` is not allowed here' },
    ]);
  });

  it('follows $ref and reports inside the oneOf branch the tag names', () => {
    expect(problems('{"name": "x", "app": {"kind": "kv", "shards": 2}}')).toEqual([
      { pointer: '/app', at: '"app"', message: 'The required property `keys` is missing' },
      { pointer: '/app/shards', at: '"shards"', message: 'Property `shards` is not allowed here' },
    ]);
  });

  it('lists the branches when no oneOf branch is meant', () => {
    expect(problems('{"name": "x", "app": {"kind": "tree"}}')).toEqual([
      { pointer: '/app', at: '{"kind": "tree"}', message: 'Expected one of {"kind": `"list"`} or {"kind": `"kv"`}' },
    ]);
    expect(problems(`{${base}, "mode": "random"}`)[0]).toMatchObject({
      pointer: '/mode',
      message: 'Expected one of `"sequential"` or `"concurrent"`',
    });
  });

  it('reports inside the non-null branch of a nullable anyOf', () => {
    expect(problems(`{${base}, "delivery": {"rate": "fast"}}`)).toEqual([
      { pointer: '/delivery/rate', at: '"fast"', message: 'Expected `number` but received `string`' },
    ]);
  });

  it('checks enum values, additionalProperties schemas and array items and length', () => {
    expect(problems(`{${base}, "cost": "medium", "mix": {"R": -1}, "list": [1, "a", 3]}`)).toEqual([
      { pointer: '/cost', at: '"medium"', message: 'Expected one of `"light"` or `"heavy"`' },
      { pointer: '/mix/R', at: '-1', message: '`-1` is below the minimum 0' },
      { pointer: '/list', at: '[1, "a", 3]', message: 'At most 2 item(s) expected' },
      { pointer: '/list/1', at: '"a"', message: 'Expected `integer` but received `string`' },
    ]);
    expect(problems(`{${base}, "list": []}`)[0].message).toBe('At least 1 item(s) expected');
  });

  it('reports a value that matches two oneOf branches', () => {
    const twice: Schema = { oneOf: [{ type: 'integer' }, { type: 'number' }] };
    expect(validate(twice, twice, locateJson('3'))[0].message).toMatch(/more than one/);
    expect(validate(twice, twice, locateJson('3.5'))).toEqual([]);
  });
});

describe('the schema at a place', () => {
  it('follows properties, $ref, items and the branch the data means', () => {
    expect(schemaAt(ROOT, '/name', undefined)?.description).toBe('The name.');
    expect(schemaAt(ROOT, '/delivery/rate', undefined)?.description).toBe('Requests a second.');
    expect(schemaAt(ROOT, '/list/0', undefined)?.type).toBe('integer');
    expect(schemaAt(ROOT, '/mix/anything', undefined)?.minimum).toBe(0);
    expect(schemaAt(ROOT, '/app/keys', { app: { kind: 'kv' } })?.type).toBe('integer');
    expect(schemaAt(ROOT, '/app/keys', { app: { kind: 'list' } })).toBeUndefined();
    expect(schemaAt(ROOT, '/nothing', undefined)).toBeUndefined();
  });
});
