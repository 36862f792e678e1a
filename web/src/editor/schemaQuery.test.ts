import jsonQuery from '@sagold/json-query';
import { describe, expect, it } from 'vitest';
import { parse } from './emailFormat';
import { scenarioSchema } from './schema';
import { get } from './schemaQuery';

/** Every query json-schema-library's getTypeDefs asks (lib/schema/types.js). */
const QUERIES = [
  'allOf/*',
  'anyOf/*',
  'oneOf/*',
  'not',
  'items',
  'items/*',
  'additionalItems',
  'properties/*',
  'additionalProperties',
  'patternProperties/*',
  'dependencies/*',
];

type Hit = [unknown, string | null, unknown, string];

function collect(query: (cb: (...h: Hit) => void) => void): Hit[] {
  const hits: Hit[] = [];
  query((...h) => hits.push(h));
  return hits;
}

/** Every object node of a JSON value, the value itself first. */
function nodes(v: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (v !== null && typeof v === 'object') {
    out.push(v as Record<string, unknown>);
    for (const c of Object.values(v)) nodes(c, out);
  }
  return out;
}

describe('the stand-ins inside json-schema-library', () => {
  it('answers every getTypeDefs query on every node of the scenario schema as json-query does', () => {
    expect(scenarioSchema).toBeDefined();
    // The real library here: the build-time stand-in applies inside json-schema-library only.
    expect(jsonQuery.get).not.toBe(get);
    const all = nodes(scenarioSchema);
    let hits = 0;
    for (const node of all) {
      for (const q of QUERIES) {
        const ours = collect((cb) => get(node, q, cb));
        const theirs = collect((cb) => jsonQuery.get(node, q, cb));
        expect(ours).toEqual(theirs);
        hits += ours.length;
      }
    }
    // The schema does nest sub-schemas under these keywords.
    expect(hits).toBeGreaterThan(50);
  });

  it('escapes pointer tokens (json-query does not) and refuses other queries', () => {
    const hits = collect((cb) => get({ properties: { 'a/b~c': 1 } }, 'properties/*', cb));
    expect(hits.map((h) => h[3])).toEqual(['#/properties/a~1b~0c']);
    expect(() => get({}, 'properties/**', () => undefined)).toThrow(/unsupported/);
    expect(() => get({}, '#/a', () => undefined)).toThrow(/unsupported/);
  });

  it('checks the shape of an email address', () => {
    expect(parse('ada@example.org')).toEqual({ local: 'ada', domain: 'example.org' });
    for (const bad of ['ada', 'ada@', '@example.org', 'a b@example.org', 'ada@example', 'a@b@c.org']) {
      expect(() => parse(bad)).toThrow();
    }
  });
});
