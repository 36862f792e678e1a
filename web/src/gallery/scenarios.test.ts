import { describe, expect, it } from 'vitest';
import { galleryEntries, shippedScenarios } from './scenarios';

describe('gallery', () => {
  it('lists scenarios with name, description and tags, skips the schema, keeps broken files', () => {
    const e = galleryEntries({
      '../../../scenarios/b.json': '{"name":"B","description":"about b","tags":["ci",3]}',
      '../../../scenarios/scenario.schema.json': '{"title":"Scenario"}',
      '../../../scenarios/a.json': '{"description":"no name"',
    });
    expect(e.map((x) => x.file)).toEqual(['a.json', 'b.json']);
    expect(e[0]).toMatchObject({ name: 'a.json', error: expect.any(String) });
    expect(e[1]).toMatchObject({ name: 'B', description: 'about b', tags: ['ci'] });
  });

  it('bundles the shipped scenarios as raw text', () => {
    expect(shippedScenarios.length).toBeGreaterThan(0);
    for (const s of shippedScenarios) {
      expect(s.error).toBeUndefined();
      expect(s.file).toMatch(/\.json$/);
      expect(s.file).not.toBe('scenario.schema.json');
    }
  });
});
