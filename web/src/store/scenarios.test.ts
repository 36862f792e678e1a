import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO, describe as describeScenario, listScenarios } from './scenarios';

describe('scenario list', () => {
  it('puts the default first and names entries by file', () => {
    const list = listScenarios({
      '/x/scenarios/b.json': '{"name": "B", "description": "second"}',
      [`/x/scenarios/${DEFAULT_SCENARIO}`]: '{"name": "Q", "description": "default"}',
      '/x/scenarios/a.json': '{"name": "A"}',
    });
    expect(list.map((s) => s.file)).toEqual([DEFAULT_SCENARIO, 'a.json', 'b.json']);
    expect(list[0]).toMatchObject({ name: 'Q', description: 'default' });
    expect(list[1].description).toBe('');
  });

  it('tolerates a file that is not valid JSON', () => {
    const e = describeScenario('bad.json', '{ "name": ');
    expect(e).toMatchObject({ file: 'bad.json', name: 'bad', description: '(not valid JSON)' });
  });

  it('bundles the repository scenarios, quickstart first, without the schema', () => {
    const list = listScenarios();
    expect(list[0].file).toBe(DEFAULT_SCENARIO);
    expect(list.some((s) => s.file.endsWith('.schema.json'))).toBe(false);
    expect(JSON.parse(list[0].text)).toHaveProperty('schedulers');
  });
});
