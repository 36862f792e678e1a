import { describe, expect, it } from 'vitest';
import { decode, encode, make, type KindName } from '../../trace/codec';
import { HOME_HOW } from './sentences';
import { rng } from '../../trace/synth';
import vocabulary from '../../trace/vocabulary.json';
import { colorRuns, INTERVALS, LEFT_SQ, overlaps, replayFromStart, stateAt, summarize, timeline } from './model';
import { REFUSAL_REASONS, refusalText } from './words';

/** The engine's names of a small field's codes (`psmr schema --trace`), by code. */
function engineCodes(kind: string, field: string): string[] {
  const entry = vocabulary.small_codes.find((c) => c.kind === kind && c.field === field);
  if (!entry) throw new Error(`the engine vocabulary has no codes for ${kind}.${field}`);
  return entry.names;
}

describe("coloring codes are the engine vocabulary's", () => {
  it('words every refusal heuristic and every way a color finds its core', () => {
    engineCodes('steal-refused', 'heuristic').forEach((name, code) =>
      expect(REFUSAL_REASONS[code], `heuristic ${code} (${name})`).toBeDefined(),
    );
    const heuristics = engineCodes('steal-refused', 'heuristic').length;
    expect(Object.keys(REFUSAL_REASONS)).toHaveLength(heuristics);
    expect(refusalText({ heuristic: heuristics, left_ns: 0, cost_ns: 0 })).toBe(`refused (heuristic ${heuristics})`);
    engineCodes('color-home', 'how').forEach((name, code) =>
      expect(HOME_HOW[code], `how ${code} (${name})`).toBeDefined(),
    );
  });

  it("reads the stealing queue's intervals and its leaving code as the engine records them", () => {
    const names = engineCodes('steal-queue', 'interval');
    expect(LEFT_SQ).toBe(names.indexOf('left'));
    expect(INTERVALS).toHaveLength(names.length - 1);
  });
});

type Ev = [KindName, Record<string, number>, number, number];

function trace(events: Ev[]) {
  return decode(encode(events.map(([k, f, t, th]) => make(k, f, t, th))));
}

/**
 * Two cores (Mely). T0 registers events 1 and 2 of color 5 (claimed, joins
 * T0's queue and its stealing queue) and 3 of color 7, runs 3; T1 refuses a
 * steal on time left, then steals the whole color 5 (events 1 and 2, not
 * running) and runs them one after the other; color 7 leaves T0's queue
 * when 3 ends.
 */
const events = trace([
  ['ColorHome', { color: 5, core: 0, how: 1 }, 10, 0],
  ['ColorQueue', { color: 5, core: 0, len: 1, op: 0 }, 11, 0],
  ['StealQueue', { color: 5, core: 0, left_ns: 1500, interval: 1 }, 11, 0],
  ['Registered', { parent: 0, child: 1, color: 5, core: 0 }, 12, 0],
  ['Registered', { parent: 0, child: 2, color: 5, core: 0 }, 13, 0],
  ['ColorHome', { color: 7, core: 0, how: 1 }, 14, 0],
  ['ColorQueue', { color: 7, core: 0, len: 1, op: 0 }, 15, 0],
  ['StealQueue', { color: 7, core: 0, left_ns: 100, interval: 0 }, 15, 0],
  ['Registered', { parent: 0, child: 3, color: 7, core: 0 }, 16, 0],
  ['QueueLen', { of: 0, len: 3 }, 17, 0],
  ['StealQueue', { color: 7, core: 0, left_ns: 100, interval: 3 }, 18, 0],
  ['Dequeued', { req: 3 }, 19, 0],
  ['ExecStart', { req: 3 }, 20, 0],
  ['StealTry', { victim: 0, queued: 2 }, 21, 1],
  ['StealRefused', { heuristic: 2, color: 5, left_ns: 3000, cost_ns: 8000 }, 22, 1],
  ['StealTry', { victim: 0, queued: 2 }, 30, 1],
  ['StealQueue', { color: 5, core: 0, left_ns: 1500, interval: 3 }, 30, 1],
  ['StealQueue', { color: 5, core: 1, left_ns: 1500, interval: 1 }, 30, 1],
  ['ColorSteal', { victim: 0, color: 5, count: 2 }, 31, 1],
  ['StealCost', { victim: 0, steal_ns: 900, left_ns: 20000 }, 32, 1],
  ['StealQueue', { color: 5, core: 1, left_ns: 1500, interval: 3 }, 34, 1],
  ['Dequeued', { req: 1 }, 34, 1],
  ['ExecStart', { req: 1 }, 35, 1],
  ['ExecEnd', { req: 3 }, 40, 0],
  ['ColorQueue', { color: 7, core: 0, len: 0, op: 1 }, 41, 0],
  ['ExecEnd', { req: 1 }, 44, 1],
  ['Dequeued', { req: 2 }, 45, 1],
  ['ExecStart', { req: 2 }, 45, 1],
  ['ExecEnd', { req: 2 }, 50, 1],
]);

const tl = timeline(events, 2, 4);
const counts = (pos: number) => stateAt(tl, pos).cores.map((c) => c.colorQueues.map((q) => [q.color, q.events.length]));

describe('coloring timeline', () => {
  it('knows every registered event’s color from its registration', () => {
    expect([...tl.colorOf.entries()].sort()).toEqual([
      [1, 5],
      [2, 5],
      [3, 7],
    ]);
    expect(tl.colorQueues).toBe(true);
  });

  it('pairs a steal with its cost and a refusal with the victim looked at', () => {
    expect(tl.steals).toEqual([
      { i: 18, t_ns: 31, stealer: 1, victim: 0, color: 5, count: 2, steal_ns: 900, left_ns: 20000 },
    ]);
    expect(tl.refusals).toEqual([
      { i: 14, t_ns: 22, stealer: 1, victim: 0, heuristic: 2, color: 5, left_ns: 3000, cost_ns: 8000 },
    ]);
    expect(refusalText(tl.refusals[0])).toBe('time left 3 µs < steal cost 8 µs');
    expect(refusalText({ heuristic: 0, left_ns: 0, cost_ns: 0 })).toBe('fewer than two colors queued');
    expect(refusalText({ heuristic: 2, left_ns: 45, cost_ns: 1000 })).toBe('time left 45 ns < steal cost 1 µs');
    expect(refusalText({ heuristic: 2, left_ns: 2500, cost_ns: 12400 })).toBe('time left 2.5 µs < steal cost 12 µs');
  });

  it('replays the queues by position: joins, counts, the whole color moving with a steal, leaves', () => {
    // After the three registrations.
    expect(counts(9)).toEqual([
      [
        [5, 2],
        [7, 1],
      ],
      [],
    ]);
    const before = stateAt(tl, 14);
    expect(before.cores[0].colorQueues).toEqual([
      { color: 5, events: [1, 2] },
      { color: 7, events: [] },
    ]);
    expect(before.cores[0].queued).toBe(2);
    expect(before.cores[0].running).toEqual({ req: 3, color: 7 });
    expect(before.cores[0].nextOffer).toEqual({ color: 5, left_ns: 1500 });
    expect(before.cores[0].offers).toEqual([[], [{ color: 5, left_ns: 1500 }], []]);

    // Just after the steal: color 5 with both events at T1, in order; offered there now.
    const after = stateAt(tl, 19);
    expect(after.cores[0].colorQueues).toEqual([{ color: 7, events: [] }]);
    expect(after.cores[1].colorQueues).toEqual([{ color: 5, events: [1, 2] }]);
    expect(after.cores[0].nextOffer).toBeUndefined();
    expect(after.cores[1].nextOffer?.color).toBe(5);

    const running = stateAt(tl, 23);
    expect(running.cores[1].running).toEqual({ req: 1, color: 5 });
    expect(running.cores[1].queued).toBe(1);

    const end = stateAt(tl, events.length);
    expect(end.cores[0].colorQueues).toEqual([]);
    expect(end.cores[1].colorQueues).toEqual([{ color: 5, events: [] }]);
    expect(end.cores.map((c) => c.running)).toEqual([undefined, undefined]);
  });

  it("lists a color's executions and finds no overlap in a correct run", () => {
    const runs = colorRuns(tl, 5, 100);
    expect(runs.map((e) => e.req)).toEqual([1, 2]);
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

/**
 * A random Libasync-like run on 3 cores: registrations into any core
 * (colors stay with their owner), dequeues of a color's first event, whole
 * colors stolen, executions. Returns the trace and `truth[pos]`, the
 * events each core held after the first `pos` events, as the generator
 * knew them.
 */
function randomRun(seed: number, n: number) {
  const next01 = rng(seed);
  const pick = (k: number) => Math.floor(next01() * k);
  const cores = 3;
  const owner = new Map<number, number>();
  const held: Map<number, number[]>[] = Array.from({ length: cores }, () => new Map());
  const colorOf = new Map<number, number>();
  const evs: Ev[] = [];
  const truth: number[][] = [[0, 0, 0]];
  const push = (e: Ev) => {
    evs.push(e);
    truth.push(held.map((m) => [...m.values()].reduce((s, q) => s + q.length, 0)));
  };
  let nextEvent = 0;
  for (let t = 0; evs.length < n; t++) {
    const r = pick(10);
    if (r < 5) {
      const color = pick(6);
      const core = owner.get(color) ?? pick(cores);
      owner.set(color, core);
      const e = nextEvent++;
      colorOf.set(e, color);
      held[core].set(color, [...(held[core].get(color) ?? []), e]);
      push(['Registered', { parent: 0, child: e, color, core }, t, pick(cores)]);
    } else if (r < 9) {
      const core = pick(cores);
      const colors = [...held[core].keys()];
      if (colors.length === 0) continue;
      const color = colors[pick(colors.length)];
      const q = held[core].get(color) ?? [];
      const e = q.shift() as number;
      if (q.length === 0) {
        held[core].delete(color);
        owner.delete(color);
      }
      push(['Dequeued', { req: e }, t, core]);
      push(['ExecStart', { req: e }, t, core]);
      push(['ExecEnd', { req: e }, t, core]);
    } else {
      const victim = pick(cores);
      const stealer = (victim + 1 + pick(cores - 1)) % cores;
      const colors = [...held[victim].keys()];
      if (colors.length === 0) continue;
      const color = colors[pick(colors.length)];
      const q = held[victim].get(color) ?? [];
      push(['StealTry', { victim, queued: q.length }, t, stealer]);
      held[victim].delete(color);
      held[stealer].set(color, q);
      owner.set(color, stealer);
      push(['ColorSteal', { victim, color, count: q.length }, t, stealer]);
    }
  }
  return { trace: trace(evs), truth, colorOf };
}

describe('coloring queues at random positions', () => {
  it('equal a replay from scratch and the counts the run had', () => {
    let steals = 0;
    for (const seed of [1, 2, 3]) {
      const { trace: tr, truth, colorOf } = randomRun(seed, 600);
      for (const stride of [1, 7, 64, 2048]) {
        const t = timeline(tr, 3, stride);
        steals += t.steals.length;
        expect(t.colorOf).toEqual(colorOf);
        const pick = rng(seed * 31 + stride);
        for (let k = 0; k < 40; k++) {
          const pos = Math.floor(pick() * (tr.length + 1));
          const now = stateAt(t, pos);
          expect(now).toEqual(summarize(replayFromStart(t, pos)));
          expect(now.cores.map((c) => c.queued)).toEqual(truth[pos]);
        }
      }
    }
    expect(steals).toBeGreaterThan(0);
  });
});
