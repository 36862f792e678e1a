import { describe, expect, it } from 'vitest';
import { nearestSyncs } from './chart';
import type { RepartTimeline } from './model';

/** Ten syncs at 0, 10, ..., 90 ns. */
const tl: RepartTimeline = {
  switches: [],
  partitions: [],
  pauses: [],
  syncs: Array.from({ length: 10 }, (_, i) => ({ t_ns: i * 10, req: i, lanes: 0b11, executor: 0 })),
  cv: [],
  deliveredAt: new Map(),
};

describe('nearestSyncs', () => {
  it('takes a window of k syncs centred on the replay time', () => {
    expect(nearestSyncs(tl, 45, 4).map((s) => s.req)).toEqual([3, 4, 5, 6]);
  });
  it('clamps the window at both ends of the run', () => {
    expect(nearestSyncs(tl, 0, 4).map((s) => s.req)).toEqual([0, 1, 2, 3]);
    expect(nearestSyncs(tl, 1000, 4).map((s) => s.req)).toEqual([6, 7, 8, 9]);
    expect(nearestSyncs(tl, 50, 100)).toHaveLength(10);
  });
});
