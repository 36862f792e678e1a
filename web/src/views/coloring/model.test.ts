import { describe, expect, it } from 'vitest';
import { decode, encode, make, type KindName } from '../../trace/codec';
import { colorRuns, coresAt, overlaps, refusalText, timeline } from './model';

function trace(events: [KindName, Record<string, number>, number, number][]) {
  return decode(encode(events.map(([k, f, t, th]) => make(k, f, t, th))));
}

/**
 * Two cores. T0 registers events 1 and 2 of color 5 (claimed, joins T0's
 * queue) and 3 of color 7 (joins), runs 3; T1 refuses a steal on time left,
 * then steals the whole color 5 (events 1 and 2, not running) and runs them
 * one after the other; color 7 leaves T0's queue when 3 ends.
 */
const events = trace([
  ['ColorHome', { color: 5, core: 0, how: 1 }, 10, 0],
  ['ColorQueue', { color: 5, core: 0, len: 1, op: 0 }, 11, 0],
  ['Registered', { parent: 0, child: 1 }, 12, 0],
  ['Registered', { parent: 0, child: 2 }, 13, 0],
  ['ColorHome', { color: 7, core: 0, how: 1 }, 14, 0],
  ['ColorQueue', { color: 7, core: 0, len: 1, op: 0 }, 15, 0],
  ['Registered', { parent: 0, child: 3 }, 16, 0],
  ['QueueLen', { of: 0, len: 3 }, 17, 0],
  ['ExecStart', { req: 3 }, 20, 0],
  ['StealTry', { victim: 0, queued: 2 }, 21, 1],
  ['StealRefused', { heuristic: 2, color: 5, left_ns: 3000, cost_ns: 8000 }, 22, 1],
  ['StealTry', { victim: 0, queued: 2 }, 30, 1],
  ['ColorSteal', { victim: 0, color: 5, count: 2 }, 31, 1],
  ['StealCost', { victim: 0, steal_ns: 900, left_ns: 20000 }, 32, 1],
  ['QueueLen', { of: 1, len: 2 }, 33, 1],
  ['ExecStart', { req: 1 }, 35, 1],
  ['ExecEnd', { req: 3 }, 40, 0],
  ['ColorQueue', { color: 7, core: 0, len: 0, op: 1 }, 41, 0],
  ['ExecEnd', { req: 1 }, 44, 1],
  ['ExecStart', { req: 2 }, 45, 1],
  ['ExecEnd', { req: 2 }, 50, 1],
]);

describe('coloring timeline', () => {
  const tl = timeline(events);

  it('knows the color of events registered right after a claim or a join, and only those', () => {
    expect([...tl.colorOf.entries()].sort()).toEqual([
      [1, 5],
      [3, 7],
    ]);
    // Event 2 followed event 1 into an already joined color-queue: not guessed.
    expect(tl.colorOf.has(2)).toBe(false);
  });

  it('pairs a steal with its cost and a refusal with the victim looked at', () => {
    expect(tl.steals).toEqual([
      { i: 12, t_ns: 31, stealer: 1, victim: 0, color: 5, count: 2, steal_ns: 900, left_ns: 20000 },
    ]);
    expect(tl.refusals).toEqual([
      { i: 10, t_ns: 22, stealer: 1, victim: 0, heuristic: 2, color: 5, left_ns: 3000, cost_ns: 8000 },
    ]);
    expect(refusalText(tl.refusals[0])).toBe('time left 3 µs < steal cost 8 µs');
    expect(refusalText({ heuristic: 0, left_ns: 0, cost_ns: 0 })).toBe('fewer than two colors queued');
    expect(refusalText({ heuristic: 2, left_ns: 45, cost_ns: 1000 })).toBe('time left 45 ns < steal cost 1 µs');
    expect(refusalText({ heuristic: 2, left_ns: 2500, cost_ns: 12400 })).toBe('time left 2.5 µs < steal cost 12 µs');
  });

  it('replays the color-queues: joins, the whole color moving with a steal, tail moves and leaves', () => {
    const before = coresAt(tl, 2, 25);
    expect(before.cores[0].colorQueues).toEqual([
      { color: 5, len: 1 },
      { color: 7, len: 1 },
    ]);
    expect(before.cores[1].colorQueues).toEqual([]);
    expect(before.cores[0].running).toEqual({ req: 3, color: 7 });
    expect(before.cores[0].queued).toBe(3);
    expect(before.cores[1].queued).toBeUndefined();
    expect(before.lastRefusal?.heuristic).toBe(2);
    expect(before.steals).toBe(0);

    const after = coresAt(tl, 2, 36);
    expect(after.cores[0].colorQueues).toEqual([{ color: 7, len: 1 }]);
    expect(after.cores[1].colorQueues).toEqual([{ color: 5, len: 2 }]);
    expect(after.lastSteal?.color).toBe(5);
    expect(after.steals).toBe(1);
    expect(after.cores[0].running).toEqual({ req: 3, color: 7 });
    expect(after.cores[1].running).toEqual({ req: 1, color: 5 });
    expect(after.cores[1].queued).toBe(2);

    const end = coresAt(tl, 2, 60);
    expect(end.cores[0].colorQueues).toEqual([]);
    expect(end.cores[0].running).toBeUndefined();
    expect(end.cores[1].running).toBeUndefined();
  });

  it("lists a color's executions and finds no overlap in a correct run", () => {
    const runs = colorRuns(tl, 5, 100);
    expect(runs.map((e) => e.req)).toEqual([1]);
    expect(overlaps(runs)).toEqual([]);
  });

  it('finds two executions of one color at once', () => {
    const a = { req: 1, thread: 0, start_ns: 0, end_ns: 100 };
    const b = { req: 2, thread: 1, start_ns: 10, end_ns: 20 };
    const c = { req: 3, thread: 1, start_ns: 50, end_ns: 60 };
    // c overlaps a, not b: the check compares with the longest earlier run.
    expect(overlaps([a, b, c])).toEqual([
      [a, b],
      [a, c],
    ]);
    expect(overlaps([b, c])).toEqual([]);
  });
});
