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

  it('virtual cores replace the threads and are asked for only when set', () => {
    const o = toRunOptions({ skipped: [], threads: 3, paceUs: null, virtualCores: 8 }, text);
    expect(o).toEqual({ virtual_cores: 8 });
    expect(toRunOptions({ skipped: [], threads: 3, paceUs: null, virtualCores: null }, text)).toEqual({ threads: 3 });
  });

  it('refuses more virtual cores than the pool can hold, saying why', () => {
    const pool = { maxVirtualCores: 16, poolThreads: 20 };
    expect(checkOverrides({ ...NO_OVERRIDES, virtualCores: 16 }, 16, pool)).toEqual([]);
    // A threads value left behind does not matter once virtual cores replace it.
    expect(checkOverrides({ ...NO_OVERRIDES, threads: 99, virtualCores: 2 }, 16, pool)).toEqual([]);
    for (const n of [0, 17, 2.5]) {
      const [p] = checkOverrides({ ...NO_OVERRIDES, virtualCores: n }, 16, pool);
      expect(p.field).toBe('virtual-cores');
      expect(p.message).toContain(`from 1 to 16, got ${n}`);
      expect(p.message).toContain("the engine's 20 pool threads");
    }
  });
});
