import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../engine/protocol';
import { groupTitle, outcomeGroups } from './outcomeGroups';

const V8 = 'virtual 8 cores (model, reference cost table)';
const run = (label: string, mode_label?: string) => ({ label, scheduler: label, mode_label }) as RunReport;

describe('outcome chart groups', () => {
  it('never put a virtual run in a group with a measured one', () => {
    const gs = outcomeGroups([run('a', V8), run('b'), run('c', V8)]);
    expect(gs.map((g) => [g.kind, g.runs.map((r) => r.label)])).toEqual([
      ['real', ['b']],
      [V8, ['a', 'c']],
    ]);
    for (const g of gs) expect(new Set(g.runs.map((r) => r.mode_label ?? 'real')).size).toBe(1);
  });

  it('add the report before when its kind differs (the real run beside the virtual one), measured first', () => {
    const gs = outcomeGroups([run('Base', V8), run('Async', V8)], [run('Base'), run('Async')]);
    expect(gs.map((g) => [g.before, g.virtual])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(groupTitle(gs[0])).toBe('real threads (measured), the run before');
    expect(groupTitle(gs[1])).toBe(V8);
  });

  it('leave the report before out when it is of the same kind (the charts show the current report, as before)', () => {
    expect(outcomeGroups([run('a')], [run('a')])).toHaveLength(1);
    expect(outcomeGroups([run('a', V8)], [run('a', V8)])).toHaveLength(1);
    expect(outcomeGroups([])).toEqual([]);
  });
});
