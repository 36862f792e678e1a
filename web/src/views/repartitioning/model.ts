/**
 * The repartitioning view's data, derived once per trace (pure functions,
 * no DOM): map switches with the keys that moved, partitions with their
 * cut, Base's pauses, the syncs across lanes, and the queue-length CV
 * over time; and, with the stream's workload graph from the engine
 * (`workloadGraph()`), the owner of every key at any time of the run.
 *
 * Owners: every strategy places a key round-robin when a request first
 * names it, from one counter that map switches never touch, so the
 * engine's `initial_owner` holds for the whole run except the keys a
 * switch moved; `KeyMoved` events (at most 4,096 per switch) say which.
 */
import { F, NO_REQUEST, type PackedTrace } from '../../trace/codec';
import { onPacked } from '../../trace/dispatch';

/** The workload graph of a stream, as the engine's `workloadGraph()` returns it. */
export interface GraphView {
  workers: number;
  /** Store key of each vertex, in key order. */
  keys: number[];
  /** First request that touches each key. */
  first_request: number[];
  /** Round-robin placement of each key. */
  initial_owner: number[];
  weight: number[];
  /** `[u, v, weight]`, heaviest first (capped). */
  edges: [number, number, number][];
  edges_total: number;
}

export interface Switch {
  t_ns: number;
  epoch: number;
  /** Keys that changed owner (may exceed `moves.length`, which is capped). */
  moved: number;
  /** Traced moves of this switch: store key, from, to. */
  moves: { key: number; from: number; to: number }[];
}

export interface Partitioning {
  epoch: number;
  start_ns: number;
  end_ns: number;
  vertices: number;
  edges: number;
  cut: number;
  time_us: number;
  /** Heaviest part over the average, permille (from the map's balance event). */
  imbalance_permille?: number;
}

export interface Pause {
  epoch: number;
  start_ns: number;
  end_ns: number;
}

export interface SyncQueued {
  t_ns: number;
  req: number;
  /** Bit i = worker i (workers 0-31). */
  lanes: number;
  executor: number;
}

export interface CvPoint {
  t_ns: number;
  /** Coefficient of variation of the queue lengths, percent. */
  cv: number;
}

export interface RepartTimeline {
  switches: Switch[];
  partitions: Partitioning[];
  pauses: Pause[];
  syncs: SyncQueued[];
  cv: CvPoint[];
  /** Deliveries by time (for "keys seen so far"): the time of each delivered request, by request id. */
  deliveredAt: Map<number, number>;
}

/** CV of `lens` in percent; null when every queue is empty. */
export function cvPercent(lens: readonly number[]): number | null {
  if (lens.length === 0) return null;
  const mean = lens.reduce((a, b) => a + b, 0) / lens.length;
  if (mean <= 0) return null;
  const v = lens.reduce((a, l) => a + (l - mean) ** 2, 0) / lens.length;
  return (Math.sqrt(v) / mean) * 100;
}

/** The timeline being read, and what is still open while reading. */
interface Reading {
  out: RepartTimeline;
  /** Partitionings started and not finished yet, by epoch. */
  open: Map<number, Partitioning>;
  /** Start of each pause not over yet, by epoch. */
  pausing: Map<number, number>;
  /** Moves traced since the last switch (they precede their switch). */
  pendingMoves: Switch['moves'];
  /** Queue samples of one tick share a timestamp: gathered here, closed when time moves on. */
  tickT: number;
  tick: number[];
}

function closeTick(r: Reading): void {
  const cv = cvPercent(r.tick.filter((l) => l >= 0));
  if (r.tickT >= 0 && cv !== null) r.out.cv.push({ t_ns: r.tickT, cv });
  r.tick = [];
}

/** What each kind adds to the timeline; other kinds add nothing. */
const READ = onPacked<PackedTrace, Reading, void>(
  {
    Delivered: (trace, i, r) => {
      r.out.deliveredAt.set(trace.get(i, F.Delivered.req), trace.tNs(i));
    },
    KeyMoved: (trace, i, r) => {
      r.pendingMoves.push({
        key: trace.get(i, F.KeyMoved.key),
        from: trace.get(i, F.KeyMoved.from),
        to: trace.get(i, F.KeyMoved.to),
      });
    },
    MapSwitch: (trace, i, r) => {
      r.out.switches.push({
        t_ns: trace.tNs(i),
        epoch: trace.get(i, F.MapSwitch.epoch),
        moved: trace.get(i, F.MapSwitch.moved),
        moves: r.pendingMoves,
      });
      r.pendingMoves = [];
    },
    PartitionStart: (trace, i, r) => {
      const epoch = trace.get(i, F.PartitionStart.epoch);
      const t = trace.tNs(i);
      r.open.set(epoch, {
        epoch,
        start_ns: t,
        end_ns: t,
        vertices: trace.get(i, F.PartitionStart.vertices),
        edges: trace.get(i, F.PartitionStart.edges),
        cut: 0,
        time_us: 0,
      });
    },
    Partitioned: (trace, i, r) => {
      const epoch = trace.get(i, F.Partitioned.epoch);
      const t = trace.tNs(i);
      const p = r.open.get(epoch) ?? { epoch, start_ns: t, end_ns: t, vertices: 0, edges: 0, cut: 0, time_us: 0 };
      r.open.delete(epoch);
      p.end_ns = t;
      p.cut = trace.get(i, F.Partitioned.cut);
      p.time_us = trace.get(i, F.Partitioned.time_us);
      r.out.partitions.push(p);
    },
    MapBalance: (trace, i, r) => {
      const epoch = trace.get(i, F.MapBalance.epoch);
      const last = r.out.switches[r.out.switches.length - 1];
      // The balance event follows its switch; the partition of that map is the latest finished one.
      const p = r.out.partitions[r.out.partitions.length - 1];
      if (p && last && last.epoch === epoch) p.imbalance_permille = trace.get(i, F.MapBalance.imbalance_permille);
    },
    SchedulerPause: (trace, i, r) => {
      r.pausing.set(trace.get(i, F.SchedulerPause.epoch), trace.tNs(i));
    },
    SchedulerResume: (trace, i, r) => {
      const epoch = trace.get(i, F.SchedulerResume.epoch);
      const t = trace.tNs(i);
      r.out.pauses.push({ epoch, start_ns: r.pausing.get(epoch) ?? t, end_ns: t });
      r.pausing.delete(epoch);
    },
    SyncQueued: (trace, i, r) => {
      r.out.syncs.push({
        t_ns: trace.tNs(i),
        req: trace.get(i, F.SyncQueued.req),
        lanes: trace.get(i, F.SyncQueued.lanes),
        executor: trace.get(i, F.SyncQueued.executor),
      });
    },
    QueueLen: (trace, i, r) => {
      const t = trace.tNs(i);
      if (t !== r.tickT) {
        closeTick(r);
        r.tickT = t;
      }
      const of = trace.get(i, F.QueueLen.of);
      while (r.tick.length <= of) r.tick.push(-1);
      r.tick[of] = trace.get(i, F.QueueLen.len);
    },
  },
  () => undefined,
);

/** Read a trace once into the view's timeline. */
export function timeline(trace: PackedTrace): RepartTimeline {
  const r: Reading = {
    out: { switches: [], partitions: [], pauses: [], syncs: [], cv: [], deliveredAt: new Map() },
    open: new Map(),
    pausing: new Map(),
    pendingMoves: [],
    tickT: -1,
    tick: [],
  };
  for (let i = 0; i < trace.length; i++) READ(trace, i, r);
  closeTick(r);
  return r.out;
}

/** The owner of every vertex of `g` after the switches up to `tNs`, and the keys the last of them moved. */
export function ownersAt(
  g: GraphView,
  tl: RepartTimeline,
  tNs: number,
): { owner: Int32Array; lastMoved: Set<number>; epoch: number } {
  const owner = Int32Array.from(g.initial_owner);
  const index = new Map<number, number>();
  g.keys.forEach((k, i) => index.set(k % 2 ** 32, i));
  let lastMoved = new Set<number>();
  let epoch = 0;
  for (const s of tl.switches) {
    if (s.t_ns > tNs) break;
    lastMoved = new Set();
    for (const m of s.moves) {
      const v = index.get(m.key);
      if (v !== undefined) {
        owner[v] = m.to;
        lastMoved.add(v);
      }
    }
    epoch = s.epoch;
  }
  return { owner, lastMoved, epoch };
}

/** Vertices whose key some request delivered by `tNs` touched (the rest are not placed yet). */
export function seenAt(g: GraphView, tl: RepartTimeline, tNs: number): Uint8Array {
  const seen = new Uint8Array(g.keys.length);
  g.first_request.forEach((r, v) => {
    const t = tl.deliveredAt.get(r);
    if (t !== undefined && t <= tNs) seen[v] = 1;
  });
  return seen;
}

/**
 * Edge cut of an assignment over the drawn edges: their total weight between
 * different owners, counting only keys placed already (`seen`, all if absent).
 */
export function cutOf(g: GraphView, owner: Int32Array, seen?: Uint8Array): number {
  let cut = 0;
  for (const [u, v, w] of g.edges) if (owner[u] !== owner[v] && (!seen || (seen[u] && seen[v]))) cut += w;
  return cut;
}

/** True while Base's scheduler is stopped at `tNs`. */
export function pausedAt(tl: RepartTimeline, tNs: number): boolean {
  return tl.pauses.some((p) => p.start_ns <= tNs && tNs < p.end_ns);
}

export { NO_REQUEST };
