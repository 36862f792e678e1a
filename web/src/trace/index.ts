/**
 * Indexing a decoded trace: the facts every view needs without replaying
 * (lanes, request classes, time range, where the interesting events are),
 * and the replay checkpoints. Runs in the trace worker (`worker.ts`) so a
 * 1M-event trace never blocks the page; everything here is typed arrays,
 * which the worker transfers to the page without copying.
 */
import { AUX_BASE, F, FLAG_STEAL, KIND, KIND_COUNT, PackedTrace, SCHEDULER } from './codec';
import { apply, emptyState, serialize } from './state';
import { partitionPoint } from './search';

export interface TraceIndex {
  events: number;
  /** Worker lanes: 1 + the largest worker id any event names. */
  threads: number;
  /** 1 + the largest request id delivered or enqueued. */
  requests: number;
  /** Class of each request (from Delivered), -1 if never delivered. */
  reqClass: Int32Array;
  /** 1 + the largest class id. */
  classes: number;
  /** Time of the last event (ns). */
  durationNs: number;
  /**
   * Running maximum of event times: event times follow seq order only
   * roughly (a time is read just before the seq is taken), so seeking by
   * time searches this monotone array instead.
   */
  tMaxNs: Float64Array;
  kindCounts: Uint32Array;
  /** Event indices worth jumping to: steals (every kind the vocabulary flags `steal`). */
  steals: Int32Array;
  /** Index of every ExecEnd (the k-th completed request): compare runs by progress (replay/progress.ts). */
  execEnds: Int32Array;
  releases: Int32Array;
  arrivals: Int32Array;
  /** Queue length of each lane at the end of `queueBuckets` equal time slices. */
  queueBuckets: number;
  /**
   * `queueLen[lane * queueBuckets + k]`: the replayed queue length of the
   * lane in the state at `positionAtTime(queueBucketEndNs(k))`, exactly what
   * the views show at that moment (so the chart and the views agree).
   */
  queueLen: Float32Array;
  /** The trace also holds engine QueueLen samples (the views show the replayed queues). */
  queueFromSamples: boolean;
  /** ExecStart events per time slice (activity strip under the timeline). */
  activity: Float32Array;
  /** `classThreads[cls * threads + t]` = 1 if a request of `cls` was put in t's queue. */
  classThreads: Uint8Array;
  /** `classMulti[cls]` = 1 if one request of `cls` was put in several queues (a sequential class). */
  classMulti: Uint8Array;
}

export interface Checkpoints {
  /** Stride: a checkpoint every `stride` events (position 0, K, 2K, ...). */
  stride: number;
  /** `offsets[k]..offsets[k+1]` is checkpoint k's slice of `pool`. */
  offsets: Uint32Array;
  pool: Float64Array;
}

export interface Analysis {
  index: TraceIndex;
  checkpoints: Checkpoints;
}

/** Checkpoint stride for a trace of `n` events: at most ~512 checkpoints, at least every 128 events. */
export function strideFor(n: number): number {
  return Math.max(128, Math.ceil(n / 512));
}

const BUCKETS = 400;

/** First pass: lanes, requests, classes, times and marks. */
export function buildIndex(trace: PackedTrace): TraceIndex {
  const n = trace.length;
  let threads = 0;
  let requests = 0;
  let classes = 0;
  const tMaxNs = new Float64Array(n);
  const kindCounts = new Uint32Array(KIND_COUNT);
  const steals: number[] = [];
  const execEnds: number[] = [];
  const releases: number[] = [];
  const arrivals: number[] = [];
  let tMax = 0;
  // Worker lanes only: the scheduler and auxiliary roles (AUX_BASE + k:
  // a tracker, a partitioner) record too, but are not workers.
  const seeThread = (t: number) => {
    if (t !== SCHEDULER && t < AUX_BASE && t + 1 > threads) threads = t + 1;
  };
  for (let i = 0; i < n; i++) {
    const k = trace.kind(i);
    kindCounts[k]++;
    seeThread(trace.thread(i));
    const t = trace.tNs(i);
    if (t > tMax) tMax = t;
    tMaxNs[i] = tMax;
    const steal = FLAG_STEAL[k];
    if (steal) {
      // Any kind flagged `steal` (a family's own steals too): a jump and a mark.
      seeThread(trace.get(i, steal.victim));
      steals.push(i);
    } else if (k === KIND.Delivered) {
      requests = Math.max(requests, trace.get(i, F.Delivered.req) + 1);
      classes = Math.max(classes, trace.get(i, F.Delivered.class) + 1);
    } else if (k === KIND.Enqueued) {
      requests = Math.max(requests, trace.get(i, F.Enqueued.req) + 1);
      seeThread(trace.get(i, F.Enqueued.to));
    } else if (k === KIND.SyncRelease) {
      releases.push(i);
      classes = Math.max(classes, trace.get(i, F.SyncRelease.class) + 1);
    } else if (k === KIND.SyncArrive) {
      arrivals.push(i);
    } else if (k === KIND.QueueLen) {
      seeThread(trace.get(i, F.QueueLen.of));
    } else if (k === KIND.ExecEnd) {
      execEnds.push(i);
    }
  }
  const reqClass = new Int32Array(requests).fill(-1);
  const classThreads = new Uint8Array(classes * threads);
  const classMulti = new Uint8Array(classes);
  let lastReq = -1;
  for (let i = 0; i < n; i++) {
    const k = trace.kind(i);
    if (k === KIND.Delivered) reqClass[trace.get(i, F.Delivered.req)] = trace.get(i, F.Delivered.class);
    else if (k === KIND.Enqueued) {
      const req = trace.get(i, F.Enqueued.req);
      const cls = reqClass[req];
      if (cls < 0) continue;
      classThreads[cls * threads + trace.get(i, F.Enqueued.to)] = 1;
      if (req === lastReq) classMulti[cls] = 1;
      lastReq = req;
    }
  }
  return {
    events: n,
    threads,
    requests,
    reqClass,
    classes,
    durationNs: tMax,
    tMaxNs,
    kindCounts,
    steals: Int32Array.from(steals),
    execEnds: Int32Array.from(execEnds),
    releases: Int32Array.from(releases),
    arrivals: Int32Array.from(arrivals),
    queueBuckets: BUCKETS,
    queueLen: new Float32Array(threads * BUCKETS),
    queueFromSamples: kindCounts[KIND.QueueLen] > 0,
    activity: new Float32Array(BUCKETS),
    classThreads,
    classMulti,
  };
}

/** End time of queue bucket k (ns): bucket k's value is the state at positionAtTime of this. */
export function queueBucketEndNs(index: Pick<TraceIndex, 'durationNs' | 'queueBuckets'>, k: number): number {
  return (index.durationNs * (k + 1)) / index.queueBuckets;
}

function bucketOf(tNs: number, durationNs: number): number {
  if (durationNs <= 0) return 0;
  return Math.min(BUCKETS - 1, Math.floor((tNs / durationNs) * BUCKETS));
}

/**
 * Second pass: replay the whole trace once, keep a checkpoint every
 * `stride` events, and fill the queue-length and activity series.
 */
export function buildCheckpoints(trace: PackedTrace, index: TraceIndex, stride = strideFor(trace.length)): Checkpoints {
  const n = trace.length;
  const s = emptyState(index.threads);
  const parts: Float64Array[] = [];
  const offsets = new Uint32Array(Math.floor(n / stride) + 2);
  let total = 0;
  const keep = () => {
    const f = serialize(s);
    parts.push(f);
    total += f.length;
    offsets[parts.length] = total;
  };
  keep();
  // Queue lengths at each bucket's end: recorded just before the first
  // event whose running-max time passes that end, i.e. in the state at
  // positionAtTime(end) (events are applied in seq order, tMaxNs is monotone).
  let bucket = 0;
  const recordQueues = () => {
    for (let l = 0; l < index.threads; l++) index.queueLen[l * BUCKETS + bucket] = s.lanes[l].queue.length;
    bucket++;
  };
  for (let i = 0; i < n; i++) {
    while (bucket < BUCKETS && queueBucketEndNs(index, bucket) < index.tMaxNs[i]) recordQueues();
    apply(s, trace, i);
    const k = bucketOf(trace.tNs(i), index.durationNs);
    if (trace.kind(i) === KIND.ExecStart) index.activity[k]++;
    if ((i + 1) % stride === 0) keep();
  }
  while (bucket < BUCKETS) recordQueues();
  const pool = new Float64Array(total);
  let o = 0;
  for (const p of parts) {
    pool.set(p, o);
    o += p.length;
  }
  return { stride, offsets: offsets.subarray(0, parts.length + 1), pool };
}

export function analyze(trace: PackedTrace): Analysis {
  const index = buildIndex(trace);
  const checkpoints = buildCheckpoints(trace, index);
  return { index, checkpoints };
}

/** Largest position p (0..n) whose applied events all happened at or before `tNs`. */
export function positionAtTime(index: TraceIndex, tNs: number): number {
  // tMaxNs is monotone: the positions wanted are the events up to the first later one.
  return partitionPoint(index.events, (i) => index.tMaxNs[i] <= tNs);
}
