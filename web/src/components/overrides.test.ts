import { describe, expect, it } from 'vitest';
import { checkOverrides, NO_OVERRIDES, schedulerNames, toRunOptions } from './overrides';

const text = JSON.stringify({
  schedulers: [{ id: 'sequential' }, { id: 'early', label: 'naive' }, { id: 'busy-wait' }],
});

describe('run overrides', () => {
  it('lists the schedulers by label, else id', () => {
    expect(schedulerNames(text)).toEqual(['sequential', 'naive', 'busy-wait']);
    expect(schedulerNames('{ not json')).toEqual([]);
    expect(schedulerNames('{"schedulers": 3}')).toEqual([]);
  });

  it('no overrides asks for nothing', () => {
    expect(toRunOptions(NO_OVERRIDES, text)).toEqual({});
  });

  it('unticked schedulers are left out, threads and pace pass through', () => {
    const o = toRunOptions({ skipped: ['naive'], threads: 3, paceUs: 1.5 }, text);
    expect(o).toEqual({ schedulers: ['sequential', 'busy-wait'], threads: 3, pace_ns: 1500 });
  });

  it('names a bad threads or pace override at its own field, in its own unit', () => {
    expect(checkOverrides(NO_OVERRIDES, 16)).toEqual([]);
    expect(checkOverrides({ skipped: [], threads: 4, paceUs: 250 }, 16)).toEqual([]);
    const bad = checkOverrides({ skipped: [], threads: 40, paceUs: -5 }, 16);
    expect(bad.map((p) => p.field)).toEqual(['threads', 'pace']);
    expect(bad[0].message).toContain('1 to 16');
    expect(bad[1].message).toContain('got -5 µs');
    expect(checkOverrides({ skipped: [], threads: 2.5, paceUs: null }, 16)[0].field).toBe('threads');
    expect(checkOverrides({ skipped: [], threads: null, paceUs: 200_000 }, 16)[0].field).toBe('pace');
  });
});
