/**
 * The event-coloring view's data (paper 002: Libasync-smp and Mely), read
 * once per trace (pure functions, no DOM), and the state of the cores at
 * any replay position derived from it.
 *
 * What the trace says (nothing here is guessed):
 * - Every event's color and the core whose queue received it: the
 *   `Registered` event carries both.
 * - Each core's queued events, per color, at a replay position: replayed
 *   from `Registered` (one more at its core), `Dequeued` (one less at the
 *   thread's core) and `ColorSteal` (the victim's whole color goes to the
 *   stealer's tail). Mely's color-queue order from `ColorQueue` (joined at
 *   the tail, moved to the tail after a batch, left when empty).
 * - Mely's stealing queue per core from `StealQueue`: a color enters an
 *   interval of time left at its tail, or leaves; a stealer looks at the
 *   head of the highest non-empty interval.
 * - Steals with their cost (`ColorSteal` then `StealCost` of the same
 *   thread) and refusals with their reason (`StealRefused`, victim from
 *   the thread's last `StealTry`).
 *
 * The state at a position is a checkpoint (taken every `stride` events
 * while reading the trace) plus the events since, by the shared family
 * replay (`replay/checkpoints.ts`, with `QueueReplay` as the reducer): it
 * equals a replay from the start (model.test.ts checks this at random
 * positions).
 */
import { checkpoint, replayAt as replayFrom, strideFor, type Checkpointed } from '../../replay/checkpoints';
import { F, KIND, SMALL, type PackedTrace } from '../../trace/codec';
import { onPacked } from '../../trace/dispatch';
import { partitionPoint } from '../../trace/search';

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

/** A color waiting in a core's stealing queue (Mely) with its time left when it entered its interval. */
export interface Offer {
  color: number;
  left_ns: number;
}

/** `StealQueue.interval` of a color leaving the stealing queue (engine `mely::LEFT_SQ`). */
export const LEFT_SQ = SMALL.StealQueue.interval.Left;
/** The stealing queue's intervals of time left, lowest first (units of the configured steal cost). */
export const INTERVALS = ['under 1 unit', '1 to 8 units', '8 units or more'] as const;

/**
 * The queues of every core, replayed event by event (mutable; the view
 * only sees copies through {@link stateAt}).
 */
export class QueueReplay {
  /** Per core: color -> its queued events in order; the map's order is the color-queues' order. */
  q: Map<number, number[]>[];
  /** Per core: the stealing queue's intervals, each in order (Mely). */
  sq: Offer[][][];
  /** Per core: the event it runs. */
  running: ({ req: number; color?: number } | undefined)[];

  /** `keepEmpty`: a color-queue stays (empty) until the trace says it left (Mely's `ColorQueue`). */
  constructor(
    readonly cores: number,
    readonly keepEmpty: boolean,
  ) {
    this.q = Array.from({ length: cores }, () => new Map());
    this.sq = Array.from({ length: cores }, () => [[], [], []]);
    this.running = Array.from({ length: cores }, () => undefined);
  }

  clone(): QueueReplay {
    const c = new QueueReplay(this.cores, this.keepEmpty);
    c.q = this.q.map((m) => new Map([...m].map(([color, evs]) => [color, evs.slice()])));
    c.sq = this.sq.map((ivs) => ivs.map((iv) => iv.map((o) => ({ ...o }))));
    c.running = this.running.map((r) => (r ? { ...r } : undefined));
    return c;
  }

  /** Take `color` out of `core`'s stealing queue. */
  drop(core: number, color: number) {
    this.sq[core]?.forEach((iv, k, all) => {
      const at = iv.findIndex((o) => o.color === color);
      if (at >= 0) all[k] = iv.filter((_, j) => j !== at);
    });
  }

  /** Apply trace event `i`; `colorOf` gives the color of events registered earlier. */
  apply(trace: PackedTrace, i: number, colorOf: ReadonlyMap<number, number>): void {
    APPLY_QUEUES(trace, i, { r: this, colorOf });
  }
}

/** The queues being replayed, and the colors of the events registered so far. */
interface Queues {
  r: QueueReplay;
  colorOf: ReadonlyMap<number, number>;
}

/** What each kind does to the cores' queues; other kinds change nothing. */
const APPLY_QUEUES = onPacked<PackedTrace, Queues, void>(
  {
    Registered: (trace, i, { r }) => {
      const m = r.q[trace.get(i, F.Registered.core)];
      if (!m) return;
      const color = trace.get(i, F.Registered.color);
      const evs = m.get(color);
      if (evs) evs.push(trace.get(i, F.Registered.child));
      else m.set(color, [trace.get(i, F.Registered.child)]);
    },
    Dequeued: (trace, i, { r, colorOf }) => {
      const m = r.q[trace.thread(i)];
      const req = trace.get(i, F.Dequeued.req);
      const color = colorOf.get(req);
      const evs = color === undefined ? undefined : m?.get(color);
      if (!m || !evs || color === undefined) return;
      const at = evs.indexOf(req);
      if (at >= 0) evs.splice(at, 1);
      if (evs.length === 0 && !r.keepEmpty) m.delete(color);
    },
    ColorQueue: (trace, i, { r }) => {
      const m = r.q[trace.get(i, F.ColorQueue.core)];
      if (!m) return;
      const color = trace.get(i, F.ColorQueue.color);
      const op = trace.get(i, F.ColorQueue.op);
      const evs = m.get(color) ?? [];
      m.delete(color);
      // Joined, or to the tail after a batch: at the tail; left: gone (when empty).
      if (op !== SMALL.ColorQueue.op.Left || evs.length > 0) m.set(color, evs);
    },
    ColorSteal: (trace, i, { r }) => {
      const color = trace.get(i, F.ColorSteal.color);
      const from = r.q[trace.get(i, F.ColorSteal.victim)];
      const to = r.q[trace.thread(i)];
      const evs = from?.get(color) ?? [];
      from?.delete(color);
      if (to) to.set(color, [...(to.get(color) ?? []), ...evs]);
    },
    StealQueue: (trace, i, { r }) => {
      const core = trace.get(i, F.StealQueue.core);
      if (!r.sq[core]) return;
      const color = trace.get(i, F.StealQueue.color);
      r.drop(core, color);
      const iv = trace.get(i, F.StealQueue.interval);
      if (iv < LEFT_SQ) r.sq[core][iv].push({ color, left_ns: trace.get(i, F.StealQueue.left_ns) });
    },
    ExecStart: (trace, i, { r, colorOf }) => {
      const th = trace.thread(i);
      if (th >= r.cores) return;
      const req = trace.get(i, F.ExecStart.req);
      r.running[th] = { req, color: colorOf.get(req) };
    },
    ExecEnd: (trace, i, { r }) => {
      const th = trace.thread(i);
      if (th < r.cores) r.running[th] = undefined;
    },
  },
  () => undefined,
);

export interface ColorTimeline {
  cores: number;
  /** Mely (the trace has color-queue events): color-queues keep their own order. */
  colorQueues: boolean;
  /** The trace has stealing-queue events (Mely with time-left or penalty-aware stealing). */
  stealQueue: boolean;
  steals: Steal[];
  refusals: Refusal[];
  /** Executions in start order. */
  execs: Execution[];
  /** Color of every registered event (from `Registered`). */
  colorOf: Map<number, number>;
  /** The queues' checkpoints (every `stride` events) over the trace. */
  queues: Checkpointed<QueueReplay>;
  trace: PackedTrace;
}

/** Read a trace of a run on `cores` cores once into the view's timeline. */
export function timeline(trace: PackedTrace, cores: number, stride = strideFor(trace.length)): ColorTimeline {
  const out: Omit<ColorTimeline, 'queues'> = {
    cores,
    colorQueues: false,
    stealQueue: false,
    steals: [],
    refusals: [],
    execs: [],
    colorOf: new Map(),
    trace,
  };
  for (let i = 0; i < trace.length && !(out.colorQueues && out.stealQueue); i++) {
    const k = trace.kind(i);
    if (k === KIND.ColorQueue) out.colorQueues = true;
    else if (k === KIND.StealQueue) out.stealQueue = true;
  }
  // One pass: each event is read here just before the queues' reducer applies it.
  const reading: Reading = { out, tried: new Map(), lastSteal: new Map(), running: new Map() };
  const read = (i: number) => READ(trace, i, reading);
  return { ...out, queues: checkpoint(trace, queueReducer(cores, out.colorQueues, out.colorOf), stride, read) };
}

/** The timeline being read, and per thread: its last steal-try victim, its last steal (waiting for its cost), its running execution. */
interface Reading {
  out: Omit<ColorTimeline, 'queues'>;
  tried: Map<number, number>;
  lastSteal: Map<number, Steal>;
  running: Map<number, Execution>;
}

/** What each kind adds to the timeline; other kinds add nothing. */
const READ = onPacked<PackedTrace, Reading, void>(
  {
    Registered: (trace, i, { out }) => {
      out.colorOf.set(trace.get(i, F.Registered.child), trace.get(i, F.Registered.color));
    },
    StealTry: (trace, i, { tried }) => {
      tried.set(trace.thread(i), trace.get(i, F.StealTry.victim));
    },
    StealRefused: (trace, i, { out, tried }) => {
      const th = trace.thread(i);
      out.refusals.push({
        i,
        t_ns: trace.tNs(i),
        stealer: th,
        victim: tried.get(th) ?? -1,
        heuristic: trace.get(i, F.StealRefused.heuristic),
        color: trace.get(i, F.StealRefused.color),
        left_ns: trace.get(i, F.StealRefused.left_ns),
        cost_ns: trace.get(i, F.StealRefused.cost_ns),
      });
    },
    ColorSteal: (trace, i, { out, lastSteal }) => {
      const th = trace.thread(i);
      const s: Steal = {
        i,
        t_ns: trace.tNs(i),
        stealer: th,
        victim: trace.get(i, F.ColorSteal.victim),
        color: trace.get(i, F.ColorSteal.color),
        count: trace.get(i, F.ColorSteal.count),
      };
      out.steals.push(s);
      lastSteal.set(th, s);
    },
    StealCost: (trace, i, { lastSteal }) => {
      const th = trace.thread(i);
      const s = lastSteal.get(th);
      if (s && s.victim === trace.get(i, F.StealCost.victim)) {
        s.steal_ns = trace.get(i, F.StealCost.steal_ns);
        s.left_ns = trace.get(i, F.StealCost.left_ns);
      }
      lastSteal.delete(th);
    },
    ExecStart: (trace, i, { out, running }) => {
      const th = trace.thread(i);
      const e = { req: trace.get(i, F.ExecStart.req), thread: th, start_ns: trace.tNs(i), end_ns: Infinity };
      out.execs.push(e);
      running.set(th, e);
    },
    ExecEnd: (trace, i, { running }) => {
      const th = trace.thread(i);
      const e = running.get(th);
      if (e && e.req === trace.get(i, F.ExecEnd.req)) e.end_ns = trace.tNs(i);
      running.delete(th);
    },
  },
  () => undefined,
);

/** The queues as a family reducer; `colorOf` fills up as the trace is read (an event's color comes with its registration). */
function queueReducer(cores: number, colorQueues: boolean, colorOf: ReadonlyMap<number, number>) {
  return {
    init: () => new QueueReplay(cores, colorQueues),
    apply: (r: QueueReplay, trace: PackedTrace, i: number) => r.apply(trace, i, colorOf),
    clone: (r: QueueReplay) => r.clone(),
  };
}

/** A color-queue of a core now: the color and its queued events, in order. */
export interface ColorQueueNow {
  color: number;
  events: number[];
}

export interface CoreNow {
  core: number;
  /** Color-queues in the core's order (Libasync-smp: its one FIFO's colors, by first queued). */
  colorQueues: ColorQueueNow[];
  /** Events queued now. */
  queued: number;
  /** The event running now, with its color. */
  running?: { req: number; color?: number };
  /** Mely's stealing queue, by interval (lowest first). */
  offers: Offer[][];
  /** What a stealer would look at first: the head of the highest non-empty interval. */
  nextOffer?: Offer;
}

export interface ColoringNow {
  cores: CoreNow[];
}

/** The queues after the first `pos` trace events, replayed from scratch (the reference for {@link stateAt}). */
export function replayFromStart(tl: ColorTimeline, pos: number): QueueReplay {
  const r = new QueueReplay(tl.cores, tl.colorQueues);
  const end = Math.min(pos, tl.trace.length);
  for (let i = 0; i < end; i++) r.apply(tl.trace, i, tl.colorOf);
  return r;
}

/** The queues after the first `pos` trace events: the nearest checkpoint, then the events since. */
export function replayAt(tl: ColorTimeline, pos: number): QueueReplay {
  return replayFrom(tl.queues, pos);
}

/** What a replay says, per core, for the view. */
export function summarize(r: QueueReplay): ColoringNow {
  return {
    cores: r.q.map((m, core) => {
      const colorQueues = [...m].map(([color, events]) => ({ color, events: events.slice() }));
      const offers = r.sq[core].map((iv) => iv.map((o) => ({ ...o })));
      const top = [...offers].reverse().find((iv) => iv.length > 0);
      return {
        core,
        colorQueues,
        queued: colorQueues.reduce((n, q) => n + q.events.length, 0),
        running: r.running[core] ? { ...r.running[core] } : undefined,
        offers,
        nextOffer: top?.[0],
      };
    }),
  };
}

/** The cores after the first `pos` trace events (the replay position). */
export function stateAt(tl: ColorTimeline, pos: number): ColoringNow {
  return summarize(replayAt(tl, pos));
}

function lastAtStart(xs: readonly Execution[], tNs: number): number {
  return partitionPoint(xs.length, (i) => xs[i].start_ns <= tNs) - 1;
}

/** Executions of `color`'s events that started by `tNs`, in start order (at most `max`, the latest). */
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
