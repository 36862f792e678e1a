import { describe, expect, it } from 'vitest';
import { decode, encode, make, SCHEDULER, AUX_BASE, type KindName } from '../../trace/codec';
import { lanesOf } from './lanes';
import { cutOf, cvPercent, ownersAt, pausedAt, seenAt, timeline, type GraphView } from './model';

function trace(events: [KindName, Record<string, number>, number, number][]) {
  return decode(encode(events.map(([k, f, t, th]) => make(k, f, t, th))));
}

/** Four keys 10..13 on two workers, placed 0,1,0,1; a scan reads 10-11, another 12-13. */
const graph: GraphView = {
  workers: 2,
  keys: [10, 11, 12, 13],
  first_request: [0, 0, 1, 1],
  initial_owner: [0, 1, 0, 1],
  weight: [1, 1, 1, 1],
  edges: [
    [0, 1, 3],
    [2, 3, 2],
  ],
  edges_total: 2,
};

const events = trace([
  ['Delivered', { req: 0, class: 0 }, 100, SCHEDULER],
  ['SyncQueued', { req: 0, lanes: 0b11, executor: 0 }, 110, SCHEDULER],
  ['QueueLen', { of: 0, len: 4 }, 150, 0],
  ['QueueLen', { of: 1, len: 0 }, 150, 0],
  ['SchedulerPause', { epoch: 1 }, 200, SCHEDULER],
  ['PartitionStart', { epoch: 1, vertices: 4, edges: 2 }, 210, SCHEDULER],
  ['Partitioned', { epoch: 1, cut: 0, time_us: 5 }, 260, SCHEDULER],
  ['KeyMoved', { key: 11, from: 1, to: 0 }, 270, SCHEDULER],
  ['KeyMoved', { key: 12, from: 0, to: 1 }, 270, SCHEDULER],
  ['MapSwitch', { epoch: 1, moved: 2 }, 270, SCHEDULER],
  ['MapBalance', { epoch: 1, imbalance_permille: 1000, keys: 4 }, 270, SCHEDULER],
  ['SchedulerResume', { epoch: 1, pause_us: 0 }, 300, SCHEDULER],
  ['Delivered', { req: 1, class: 0 }, 310, SCHEDULER],
  ['QueueLen', { of: 0, len: 2 }, 400, AUX_BASE],
  ['QueueLen', { of: 1, len: 2 }, 400, AUX_BASE],
]);

describe('repartitioning timeline', () => {
  const tl = timeline(events);

  it('collects switches with their moves, partitions with cut and balance, pauses and syncs', () => {
    expect(tl.switches).toEqual([
      {
        t_ns: 270,
        epoch: 1,
        moved: 2,
        moves: [
          { key: 11, from: 1, to: 0 },
          { key: 12, from: 0, to: 1 },
        ],
      },
    ]);
    expect(tl.partitions).toEqual([
      { epoch: 1, start_ns: 210, end_ns: 260, vertices: 4, edges: 2, cut: 0, time_us: 5, imbalance_permille: 1000 },
    ]);
    expect(tl.pauses).toEqual([{ epoch: 1, start_ns: 200, end_ns: 300 }]);
    expect(tl.syncs).toEqual([{ t_ns: 110, req: 0, lanes: 3, executor: 0 }]);
    expect(lanesOf(tl.syncs[0].lanes)).toEqual([0, 1]);
    expect(pausedAt(tl, 250)).toBe(true);
    expect(pausedAt(tl, 300)).toBe(false);
  });

  it('computes the queue CV per clock tick', () => {
    // Tick 150: lengths 4, 0: mean 2, sd 2, CV 100 %. Tick 400: 2, 2: CV 0.
    expect(tl.cv).toEqual([
      { t_ns: 150, cv: 100 },
      { t_ns: 400, cv: 0 },
    ]);
    expect(cvPercent([0, 0])).toBeNull();
  });

  it('recolors keys at each switch and marks the moved ones', () => {
    const before = ownersAt(graph, tl, 260);
    expect(Array.from(before.owner)).toEqual([0, 1, 0, 1]);
    expect(before.epoch).toBe(0);
    expect(cutOf(graph, before.owner)).toBe(5);
    const after = ownersAt(graph, tl, 270);
    expect(Array.from(after.owner)).toEqual([0, 0, 1, 1]);
    expect([...after.lastMoved].sort()).toEqual([1, 2]);
    expect(after.epoch).toBe(1);
    expect(cutOf(graph, after.owner)).toBe(0);
  });

  it('knows which keys were seen by a time', () => {
    expect(Array.from(seenAt(graph, tl, 200))).toEqual([1, 1, 0, 0]);
    // Only placed keys count in the cut: 10-11 are apart, 12-13 not placed yet.
    expect(cutOf(graph, ownersAt(graph, tl, 200).owner, seenAt(graph, tl, 200))).toBe(3);
    expect(Array.from(seenAt(graph, tl, 310))).toEqual([1, 1, 1, 1]);
  });
});
