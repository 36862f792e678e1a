/**
 * The replay reducer: the state of every thread, queue and synchronization
 * point after a prefix of a trace, built only from the trace's events.
 *
 * Invariant (tested): applying events `[0, p)` one by one from the empty
 * state gives the same state, field for field, as restoring the checkpoint
 * at `floor(p / K) * K` and applying the events after it. Nothing here
 * depends on wall time, randomness or the order the viewer moved in, so
 * stepping backward is "restore a checkpoint, replay forward".
 *
 * Bounds: a queue holds at most what the engine's bounded queues held; a
 * sync group list holds at most two groups per class (the open one and the
 * last released one), see `releaseSync`.
 */
import {
  F,
  FLAG_COLORS,
  FLAG_ENDS_GROUP,
  FLAG_ENDS_STEAL,
  FLAG_ENTERS_GRAPH,
  FLAG_FILLS_QUEUE,
  FLAG_GRAPH_BOUND,
  FLAG_GRAPH_READY,
  FLAG_LEAVES_GRAPH,
  FLAG_MAP_EPOCH,
  FLAG_READY_FLAG,
  FLAG_RUNS_GROUP,
  FLAG_STEALS_COLOR,
  FLAG_TAKES_QUEUE,
  KIND,
  KIND_COUNT,
  PackedTrace,
  REASON_SYNC_GROUP,
  SCHEDULER,
} from './codec';

/** One worker thread's lane. */
export interface LaneState {
  /** Requests in the thread's queue, oldest first. */
  queue: number[];
  /** Request being executed, or -1. */
  exec: number;
  /** Wait reason code while waiting, or -1. */
  waitReason: number;
  /** Request the wait is about (valid while waiting). */
  waitReq: number;
  /** What the wait is on (the WaitStart's `on`: e.g. the first command of the instance a cross-SCC wait waits for), or NO_REQUEST. */
  waitOn: number;
  /** Time the current wait started (ns). */
  waitSinceNs: number;
  /** Busy-wait iterations over all finished waits. */
  spins: number;
  /** Requests this thread executed so far. */
  executed: number;
  /** Work-stealing ready flag: 1 = a sequential request is queued, 0, or -1 = never set. */
  ready: number;
  /** Victim of the thread's current steal (it holds the victim's marker), or -1. */
  stealVictim: number;
  /** Requests of the current steal not yet started, oldest first. */
  stolen: number[];
  /** Every request of the current steal (for the arrow's label). */
  stolenAll: number[];
  /** Last sampled queue length (QueueLen), or -1. */
  sampledLen: number;
  /**
   * The request the thread took from its queue and has not finished with,
   * or -1: set by Dequeued, cleared when the thread finishes executing it
   * or stops waiting for it (a class-mate executed it). While a thread waits
   * at a barrier or cycle this is the request being synchronized.
   */
  current: number;
  /** The group (an SCC) the thread runs, between its `runs-group` and `ends-group` events, or -1. */
  scc: number;
}

/** A per-class barrier or busy-wait cycle for one sequential request. */
export interface SyncGroup {
  cls: number;
  req: number;
  cycle: number;
  /** Threads that arrived, in arrival order. */
  arrived: number[];
  /** Thread that executes the request once released, or -1 while open. */
  executor: number;
  /** Index of the SyncRelease event, or -1. */
  releasedAt: number;
  /** Thread executing the request right now (between its ExecStart and ExecEnd), or -1. */
  executing: number;
  /** Thread that finished executing it (its ExecEnd), or -1; set before the release is recorded. */
  executedBy: number;
}

/** The scheduler (delivering) thread. */
export interface SchedulerState {
  delivered: number;
  /** Last delivered request and its class, or -1. */
  lastReq: number;
  lastClass: number;
  /** Last Enqueued: request and target thread, or -1. */
  lastEnqReq: number;
  lastEnqTo: number;
  /** Wait reason while the scheduler waits (full queue), or -1. */
  waitReason: number;
  /** Current partition-map epoch (the last `map-epoch` event's), or -1. */
  epoch: number;
  /** Request the scheduler thread itself executes (sequential SMR), or -1. */
  exec: number;
  /** Requests the scheduler thread executed itself. */
  executed: number;
}

export interface ReplayState {
  /** Events applied: the state is after events `[0, position)`. */
  position: number;
  /** Time of the last applied event (ns), 0 before the first. */
  tNs: number;
  lanes: LaneState[];
  scheduler: SchedulerState;
  syncs: SyncGroup[];
  /** Requests in a dependency graph (late / ePaxos families). */
  graphSize: number;
  /**
   * The late graph's bound (the most requests it may hold), from its last
   * `graph-bound` event; 0 before one (no bound known). The graph is full when
   * `graphSize >= graphBound > 0`: every view says "full" from these two.
   */
  graphBound: number;
  /**
   * Requests of the dependency graph that are ready (lost their last edge)
   * and not yet taken by a worker, in the order they became ready (late
   * scheduling: a worker asleep in take() wakes for one of them).
   */
  graphReady: number[];
  executedTotal: number;
}

export function emptyLane(): LaneState {
  return {
    queue: [],
    exec: -1,
    waitReason: -1,
    waitReq: -1,
    waitOn: -1,
    waitSinceNs: 0,
    spins: 0,
    executed: 0,
    ready: -1,
    stealVictim: -1,
    stolen: [],
    stolenAll: [],
    sampledLen: -1,
    current: -1,
    scc: -1,
  };
}

export function emptyState(threads: number): ReplayState {
  return {
    position: 0,
    tNs: 0,
    lanes: Array.from({ length: threads }, emptyLane),
    scheduler: {
      delivered: 0,
      lastReq: -1,
      lastClass: -1,
      lastEnqReq: -1,
      lastEnqTo: -1,
      waitReason: -1,
      epoch: -1,
      exec: -1,
      executed: 0,
    },
    syncs: [],
    graphSize: 0,
    graphBound: 0,
    graphReady: [],
    executedTotal: 0,
  };
}

/** Remove the first occurrence of `x` from `xs`; false if absent. */
function removeOne(xs: number[], x: number): boolean {
  const i = xs.indexOf(x);
  if (i < 0) return false;
  xs.splice(i, 1);
  return true;
}

/** The group synchronizing request `req` (a request has one class), or undefined. */
function groupOf(s: ReplayState, req: number): SyncGroup | undefined {
  for (const g of s.syncs) if (g.req === req) return g;
  return undefined;
}

function newGroup(cls: number, req: number, cycle: number): SyncGroup {
  return { cls, req, cycle, arrived: [], executor: -1, releasedAt: -1, executing: -1, executedBy: -1 };
}

function syncIndex(s: ReplayState, cls: number, req: number): number {
  for (let i = 0; i < s.syncs.length; i++) {
    if (s.syncs[i].cls === cls && s.syncs[i].req === req) return i;
  }
  return -1;
}

function arrive(s: ReplayState, thread: number, cls: number, req: number, cycle: number): void {
  let i = syncIndex(s, cls, req);
  if (i < 0) {
    s.syncs.push(newGroup(cls, req, cycle));
    i = s.syncs.length - 1;
  }
  const g = s.syncs[i];
  if (!g.arrived.includes(thread)) g.arrived.push(thread);
}

/**
 * Mark the group released with its executor, and forget older released
 * groups of the same class: at most one released group per class stays,
 * which bounds the list by two groups per class.
 */
function releaseSync(s: ReplayState, cls: number, req: number, executor: number, cycle: number, at: number): void {
  s.syncs = s.syncs.filter((g) => !(g.cls === cls && g.releasedAt >= 0 && g.req !== req));
  let i = syncIndex(s, cls, req);
  if (i < 0) {
    s.syncs.push(newGroup(cls, req, cycle));
    i = s.syncs.length - 1;
  }
  s.syncs[i].executor = executor;
  s.syncs[i].releasedAt = at;
  // Class-mates that hold the request without a recorded wait (a busy-wait
  // thread that found the cycle already released) are done with it now;
  // one still waiting lets go at its WaitEnd.
  for (const l of s.lanes) if (l.current === req && l.waitReason < 0 && l.exec !== req) l.current = -1;
}

/**
 * Apply event `i` of `trace` to `s` (which must be at position `i`).
 * Events naming a worker beyond `s.lanes` are counted but change no lane.
 *
 * The one place (with `startsStep` in replay/steps.ts) that switches on
 * the kind code itself instead of a handler table (trace/dispatch.ts):
 * it runs for every event of every seek, and the table's indirect calls
 * made scrubbing a 1M-event trace run long tasks (classroom e2e).
 */
export function apply(s: ReplayState, trace: PackedTrace, i: number): void {
  const thread = trace.thread(i);
  const kind = trace.kind(i);
  const t = trace.tNs(i);
  s.position = i + 1;
  s.tNs = t;
  const lane: LaneState | undefined = thread === SCHEDULER ? undefined : s.lanes[thread];
  switch (kind) {
    case KIND.Delivered:
      s.scheduler.delivered++;
      s.scheduler.lastReq = trace.get(i, F.Delivered.req);
      s.scheduler.lastClass = trace.get(i, F.Delivered.class);
      break;
    case KIND.Enqueued: {
      const req = trace.get(i, F.Enqueued.req);
      s.scheduler.lastEnqReq = req;
      s.scheduler.lastEnqTo = trace.get(i, F.Enqueued.to);
      const to = s.lanes[trace.get(i, F.Enqueued.to)];
      if (to) to.queue.push(req);
      break;
    }
    case KIND.Dequeued:
      // A ready request of the dependency graph is taken (no-op elsewhere: the list is empty).
      if (s.graphReady.length > 0) removeOne(s.graphReady, trace.get(i, F.Dequeued.req));
      if (lane) {
        removeOne(lane.queue, trace.get(i, F.Dequeued.req));
        lane.current = trace.get(i, F.Dequeued.req);
      }
      break;
    case KIND.ExecStart: {
      const a = trace.get(i, F.ExecStart.req);
      if (thread === SCHEDULER) s.scheduler.exec = a;
      if (lane) {
        lane.exec = a;
        // A request taken by a steal leaves the stealer's pending list
        // when it starts; one still queued here (no Dequeued) leaves too.
        if (!removeOne(lane.stolen, a)) removeOne(lane.queue, a);
      }
      const g = groupOf(s, a);
      if (g && thread !== SCHEDULER) g.executing = thread;
      break;
    }
    case KIND.ExecEnd: {
      const a = trace.get(i, F.ExecEnd.req);
      const g = groupOf(s, a);
      if (g && g.executing === thread) {
        g.executing = -1;
        g.executedBy = thread;
      }
      if (lane) {
        lane.exec = -1;
        lane.executed++;
        if (lane.current === a) lane.current = -1;
        // A color steal has no `ends-steal` event: it is over when its last event has run.
        if (lane.stealVictim >= 0 && lane.stolen.length === 0 && colorSteals(trace)) {
          lane.stealVictim = -1;
          lane.stolenAll = [];
        }
      } else if (thread === SCHEDULER) {
        s.scheduler.exec = -1;
        s.scheduler.executed++;
      }
      s.executedTotal++;
      break;
    }
    case KIND.WaitStart:
      if (lane) {
        lane.waitReason = trace.get(i, F.WaitStart.reason);
        lane.waitReq = trace.get(i, F.WaitStart.req);
        lane.waitOn = trace.get(i, F.WaitStart.on);
        lane.waitSinceNs = t;
      } else if (thread === SCHEDULER) {
        s.scheduler.waitReason = trace.get(i, F.WaitStart.reason);
      }
      break;
    case KIND.WaitEnd:
      if (lane) {
        const a = trace.get(i, F.WaitEnd.req);
        const r = lane.waitReason;
        lane.waitReason = -1;
        lane.waitReq = -1;
        lane.waitOn = -1;
        lane.spins += trace.get(i, F.WaitEnd.spins);
        // Leaving a barrier or cycle for the request it held: a class-mate
        // executed it (a wait segment cut by a steal is resumed later, but
        // the thread still holds the request: only a released group lets go).
        if (REASON_SYNC_GROUP[r] && lane.current === a) {
          const g = groupOf(s, a);
          if (!g || g.releasedAt >= 0 || g.executedBy >= 0) lane.current = -1;
        }
      } else if (thread === SCHEDULER) {
        s.scheduler.waitReason = -1;
      }
      break;
    case KIND.SyncArrive:
      arrive(
        s,
        thread,
        trace.get(i, F.SyncArrive.class),
        trace.get(i, F.SyncArrive.req),
        trace.get(i, F.SyncArrive.cycle),
      );
      break;
    case KIND.SyncRelease:
      releaseSync(
        s,
        trace.get(i, F.SyncRelease.class),
        trace.get(i, F.SyncRelease.req),
        trace.get(i, F.SyncRelease.executor),
        trace.get(i, F.SyncRelease.cycle),
        i,
      );
      break;
    case KIND.QueueLen: {
      const of = s.lanes[trace.get(i, F.QueueLen.of)];
      if (of) of.sampledLen = trace.get(i, F.QueueLen.len);
      break;
    }
    default:
      applyFlagged(s, lane, trace, i, kind);
      break;
  }
}

/** What a kind does to the state (one byte per code in `ACTION`): `None`, or the case of its flag table in `ACTED`. */
enum Action {
  None,
  TakesQueue,
  EndsSteal,
  ReadyFlag,
  EntersGraph,
  LeavesGraph,
  GraphBound,
  GraphReady,
  RunsGroup,
  EndsGroup,
  MapEpoch,
  FillsQueue,
  StealsColor,
}

/** The flag tables that say what a kind does to the state, in the order of `Action` (after `None`). */
const ACTED: readonly (readonly unknown[])[] = [
  FLAG_TAKES_QUEUE,
  FLAG_ENDS_STEAL,
  FLAG_READY_FLAG,
  FLAG_ENTERS_GRAPH,
  FLAG_LEAVES_GRAPH,
  FLAG_GRAPH_BOUND,
  FLAG_GRAPH_READY,
  FLAG_RUNS_GROUP,
  FLAG_ENDS_GROUP,
  FLAG_MAP_EPOCH,
  FLAG_FILLS_QUEUE,
  FLAG_STEALS_COLOR,
];

/**
 * Each kind's action by code, built once from the vocabulary's flags
 * (psmr-core `vocabulary.rs`; a cargo test allows one action per kind), so
 * the reducer names no kind a family brings and reads one byte per event:
 * the first table that flags the kind gives its action (`None` for none).
 */
const ACTION = Uint8Array.from({ length: KIND_COUNT }, (_, k) => 1 + ACTED.findIndex((flags) => !!flags[k]));

/**
 * A family's own kinds, by the flags the vocabulary gives them (no kind is
 * named here), one `ACTION` each: a steal of a queue and its end, the ready
 * flag, the dependency graph, a running group, the partition map,
 * `fills-queue` (its request into the named lane's queue: event-coloring
 * runtimes register events into a core's queue) and `steals-color` (a
 * whole color moves, see `colorSteal`).
 */
function applyFlagged(s: ReplayState, lane: LaneState | undefined, trace: PackedTrace, i: number, kind: number): void {
  switch (ACTION[kind]) {
    case Action.TakesQueue: {
      const f = FLAG_TAKES_QUEUE[kind];
      if (lane && f) steal(s, lane, trace.get(i, f.victim), trace.get(i, f.count), trace.get(i, f.first));
      break;
    }
    case Action.EndsSteal:
      if (lane) {
        lane.stealVictim = -1;
        lane.stolen = [];
        lane.stolenAll = [];
      }
      break;
    case Action.ReadyFlag: {
      const f = FLAG_READY_FLAG[kind];
      if (lane && f) lane.ready = trace.get(i, f.up) ? 1 : 0;
      break;
    }
    case Action.EntersGraph:
      s.graphSize++;
      break;
    case Action.LeavesGraph: {
      const f = FLAG_LEAVES_GRAPH[kind];
      s.graphSize = Math.max(0, s.graphSize - 1);
      if (f) removeOne(s.graphReady, trace.get(i, f.req));
      break;
    }
    case Action.GraphBound: {
      const f = FLAG_GRAPH_BOUND[kind];
      if (f) s.graphBound = trace.get(i, f.bound);
      break;
    }
    case Action.GraphReady: {
      const f = FLAG_GRAPH_READY[kind];
      if (f) s.graphReady.push(trace.get(i, f.req));
      break;
    }
    case Action.RunsGroup: {
      const f = FLAG_RUNS_GROUP[kind];
      if (lane && f) lane.scc = trace.get(i, f.group);
      break;
    }
    case Action.EndsGroup:
      if (lane) lane.scc = -1;
      break;
    case Action.MapEpoch: {
      const f = FLAG_MAP_EPOCH[kind];
      if (f) s.scheduler.epoch = trace.get(i, f.epoch);
      break;
    }
    case Action.FillsQueue: {
      const f = FLAG_FILLS_QUEUE[kind];
      const to = f && s.lanes[trace.get(i, f.lane)];
      if (f && to) to.queue.push(trace.get(i, f.req));
      break;
    }
    case Action.StealsColor: {
      const f = FLAG_STEALS_COLOR[kind];
      if (f && lane) colorSteal(s, lane, trace, trace.get(i, f.victim), trace.get(i, f.color));
      break;
    }
  }
}

/**
 * A steal moves `count` requests from the victim's queue, starting at
 * `first`, to the stealer (Algorithm 7 lines 33-35 of paper 000: the
 * stealer takes the victim's whole ready queue). If `first` is not in the
 * victim's queue (the engine may have dequeued it already) the stolen
 * requests are still listed, by the ids that follow `first` there.
 */
function steal(s: ReplayState, stealer: LaneState, victim: number, count: number, first: number): void {
  stealer.stealVictim = victim;
  const v = s.lanes[victim];
  let taken: number[] = [];
  if (v) {
    const at = v.queue.indexOf(first);
    if (at >= 0) taken = v.queue.splice(at, count);
  }
  if (taken.length === 0 && count > 0) taken = [first];
  stealer.stolen = stealer.stolen.concat(taken);
  stealer.stolenAll = stealer.stolenAll.concat(taken);
}

/** Per trace: the color of each request (from kinds flagged `colors`), or null without color steals. */
const COLORS = new WeakMap<PackedTrace, Map<number, number> | null>();

/** The colors of the events of a trace with color steals (event-coloring runtimes), read once. */
function colorSteals(trace: PackedTrace): Map<number, number> | null {
  let m = COLORS.get(trace);
  if (m !== undefined) return m;
  m = null;
  for (let i = 0; i < trace.length; i++) {
    if (FLAG_STEALS_COLOR[trace.kind(i)]) {
      m = new Map();
      break;
    }
  }
  if (m) {
    for (let i = 0; i < trace.length; i++) {
      const c = FLAG_COLORS[trace.kind(i)];
      if (c) m.set(trace.get(i, c.req), trace.get(i, c.color));
    }
  }
  COLORS.set(trace, m);
  return m;
}

/**
 * A color steal (event-coloring runtimes, paper 002) moves every queued
 * event of `color` from the victim's queue to the stealer's, in order; the
 * stealer runs them as stolen work until the last one ends.
 */
function colorSteal(s: ReplayState, stealer: LaneState, trace: PackedTrace, victim: number, color: number): void {
  const colors = colorSteals(trace);
  const v = s.lanes[victim];
  if (!colors || !v) return;
  const taken = v.queue.filter((e) => colors.get(e) === color);
  v.queue = v.queue.filter((e) => colors.get(e) !== color);
  stealer.queue = stealer.queue.concat(taken);
  stealer.stealVictim = victim;
  stealer.stolen = stealer.stolen.concat(taken);
  stealer.stolenAll = stealer.stolenAll.concat(taken);
}

// ---------------------------------------------------------------------------
// Flat serialization, for checkpoints moved between the worker and the page
// as one transferable buffer (no structured clone of many small objects).

/** Length then items (no spread: a long queue must not hit the call-argument limit). */
function pushList(out: number[], xs: readonly number[]): void {
  out.push(xs.length);
  for (const x of xs) out.push(x);
}

/**
 * The fields a checkpoint holds, in its order: numbers first, then lists
 * (each as its length and its items). `serialize` and `deserialize` both
 * walk these lists, so the two cannot disagree on the layout.
 */
const SCHEDULER_NUMBERS = [
  'delivered',
  'lastReq',
  'lastClass',
  'lastEnqReq',
  'lastEnqTo',
  'waitReason',
  'epoch',
  'exec',
  'executed',
] as const satisfies readonly (keyof SchedulerState)[];
const LANE_NUMBERS = [
  'exec',
  'waitReason',
  'waitReq',
  'waitSinceNs',
  'spins',
  'executed',
  'ready',
  'stealVictim',
  'sampledLen',
  'current',
  'waitOn',
  'scc',
] as const satisfies readonly (keyof LaneState)[];
const LANE_LISTS = ['queue', 'stolen', 'stolenAll'] as const satisfies readonly (keyof LaneState)[];
const GROUP_NUMBERS = [
  'cls',
  'req',
  'cycle',
  'executor',
  'releasedAt',
  'executing',
  'executedBy',
] as const satisfies readonly (keyof SyncGroup)[];

/** Serialize `s` into numbers (Float64 keeps ns times exact). */
export function serialize(s: ReplayState): Float64Array {
  const out: number[] = [s.position, s.tNs, s.lanes.length, s.graphSize, s.graphBound, s.executedTotal];
  for (const k of SCHEDULER_NUMBERS) out.push(s.scheduler[k]);
  for (const l of s.lanes) {
    for (const k of LANE_NUMBERS) out.push(l[k]);
    for (const k of LANE_LISTS) pushList(out, l[k]);
  }
  pushList(out, s.graphReady);
  out.push(s.syncs.length);
  for (const g of s.syncs) {
    for (const k of GROUP_NUMBERS) out.push(g[k]);
    pushList(out, g.arrived);
  }
  return Float64Array.from(out);
}

export function deserialize(f: ArrayLike<number>): ReplayState {
  let p = 0;
  const next = () => f[p++];
  const list = () => {
    const n = next();
    const xs = new Array<number>(n);
    for (let i = 0; i < n; i++) xs[i] = next();
    return xs;
  };
  const position = next();
  const tNs = next();
  const nLanes = next();
  const graphSize = next();
  const graphBound = next();
  const executedTotal = next();
  const scheduler = emptyState(0).scheduler;
  for (const k of SCHEDULER_NUMBERS) scheduler[k] = next();
  const lanes: LaneState[] = [];
  for (let i = 0; i < nLanes; i++) {
    const lane = emptyLane();
    for (const k of LANE_NUMBERS) lane[k] = next();
    for (const k of LANE_LISTS) lane[k] = list();
    lanes.push(lane);
  }
  const graphReady = list();
  const nSyncs = next();
  const syncs: SyncGroup[] = [];
  for (let i = 0; i < nSyncs; i++) {
    const g = newGroup(-1, -1, -1);
    for (const k of GROUP_NUMBERS) g[k] = next();
    g.arrived = list();
    syncs.push(g);
  }
  return { position, tNs, lanes, scheduler, syncs, graphSize, graphBound, graphReady, executedTotal };
}

/** A deep copy (via the flat form, so it is exactly what a checkpoint keeps). */
export function cloneState(s: ReplayState): ReplayState {
  return deserialize(serialize(s));
}
