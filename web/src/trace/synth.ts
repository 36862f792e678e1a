/**
 * A small, deterministic simulator of the early-scheduling family that
 * writes traces in the engine's packed format. It is NOT the engine: it
 * exists to test the decoder, the reducer and the views on traces of any
 * size (up to millions of events) without running the wasm engine, and to
 * feed the dev harness. Everything the app shows for a real run comes from
 * the engine's trace.
 *
 * Model: one scheduler thread delivers a request per tick into the queues
 * of its class's threads (all of them for a sequential class, round robin
 * otherwise, as in paper 000 Algorithm 1); workers take requests in FIFO
 * order, synchronize on sequential ones (barrier: the smallest id executes;
 * busy-wait: the last to arrive executes), and in `ws` mode an idle worker
 * steals the whole queue of a worker holding only concurrent requests. The
 * classes are the engine's class table of a sharded app (its names, which
 * shard, read or write), never rebuilt here.
 */
import type { ClassInfo } from '../engine/contract.gen';
import { shardedClasses } from '../engine/classes';
import { make, NO_REQUEST, REASON, SCHEDULER, type FieldsOf, type KindName, type TraceEvent, encode } from './codec';

export interface SynthClass {
  class: string;
  sequential: boolean;
  threads: number[];
}

export interface SynthOptions {
  threads: number;
  requests: number;
  /** Shards of the app; its classes are the engine's (`engine/classes.ts`, 1 to 8 shards). */
  shards: number;
  /** Share of writes and of global requests (0..1). */
  writes: number;
  global: number;
  mode: 'early' | 'busy-wait' | 'ws';
  seed: number;
  /** Mean execution time in ticks. */
  execTicks: number;
  /** Stop once this many events exist (the run is cut short). */
  maxEvents?: number;
  /** Queue bound per thread: the scheduler waits when a target queue is full. */
  queueBound?: number;
  /** Share of local requests sent to shard 1 (skew); otherwise shards are uniform. */
  skew?: number;
}

/** SplitMix-style 32-bit generator: deterministic per seed. */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 0x1_0000_0000;
  };
}

/**
 * A simple mapping of the engine's classes of a sharded app (`classes`, as
 * a report gives them): shard i's threads are those with `t % shards == i`;
 * a local class runs on its shard's threads, a global one on all; a writing
 * class is sequential on them (when there are several), a reading one
 * concurrent.
 */
export function shardedMapping(classes: readonly ClassInfo[], threads: number): SynthClass[] {
  const all = Array.from({ length: threads }, (_, t) => t);
  const shards = Math.max(0, ...classes.map((c) => (c.shard ?? -1) + 1));
  const on = (shard: number) => {
    const mine = all.filter((t) => t % shards === shard);
    return mine.length > 0 ? mine : [shard % threads];
  };
  return classes.map((c) => {
    const ts = c.shard === undefined ? all : on(c.shard);
    return { class: c.name, sequential: c.write && ts.length > 1, threads: ts };
  });
}

/** The id of the class of `classes` on `shard` (undefined: global) that writes or reads. */
function classId(classes: readonly ClassInfo[], shard: number | undefined, write: boolean): number {
  const id = classes.findIndex((c) => c.shard === shard && c.write === write);
  if (id < 0) throw new Error(`synth: no ${write ? 'write' : 'read'} class on shard ${shard ?? 'global'}`);
  return id;
}

interface Group {
  cls: number;
  req: number;
  cycle: number;
  arrived: number;
  need: number;
  executor: number;
  released: boolean;
  done: boolean;
}

interface Worker {
  queue: number[];
  /** Request executing and ticks left, or -1. */
  exec: number;
  left: number;
  /** Sync group waited on (or executing for), or null. */
  group: Group | null;
  waitTicks: number;
  idle: boolean;
  stolen: number[];
  victim: number;
  cycles: Map<number, number>;
}

export interface SynthTrace {
  events: TraceEvent[];
  mapping: SynthClass[];
  buffer: ArrayBuffer;
}

/**
 * The small sharded run the tests start from (4 threads, 200 requests, 2
 * shards, 30 % writes, 10 % global requests, early, seed 1, 2 ticks a
 * request); a test names only the fields it depends on.
 */
export const SMALL_RUN: SynthOptions = {
  threads: 4,
  requests: 200,
  shards: 2,
  writes: 0.3,
  global: 0.1,
  mode: 'early',
  seed: 1,
  execTicks: 2,
};

/** `synthesize` on `SMALL_RUN` with the fields of `over` replaced. */
export function synthesizeSmall(over: Partial<SynthOptions> = {}): SynthTrace {
  return synthesize({ ...SMALL_RUN, ...over });
}

export function synthesize(o: SynthOptions): SynthTrace {
  const rand = rng(o.seed);
  const classes = shardedClasses(o.shards);
  const mapping = shardedMapping(classes, o.threads);
  const local = Array.from({ length: o.shards }, (_, s) => [classId(classes, s, false), classId(classes, s, true)]);
  const global = [classId(classes, undefined, false), classId(classes, undefined, true)];
  const events: TraceEvent[] = [];
  const maxEvents = o.maxEvents ?? Infinity;
  const bound = o.queueBound ?? 64;
  let tNs = 0;
  const emit = <K extends KindName>(thread: number, kind: K, fields: FieldsOf<K>) => {
    events.push(make(kind, fields as Record<string, number>, tNs, thread));
  };
  const ws: Worker[] = Array.from({ length: o.threads }, () => ({
    queue: [],
    exec: -1,
    left: 0,
    group: null,
    waitTicks: 0,
    idle: false,
    stolen: [],
    victim: -1,
    cycles: new Map(),
  }));
  const reqClass: number[] = [];
  const groups = new Map<number, Group>(); // by request id
  const rr = new Map<number, number>();
  let delivered = 0;
  let executed = 0;
  const execLen = () => Math.max(1, Math.round(o.execTicks * (0.5 + rand())));
  const pickClass = () => {
    const write = rand() < o.writes;
    if (rand() < o.global) return global[write ? 1 : 0];
    const shard = o.skew !== undefined && rand() < o.skew ? 0 : Math.floor(rand() * o.shards);
    return local[shard][write ? 1 : 0];
  };
  const isSeq = (req: number) => mapping[reqClass[req]].sequential;

  const deliver = () => {
    const req = delivered;
    const cls = pickClass();
    const m = mapping[cls];
    const targets = m.sequential ? m.threads : [m.threads[(rr.get(cls) ?? 0) % m.threads.length]];
    if (targets.some((t) => ws[t].queue.length >= bound)) {
      return false;
    }
    rr.set(cls, (rr.get(cls) ?? 0) + 1);
    reqClass[req] = cls;
    emit(SCHEDULER, 'Delivered', { req, class: cls });
    for (const t of targets) {
      emit(SCHEDULER, 'Enqueued', { req, to: t });
      ws[t].queue.push(req);
      if (m.sequential && o.mode === 'ws') emit(t, 'Flag', { ready: 1 });
    }
    if (m.sequential) {
      groups.set(req, {
        cls,
        req,
        cycle: 0,
        arrived: 0,
        need: targets.length,
        executor: -1,
        released: false,
        done: false,
      });
    }
    if (req % 8 === 0) emit(SCHEDULER, 'QueueLen', { of: targets[0], len: ws[targets[0]].queue.length });
    delivered++;
    return true;
  };

  const startExec = (t: number, req: number) => {
    const w = ws[t];
    w.exec = req;
    w.left = execLen();
    emit(t, 'ExecStart', { req });
  };

  const stepWorker = (t: number) => {
    const w = ws[t];
    if (w.exec >= 0) {
      if (--w.left > 0) return;
      emit(t, 'ExecEnd', { req: w.exec });
      executed++;
      if (w.group && w.group.executor === t) {
        w.group.done = true;
        w.group = null;
      }
      w.exec = -1;
      if (w.victim >= 0 && w.stolen.length === 0) {
        emit(t, 'StealDone', { victim: w.victim });
        w.victim = -1;
      }
      return;
    }
    if (w.group) {
      const g = w.group;
      w.waitTicks++;
      const reason = o.mode === 'busy-wait' ? REASON.Cycle : REASON.Barrier;
      if (g.released && g.executor === t) {
        emit(t, 'WaitEnd', { req: g.req, spins: 0, reason });
        startExec(t, g.req);
      } else if (g.done) {
        const spins = o.mode === 'busy-wait' ? w.waitTicks * 40 : 0;
        emit(t, 'WaitEnd', { req: g.req, spins, reason });
        w.group = null;
      }
      return;
    }
    if (w.stolen.length > 0) {
      startExec(t, w.stolen.shift()!);
      return;
    }
    if (w.queue.length > 0) {
      if (w.idle) {
        emit(t, 'WaitEnd', { req: w.queue[0], spins: 0, reason: REASON.EmptyQueue });
        w.idle = false;
      }
      const req = w.queue.shift()!;
      emit(t, 'Dequeued', { req });
      if (!isSeq(req)) {
        startExec(t, req);
        return;
      }
      if (o.mode === 'ws' && !w.queue.some(isSeq)) emit(t, 'Flag', { ready: 0 });
      const g = groups.get(req)!;
      const cls = g.cls;
      const cycle = 1 - (w.cycles.get(cls) ?? 1);
      w.cycles.set(cls, cycle);
      g.cycle = o.mode === 'busy-wait' ? cycle : 0;
      g.arrived++;
      emit(t, 'SyncArrive', { class: cls, req, cycle: g.cycle });
      const last = g.arrived === g.need;
      const reason = o.mode === 'busy-wait' ? REASON.Cycle : REASON.Barrier;
      if (last) {
        g.executor = o.mode === 'busy-wait' ? t : Math.min(...mapping[cls].threads);
        g.released = true;
        emit(t, 'SyncRelease', { class: cls, req, executor: g.executor, cycle: g.cycle });
      }
      w.group = g;
      w.waitTicks = 0;
      if (last && g.executor === t) startExec(t, req);
      else emit(t, 'WaitStart', { req, on: NO_REQUEST, reason });
      return;
    }
    if (o.mode === 'ws') {
      for (let d = 1; d < o.threads; d++) {
        const v = (t + d) % o.threads;
        const vq = ws[v].queue;
        if (vq.length >= 2 && !vq.some(isSeq) && ws[v].group === null) {
          if (w.idle) {
            emit(t, 'WaitEnd', { req: vq[0], spins: 0, reason: REASON.EmptyQueue });
            w.idle = false;
          }
          emit(t, 'Steal', { victim: v, count: vq.length, first: vq[0] });
          w.stolen = vq.splice(0, vq.length);
          w.victim = v;
          startExec(t, w.stolen.shift()!);
          return;
        }
      }
    }
    if (!w.idle) {
      emit(t, 'WaitStart', { req: NO_REQUEST, on: NO_REQUEST, reason: REASON.EmptyQueue });
      w.idle = true;
    }
  };

  const order = Array.from({ length: o.threads }, (_, t) => t);
  while (executed < o.requests && events.length < maxEvents) {
    tNs += 200 + Math.floor(rand() * 800);
    if (delivered < o.requests) deliver();
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const t of order) stepWorker(t);
  }
  if (events.length > maxEvents) events.length = maxEvents;
  return { events, mapping, buffer: encode(events) };
}
