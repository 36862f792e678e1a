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

/** Words per packed event. */
export const WORDS = 6;
/** Bytes per packed event. */
export const EVENT_BYTES = WORDS * 4;
/** The scheduler (delivering) thread's id in `thread`. */
export const SCHEDULER = 0xffff;

/** Kind codes (w2 bits 16-23). Field use in the comment: a, b, c, extra. */
export const KIND = {
  Delivered: 0, // a=req, b=class
  Enqueued: 1, // a=req, b=to thread
  Dequeued: 2, // a=req
  ExecStart: 3, // a=req
  ExecEnd: 4, // a=req
  WaitStart: 5, // extra=reason, a=req
  WaitEnd: 6, // extra=reason, a=req, b=spins
  SyncArrive: 7, // a=class, b=req, extra=cycle
  SyncRelease: 8, // a=class, b=req, c=executor, extra=cycle
  Steal: 9, // a=victim, b=count, c=first req
  StealDone: 10, // a=victim
  Flag: 11, // extra=ready 0/1
  GraphInsert: 12, // a=req, b=deps
  GraphRemove: 13, // a=req
  Scc: 14, // a=first, b=size
  MapSwitch: 15, // a=epoch
  QueueLen: 16, // a=of thread, b=len
} as const;

export type KindName = keyof typeof KIND;
export type KindCode = (typeof KIND)[KindName];
/** Number of kind codes; codes are `0..KIND_COUNT`. */
export const KIND_COUNT = 17;
export const KIND_NAMES: readonly KindName[] = Object.keys(KIND) as KindName[];

/** Wait reasons (the `extra` of WaitStart / WaitEnd). */
export const REASON = {
  EmptyQueue: 0,
  FullQueue: 1,
  Barrier: 2,
  Cycle: 3,
  Marker: 4,
  Dependency: 5,
  Scc: 6,
  MapSwitch: 7,
} as const;
export const REASON_COUNT = 8;
/** Reason names in the engine's kebab-case, indexed by code. */
export const REASON_NAMES = [
  'empty-queue',
  'full-queue',
  'barrier',
  'cycle',
  'marker',
  'dependency',
  'scc',
  'map-switch',
] as const;
export type ReasonName = (typeof REASON_NAMES)[number];

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
    if (k >= KIND_COUNT) {
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

/** The engine's "no request" (u32::MAX), e.g. in an idle wait. */
export const NO_REQUEST = 0xffff_ffff;

/** ` on r<id>`, or nothing for NO_REQUEST. */
function onReq(req: number): string {
  return req === NO_REQUEST ? '' : ` on r${req}`;
}

/** A short human description of an event, for tooltips and the log. */
export function describe(e: TraceEvent, className: (c: number) => string): string {
  const who = e.thread === SCHEDULER ? 'scheduler' : `T${e.thread}`;
  switch (e.kind) {
    case KIND.Delivered:
      return `${who} delivered r${e.a} (${className(e.b)})`;
    case KIND.Enqueued:
      return `${who} put r${e.a} in T${e.b}'s queue`;
    case KIND.Dequeued:
      return `${who} took r${e.a} from its queue`;
    case KIND.ExecStart:
      return `${who} starts executing r${e.a}`;
    case KIND.ExecEnd:
      return `${who} finished r${e.a}`;
    case KIND.WaitStart:
      return `${who} waits (${REASON_NAMES[e.extra] ?? e.extra})${onReq(e.a)}`;
    case KIND.WaitEnd:
      return (
        `${who} stops waiting (${REASON_NAMES[e.extra] ?? e.extra})${onReq(e.a)}` +
        (e.b > 0 ? ` after ${e.b} spins` : '')
      );
    case KIND.SyncArrive:
      return `${who} arrives at ${className(e.a)}'s sync for r${e.b} (cycle ${e.extra})`;
    case KIND.SyncRelease:
      return `${className(e.a)}'s sync for r${e.b} released; T${e.c} executed it (cycle ${e.extra})`;
    case KIND.Steal:
      return `${who} steals ${e.b} request(s) from T${e.a}, first r${e.c}`;
    case KIND.StealDone:
      return `${who} finished the work stolen from T${e.a}`;
    case KIND.Flag:
      return `${who} ready flag = ${e.extra}`;
    case KIND.GraphInsert:
      return `${who} inserts r${e.a} in the graph with ${e.b} dependencies`;
    case KIND.GraphRemove:
      return `${who} removes r${e.a} from the graph`;
    case KIND.Scc:
      return `${who} found an SCC of ${e.b} from r${e.a}`;
    case KIND.MapSwitch:
      return `${who} switches to partition map ${e.a}`;
    case KIND.QueueLen:
      return `T${e.a}'s queue holds ${e.b}`;
    default:
      return `${who} event ${e.kind}`;
  }
}
