/**
 * The packed trace format shared with the engine (Rust side:
 * `psmr_core::codec`). One event is 6 little-endian u32 words (24 bytes):
 *
 * - w0, w1: `t_ns` low / high 32 bits (nanoseconds since the run started)
 * - w2: thread (bits 0-15, 0xFFFF = scheduler) | kind (16-23) | extra (24-31)
 * - w3, w4, w5: fields a, b, c (meaning depends on the kind, see `KIND`)
 *
 * Events are packed in seq order; the seq of an event is its index.
 * The decoder keeps the words as they are (a `Uint32Array` view): reading a
 * field is one array access, and a 1M-event trace costs 24 MB, not objects.
 */

import {
  F,
  KIND,
  KIND_COUNT,
  KNOWN,
  NO_REQUEST,
  REASON_COUNT,
  REASON_NAMES,
  SCHEDULER,
  SMALL,
  type NamedEvent,
} from './vocabulary.gen';
import { reasonWords } from './reasons';

export type { NamedEvent } from './vocabulary.gen';
export {
  AUX_BASE,
  F,
  FOCUS,
  KIND,
  KIND_COUNT,
  KIND_KEBAB,
  KNOWN,
  NO_REQUEST,
  REASON,
  REASON_COUNT,
  REASON_NAMES,
  SCHEDULER,
  SMALL,
  SMALL_NAMES,
  STRUCTURAL,
} from './vocabulary.gen';

/** Words per packed event. */
export const WORDS = 6;
/** Bytes per packed event. */
export const EVENT_BYTES = WORDS * 4;

export type KindName = keyof typeof KIND;
/** Kind names (as in `KIND`), by code. */
export const KIND_NAMES: readonly (KindName | undefined)[] = (() => {
  const names: (KindName | undefined)[] = Array.from({ length: KIND_COUNT }, () => undefined);
  for (const [name, code] of Object.entries(KIND)) names[code] = name as KindName;
  return names;
})();
/** Every kind code (codes may have gaps between families' ranges). */
export const KIND_CODES: readonly number[] = Object.values(KIND);
export type ReasonName = (typeof REASON_NAMES)[number];
/** The word a field lives in (see `F`): 2 = the 8-bit x, 3-5 = a, b, c. */
export type FieldWord = 2 | 3 | 4 | 5;

/** One event as an object: for tests, tooltips and the pseudo-code panel. */
export interface TraceEvent {
  t_ns: number;
  thread: number;
  kind: number;
  extra: number;
  a: number;
  b: number;
  c: number;
}

/** Why a buffer is not a valid trace. */
export class TraceFormatError extends Error {}

/** A decoded trace: the words plus fast accessors. Immutable. */
export class PackedTrace {
  readonly words: Uint32Array;
  readonly length: number;

  constructor(words: Uint32Array) {
    if (words.length % WORDS !== 0) {
      throw new TraceFormatError(`trace has ${words.length} words, not a multiple of ${WORDS}`);
    }
    this.words = words;
    this.length = words.length / WORDS;
  }

  /** Time of event `i` in ns (exact below 2^53 ns, about 104 days). */
  tNs(i: number): number {
    const o = i * WORDS;
    return this.words[o] + this.words[o + 1] * 0x1_0000_0000;
  }
  thread(i: number): number {
    return this.words[i * WORDS + 2] & 0xffff;
  }
  kind(i: number): number {
    return (this.words[i * WORDS + 2] >>> 16) & 0xff;
  }
  extra(i: number): number {
    return this.words[i * WORDS + 2] >>> 24;
  }
  a(i: number): number {
    return this.words[i * WORDS + 3];
  }
  b(i: number): number {
    return this.words[i * WORDS + 4];
  }
  c(i: number): number {
    return this.words[i * WORDS + 5];
  }
  /** A field of event `i` by its word (`F.<Kind>.<field>`, from the engine's vocabulary). */
  get(i: number, word: FieldWord): number {
    const w = this.words[i * WORDS + word];
    return word === 2 ? w >>> 24 : w;
  }
  event(i: number): TraceEvent {
    return {
      t_ns: this.tNs(i),
      thread: this.thread(i),
      kind: this.kind(i),
      extra: this.extra(i),
      a: this.a(i),
      b: this.b(i),
      c: this.c(i),
    };
  }
}

/**
 * Decode a packed trace from its bytes. Checks the length and that every
 * kind and wait reason code is known (the Rust decoder rejects the same).
 * The returned trace views `buf` without copying.
 */
export function decode(buf: ArrayBuffer): PackedTrace {
  if (buf.byteLength % EVENT_BYTES !== 0) {
    throw new TraceFormatError(`trace is ${buf.byteLength} bytes, not a multiple of ${EVENT_BYTES}`);
  }
  const words = littleEndianWords(buf);
  const trace = new PackedTrace(words);
  for (let i = 0; i < trace.length; i++) {
    const k = trace.kind(i);
    if (k >= KIND_COUNT || !KNOWN[k]) {
      throw new TraceFormatError(`event ${i}: unknown kind code ${k}`);
    }
    if ((k === KIND.WaitStart || k === KIND.WaitEnd) && trace.extra(i) >= REASON_COUNT) {
      throw new TraceFormatError(`event ${i}: unknown wait reason ${trace.extra(i)}`);
    }
  }
  return trace;
}

/** True on little-endian hosts (every browser platform in practice). */
const HOST_LE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function littleEndianWords(buf: ArrayBuffer): Uint32Array {
  if (HOST_LE) return new Uint32Array(buf);
  const dv = new DataView(buf);
  const out = new Uint32Array(buf.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = dv.getUint32(i * 4, true);
  return out;
}

/**
 * Encode events into packed bytes: the mirror of the Rust encoder, used by
 * tests and by the synthetic trace generator. Fields are truncated to their
 * widths (thread 16 bits, kind and extra 8 bits, a/b/c 32 bits).
 */
export function encode(events: readonly TraceEvent[]): ArrayBuffer {
  const buf = new ArrayBuffer(events.length * EVENT_BYTES);
  const dv = new DataView(buf);
  events.forEach((e, i) => {
    const o = i * EVENT_BYTES;
    dv.setUint32(o, e.t_ns % 0x1_0000_0000, true);
    dv.setUint32(o + 4, Math.floor(e.t_ns / 0x1_0000_0000), true);
    const w2 = ((e.thread & 0xffff) | ((e.kind & 0xff) << 16) | ((e.extra & 0xff) << 24)) >>> 0;
    dv.setUint32(o + 8, w2, true);
    dv.setUint32(o + 12, e.a >>> 0, true);
    dv.setUint32(o + 16, e.b >>> 0, true);
    dv.setUint32(o + 20, e.c >>> 0, true);
  });
  return buf;
}

/** The fields of kind `K`, by name. */
export type FieldsOf<K extends KindName> = { [Name in keyof (typeof F)[K]]: number };

/** An event of kind `kind` from its fields by name (tests, synthetic traces). */
export function make(kind: KindName, fields: Record<string, number>, t_ns: number, thread: number): TraceEvent {
  const e: TraceEvent = { t_ns, thread, kind: KIND[kind], extra: 0, a: 0, b: 0, c: 0 };
  const words: Record<string, FieldWord> = F[kind];
  for (const [name, w] of Object.entries(words)) {
    const v = fields[name] ?? 0;
    if (w === 2) e.extra = v;
    else if (w === 3) e.a = v;
    else if (w === 4) e.b = v;
    else e.c = v;
  }
  return e;
}

/** An event with its fields by name, as the engine's vocabulary names them. */
export function named(e: TraceEvent): NamedEvent {
  const kind = KIND_NAMES[e.kind];
  const out: Record<string, number | string> = { kind: kind ?? `kind ${e.kind}`, t_ns: e.t_ns, thread: e.thread };
  const fields: Record<string, FieldWord> = kind ? F[kind] : {};
  for (const [name, w] of Object.entries(fields)) out[name] = field(e, w);
  return out as unknown as NamedEvent;
}

/** A field of an event object by its word (`F.<Kind>.<field>`). */
export function field(e: TraceEvent, word: FieldWord): number {
  return word === 2 ? e.extra : word === 3 ? e.a : word === 4 ? e.b : e.c;
}

/** `T0, T2 and T3` for a lane mask (bit i = worker i). */
function lanes(mask: number): string {
  const ts: string[] = [];
  for (let w = 0; w < 32; w++) if ((mask >>> w) & 1) ts.push(`T${w}`);
  return ts.length > 1 ? `${ts.slice(0, -1).join(', ')} and ${ts[ts.length - 1]}` : (ts[0] ?? 'no worker');
}

/** ` on r<id>`, or nothing for NO_REQUEST. */
function onReq(req: number): string {
  return req === NO_REQUEST ? '' : ` on r${req}`;
}

/**
 * The one name of an SCC in every view and sentence: `SCC #1` is the first
 * SCC found (group id 0 in the trace), numbered from 1 in the order SCCs
 * are found, which is the order they are handed out (dependencies first).
 */
export function sccName(group: number): string {
  return `SCC #${group + 1}`;
}

/** How a free color got its core (`ColorHome.how`), in words, by code. */
export const HOME_HOW: Record<number, string> = {
  [SMALL.ColorHome.how.Hashed]: 'hashed',
  [SMALL.ColorHome.how.RegisteringCore]: 'the registering core',
  [SMALL.ColorHome.how.FixedCore]: 'a fixed core',
};

/** A short human description of an event, for tooltips and the log. */
/** How `describe` words an event. `cycle: false` leaves out the cycle number of sync events (a barrier has none). */
export interface DescribeOptions {
  cycle?: boolean;
}

export function describe(e: TraceEvent, className: (c: number) => string, opts: DescribeOptions = {}): string {
  const cycleOf = (c: number) => (opts.cycle === false ? '' : ` (cycle ${c})`);
  const who = e.thread === SCHEDULER ? 'scheduler' : e.thread >= 0xff00 ? `aux ${e.thread - 0xff00}` : `T${e.thread}`;
  const f = (w: FieldWord) => field(e, w);
  switch (e.kind) {
    case KIND.Delivered:
      return `${who} delivered r${f(F.Delivered.req)} (${className(f(F.Delivered.class))})`;
    case KIND.Enqueued:
      return `${who} put r${f(F.Enqueued.req)} in T${f(F.Enqueued.to)}'s queue`;
    case KIND.Dequeued:
      return `${who} took r${f(F.Dequeued.req)} from its queue`;
    case KIND.ExecStart:
      return `${who} starts executing r${f(F.ExecStart.req)}`;
    case KIND.ExecEnd:
      return `${who} finished r${f(F.ExecEnd.req)}`;
    case KIND.WaitStart:
      return `${who} waits ${reasonWords(f(F.WaitStart.reason))}${onReq(f(F.WaitStart.req))}`;
    case KIND.WaitEnd: {
      const spins = f(F.WaitEnd.spins);
      return (
        `${who} stops waiting ${reasonWords(f(F.WaitEnd.reason))}${onReq(f(F.WaitEnd.req))}` +
        (spins > 0 ? ` after ${spins} spins` : '')
      );
    }
    case KIND.SyncArrive:
      return `${who} arrives at ${className(f(F.SyncArrive.class))}'s sync for r${f(F.SyncArrive.req)}${cycleOf(f(F.SyncArrive.cycle))}`;
    case KIND.SyncRelease:
      return `${className(f(F.SyncRelease.class))}'s sync for r${f(F.SyncRelease.req)} released; T${f(F.SyncRelease.executor)} executed it${cycleOf(f(F.SyncRelease.cycle))}`;
    case KIND.Steal:
      return `${who} steals ${f(F.Steal.count)} request(s) from T${f(F.Steal.victim)}, first r${f(F.Steal.first)}`;
    case KIND.StealDone:
      return `${who} finished the work stolen from T${f(F.StealDone.victim)}`;
    case KIND.Flag:
      return `${who} ready flag = ${f(F.Flag.ready)}`;
    case KIND.GraphInsert:
      return `${who} inserts r${f(F.GraphInsert.req)} in the graph with ${f(F.GraphInsert.deps)} dependencies`;
    case KIND.GraphRemove:
      return `${who} removes r${f(F.GraphRemove.req)} from the graph`;
    case KIND.GroupFound:
      return `${who} found ${sccName(f(F.GroupFound.group))} (${f(F.GroupFound.size)} instances), number ${f(F.GroupFound.position) + 1} in its graph's order`;
    case KIND.MapSwitch:
      return `${who} switches to partition map ${f(F.MapSwitch.epoch)} (${f(F.MapSwitch.moved)} keys moved)`;
    case KIND.QueueLen:
      return `T${f(F.QueueLen.of)}'s queue holds ${f(F.QueueLen.len)}`;
    case KIND.DepEdge:
      return `r${f(F.DepEdge.from)} depends on r${f(F.DepEdge.to)}`;
    case KIND.GroupMember:
      return `the instance of r${f(F.GroupMember.req)} belongs to ${sccName(f(F.GroupMember.group))}`;
    case KIND.Registered: {
      const parent = f(F.Registered.parent);
      const child = f(F.Registered.child);
      const where = `color ${f(F.Registered.color)}, into T${f(F.Registered.core)}'s queue`;
      return parent === NO_REQUEST
        ? `${who} queues root event e${child} (${where})`
        : `e${parent} registers e${child} (${where})`;
    }
    case KIND.ColorSteal:
      return `${who} steals color ${f(F.ColorSteal.color)} (${f(F.ColorSteal.count)} events) from T${f(F.ColorSteal.victim)}`;
    case KIND.Partitioned:
      return `${who} computed partition map ${f(F.Partitioned.epoch)}: edge cut ${f(F.Partitioned.cut)} in ${f(F.Partitioned.time_us)} us`;
    case KIND.Commit:
      return `instance ${f(F.Commit.instance)} committed (seq ${f(F.Commit.seq)}, ${f(F.Commit.deps)} dependencies)`;
    case KIND.SyncQueued:
      return `${who} queues a sync for r${f(F.SyncQueued.req)} across ${lanes(f(F.SyncQueued.lanes))}; T${f(F.SyncQueued.executor)} will execute it`;
    case KIND.PartSyncArrive: {
      const req = f(F.PartSyncArrive.req);
      const what = req === NO_REQUEST ? 'the map switch sync' : `the sync for r${req}`;
      return `${who} reaches ${what} (${f(F.PartSyncArrive.parties)} workers)`;
    }
    case KIND.PartSyncRelease: {
      const req = f(F.PartSyncRelease.req);
      return req === NO_REQUEST
        ? 'every worker passed the map switch sync'
        : `the sync for r${req} is released; T${f(F.PartSyncRelease.executor)} executed it`;
    }
    case KIND.PartitionStart:
      return `${who} starts partitioning for map ${f(F.PartitionStart.epoch)}: ${f(F.PartitionStart.vertices)} keys, ${f(F.PartitionStart.edges)} edges`;
    case KIND.MapBalance:
      return `map ${f(F.MapBalance.epoch)} over ${f(F.MapBalance.keys)} keys: heaviest part ${(f(F.MapBalance.imbalance_permille) / 1000).toFixed(3)}x the average`;
    case KIND.SchedulerPause:
      return `${who} stops scheduling to repartition (map ${f(F.SchedulerPause.epoch)})`;
    case KIND.SchedulerResume:
      return `${who} resumes scheduling after ${f(F.SchedulerResume.pause_us)} us (map ${f(F.SchedulerResume.epoch)})`;
    case KIND.KeyMoved:
      return `key ${f(F.KeyMoved.key)} moves from T${f(F.KeyMoved.from)} to T${f(F.KeyMoved.to)}`;
    case KIND.Ready:
      return `r${f(F.Ready.req)} has no dependency left in the graph: ready to execute`;
    case KIND.GraphSize:
      return `the dependency graph holds ${f(F.GraphSize.size)} of at most ${f(F.GraphSize.bound)} requests`;
    case KIND.SccStart:
      return `${who} starts executing ${sccName(f(F.SccStart.group))} (${f(F.SccStart.size)} instances)`;
    case KIND.SccEnd:
      return `${who} finished every instance of ${sccName(f(F.SccEnd.group))}`;
    case KIND.CommitWait:
      return `instance ${f(F.CommitWait.instance)} waits for instance ${f(F.CommitWait.on)} to commit`;
    case KIND.ColorHome: {
      const how = HOME_HOW[f(F.ColorHome.how)] ?? 'a core';
      return `free color ${f(F.ColorHome.color)} goes to T${f(F.ColorHome.core)} (${how})`;
    }
    case KIND.ColorQueue: {
      const op = ['joins', 'leaves', 'moves to the tail of'][f(F.ColorQueue.op)] ?? 'changes in';
      return `color ${f(F.ColorQueue.color)} ${op} T${f(F.ColorQueue.core)}'s queue (${f(F.ColorQueue.len)} events)`;
    }
    case KIND.StealTry:
      return `${who} looks at T${f(F.StealTry.victim)}'s queue (${f(F.StealTry.queued)} events) for a color to steal`;
    case KIND.StealRefused: {
      const why =
        [
          'fewer than two colors queued',
          'no color under half the queue',
          'time left not above the steal cost',
          'no stealable color',
        ][f(F.StealRefused.heuristic)] ?? 'refused';
      return `${who} does not steal color ${f(F.StealRefused.color)}: ${why} (time left ${f(F.StealRefused.left_ns)} ns, steal cost ${f(F.StealRefused.cost_ns)} ns)`;
    }
    case KIND.StealCost:
      return `${who}'s steal from T${f(F.StealCost.victim)} took ${f(F.StealCost.steal_ns)} ns for ${f(F.StealCost.left_ns)} ns of work`;
    case KIND.StealQueue: {
      const iv = f(F.StealQueue.interval);
      const color = f(F.StealQueue.color);
      const core = f(F.StealQueue.core);
      return iv >= 3
        ? `color ${color} leaves T${core}'s stealing queue`
        : `color ${color} enters T${core}'s stealing queue, interval ${iv} (${f(F.StealQueue.left_ns)} ns left)`;
    }
    default:
      return `${who} event ${e.kind}`;
  }
}
