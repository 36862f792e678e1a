/**
 * The event-coloring view's data (paper 002: Libasync-smp and Mely), read
 * once per trace into a timeline (pure functions, no DOM), and the state of
 * the cores at any replay time derived from it.
 *
 * What the trace says and what is inferred:
 * - Each core's color-queues (Mely): `ColorQueue` joins, leaves and moves
 *   to the tail, with the events the color holds at that moment; a
 *   `ColorSteal` moves the whole color-queue from the victim to the
 *   stealer.
 * - Each core's queue length: the `QueueLen` samples.
 * - Steals with their cost (`ColorSteal` then `StealCost` of the same
 *   thread) and refusals with their reason (`StealRefused`, victim from
 *   the thread's last `StealTry`).
 * - The color of an event is not in every trace event: it is known when
 *   the registering thread claimed the color (`ColorHome`) or made its
 *   color-queue join (`ColorQueue` op 0) just before the `Registered` of
 *   that event. Events whose color is not known are left out of the
 *   per-color lanes, never guessed.
 */
import { F, KIND, type PackedTrace } from '../../trace/codec';

/** A color-queue change on a core (Mely). `op`: 0 joined, 1 left (empty), 2 to the tail after a batch. */
export interface QueueChange {
  t_ns: number;
  color: number;
  core: number;
  len: number;
  op: number;
}

export interface Steal {
  /** Trace index of the `ColorSteal` (the replay position just after it is i + 1). */
  i: number;
  t_ns: number;
  stealer: number;
  victim: number;
  color: number;
  /** Events moved with the color. */
  count: number;
  /** How long the steal took (from its `StealCost`), ns. */
  steal_ns?: number;
  /** Annotated processing time moved, ns. */
  left_ns?: number;
}

export interface Refusal {
  /** Trace index of the `StealRefused`. */
  i: number;
  t_ns: number;
  stealer: number;
  /** The victim of the stealer's last look at a queue (-1 when not traced). */
  victim: number;
  heuristic: number;
  color: number;
  left_ns: number;
  cost_ns: number;
}

export interface Execution {
  req: number;
  thread: number;
  start_ns: number;
  /** Infinity while the trace has no end for it. */
  end_ns: number;
}

export interface ColorTimeline {
  homes: { t_ns: number; color: number; core: number; how: number }[];
  queues: QueueChange[];
  steals: Steal[];
  refusals: Refusal[];
  /** Queue length samples: time, core, events queued. */
  lens: { t_ns: number; core: number; len: number }[];
  /** Executions in start order. */
  execs: Execution[];
  /** Color of an event, when the trace says it (see the module comment). */
  colorOf: Map<number, number>;
}

/** One short phrase per `StealRefused.heuristic` code (engine `Refusal`). */
export const REFUSAL_REASONS = [
  'fewer than two colors queued',
  'no color under half the queue',
  'time left not above the steal cost',
  'no stealable color',
] as const;

/** A duration for people: ns under 1 µs, then µs (one decimal under 10 µs). */
export function us(ns: number): string {
  if (ns < 1000) return `${Math.round(ns)} ns`;
  const u = ns / 1000;
  return u < 10 ? `${u.toFixed(1).replace(/\.0$/, '')} µs` : `${Math.round(u)} µs`;
}

/** Why a steal was refused, in words; the time-left refusal compares the two times. */
export function refusalText(r: Pick<Refusal, 'heuristic' | 'left_ns' | 'cost_ns'>): string {
  if (r.heuristic === 2) return `time left ${us(r.left_ns)} < steal cost ${us(r.cost_ns)}`;
  return REFUSAL_REASONS[r.heuristic] ?? `refused (heuristic ${r.heuristic})`;
}

/** Read a trace once into the view's timeline. */
export function timeline(trace: PackedTrace): ColorTimeline {
  const out: ColorTimeline = {
    homes: [],
    queues: [],
    steals: [],
    refusals: [],
    lens: [],
    execs: [],
    colorOf: new Map(),
  };
  // Per thread: the color its next `Registered` belongs to, its last steal-try victim,
  // its last steal (waiting for its cost), its running execution.
  const pending = new Map<number, number>();
  const tried = new Map<number, number>();
  const lastSteal = new Map<number, Steal>();
  const running = new Map<number, Execution>();
  for (let i = 0; i < trace.length; i++) {
    const k = trace.kind(i);
    const t = trace.tNs(i);
    const th = trace.thread(i);
    switch (k) {
      case KIND.ColorHome: {
        const color = trace.get(i, F.ColorHome.color);
        out.homes.push({ t_ns: t, color, core: trace.get(i, F.ColorHome.core), how: trace.get(i, F.ColorHome.how) });
        pending.set(th, color);
        break;
      }
      case KIND.ColorQueue: {
        const q: QueueChange = {
          t_ns: t,
          color: trace.get(i, F.ColorQueue.color),
          core: trace.get(i, F.ColorQueue.core),
          len: trace.get(i, F.ColorQueue.len),
          op: trace.get(i, F.ColorQueue.op),
        };
        out.queues.push(q);
        if (q.op === 0) pending.set(th, q.color);
        break;
      }
      case KIND.Registered: {
        const c = pending.get(th);
        if (c !== undefined) out.colorOf.set(trace.get(i, F.Registered.child), c);
        pending.delete(th);
        break;
      }
      case KIND.StealTry:
        tried.set(th, trace.get(i, F.StealTry.victim));
        break;
      case KIND.StealRefused:
        out.refusals.push({
          i,
          t_ns: t,
          stealer: th,
          victim: tried.get(th) ?? -1,
          heuristic: trace.get(i, F.StealRefused.heuristic),
          color: trace.get(i, F.StealRefused.color),
          left_ns: trace.get(i, F.StealRefused.left_ns),
          cost_ns: trace.get(i, F.StealRefused.cost_ns),
        });
        break;
      case KIND.ColorSteal: {
        const s: Steal = {
          i,
          t_ns: t,
          stealer: th,
          victim: trace.get(i, F.ColorSteal.victim),
          color: trace.get(i, F.ColorSteal.color),
          count: trace.get(i, F.ColorSteal.count),
        };
        out.steals.push(s);
        lastSteal.set(th, s);
        break;
      }
      case KIND.StealCost: {
        const s = lastSteal.get(th);
        if (s && s.victim === trace.get(i, F.StealCost.victim)) {
          s.steal_ns = trace.get(i, F.StealCost.steal_ns);
          s.left_ns = trace.get(i, F.StealCost.left_ns);
        }
        lastSteal.delete(th);
        break;
      }
      case KIND.QueueLen:
        out.lens.push({ t_ns: t, core: trace.get(i, F.QueueLen.of), len: trace.get(i, F.QueueLen.len) });
        break;
      case KIND.ExecStart: {
        const e = { req: trace.get(i, F.ExecStart.req), thread: th, start_ns: t, end_ns: Infinity };
        out.execs.push(e);
        running.set(th, e);
        break;
      }
      case KIND.ExecEnd: {
        const e = running.get(th);
        if (e && e.req === trace.get(i, F.ExecEnd.req)) e.end_ns = t;
        running.delete(th);
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/** A color-queue of a core at some time: the color and the events it held at its last change. */
export interface ColorQueueNow {
  color: number;
  len: number;
}

export interface CoreNow {
  core: number;
  /** Color-queues in the core's order (Mely; empty for Libasync-smp, which has one FIFO). */
  colorQueues: ColorQueueNow[];
  /** Events queued at the last sample (undefined before the first). */
  queued?: number;
  /** The execution running now, with its color when known. */
  running?: { req: number; color?: number };
}

export interface ColoringNow {
  cores: CoreNow[];
  /** Steals and refusals up to now. */
  steals: number;
  refusals: number;
  lastSteal?: Steal;
  lastRefusal?: Refusal;
}

/** Last index with `t_ns <= tNs` in a time-sorted list, -1 if none. */
function lastAt<T extends { t_ns: number }>(xs: readonly T[], tNs: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid].t_ns <= tNs) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * The cores at time `tNs`: color-queues replayed from the changes and the
 * steals before it (a steal moves the whole color-queue, at the victim's
 * length, to the stealer's tail), the last queue sample, the running event.
 */
export function coresAt(tl: ColorTimeline, cores: number, tNs: number): ColoringNow {
  const qs: ColorQueueNow[][] = Array.from({ length: cores }, () => []);
  const remove = (core: number, color: number) => {
    const q = qs[core];
    if (!q) return undefined;
    const i = q.findIndex((c) => c.color === color);
    return i >= 0 ? q.splice(i, 1)[0] : undefined;
  };
  // Merge queue changes and steals in time order (steals after changes of the same instant).
  const nq = lastAt(tl.queues, tNs) + 1;
  const ns = lastAt(tl.steals, tNs) + 1;
  let i = 0;
  let j = 0;
  while (i < nq || j < ns) {
    if (j >= ns || (i < nq && tl.queues[i].t_ns <= tl.steals[j].t_ns)) {
      const q = tl.queues[i++];
      remove(q.core, q.color);
      if (q.op !== 1 && qs[q.core]) qs[q.core].push({ color: q.color, len: q.len });
    } else {
      const s = tl.steals[j++];
      const moved = remove(s.victim, s.color);
      if (moved && qs[s.stealer]) qs[s.stealer].push({ color: s.color, len: s.count });
    }
  }
  const out: CoreNow[] = qs.map((colorQueues, core) => ({ core, colorQueues }));
  for (let k = lastAt(tl.lens, tNs); k >= 0; k--) {
    const s = tl.lens[k];
    const c = out[s.core];
    if (c && c.queued === undefined) c.queued = s.len;
    if (out.every((c) => c.queued !== undefined)) break;
  }
  // Running: scan back from the last start before tNs; executions are short, so a bounded look-back.
  const lastStart = lastAtStart(tl.execs, tNs);
  const seen = new Set<number>();
  for (let k = lastStart; k >= 0 && k > lastStart - 4096 && seen.size < cores; k--) {
    const e = tl.execs[k];
    if (seen.has(e.thread)) continue;
    seen.add(e.thread);
    if (e.end_ns > tNs && out[e.thread]) out[e.thread].running = { req: e.req, color: tl.colorOf.get(e.req) };
  }
  const si = ns - 1;
  const ri = lastAt(tl.refusals, tNs);
  return {
    cores: out,
    steals: ns,
    refusals: ri + 1,
    lastSteal: si >= 0 ? tl.steals[si] : undefined,
    lastRefusal: ri >= 0 ? tl.refusals[ri] : undefined,
  };
}

function lastAtStart(xs: readonly Execution[], tNs: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid].start_ns <= tNs) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** Executions of `color`'s known events that started by `tNs`, in start order (at most `max`, the latest). */
export function colorRuns(tl: ColorTimeline, color: number, tNs: number, max = 200): Execution[] {
  const out: Execution[] = [];
  for (let k = lastAtStart(tl.execs, tNs); k >= 0 && out.length < max; k--) {
    const e = tl.execs[k];
    if (tl.colorOf.get(e.req) === color) out.push(e);
  }
  return out.reverse();
}

/** Pairs of executions in `runs` (start order) that overlap in time: empty for a correct run. */
export function overlaps(runs: readonly Execution[]): [Execution, Execution][] {
  const bad: [Execution, Execution][] = [];
  // The earlier execution that ends last so far.
  let longest = runs[0];
  for (let k = 1; k < runs.length; k++) {
    if (runs[k].start_ns < longest.end_ns) bad.push([longest, runs[k]]);
    if (runs[k].end_ns > longest.end_ns) longest = runs[k];
  }
  return bad;
}
