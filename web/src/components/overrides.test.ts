import { describe, expect, it } from 'vitest';
import { NO_OVERRIDES, schedulerNames, toRunOptions } from './overrides';

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
});
