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
  FLAG_EVENT_STREAM,
  KIND,
  KIND_COUNT,
  KNOWN,
  NO_REQUEST,
  REASON_COUNT,
  REASON_NAMES,
  SCHEDULER,
  type NamedEvent,
} from './vocabulary.gen';
import { kindTable, type ByKind } from './dispatch';
import { reasonWords } from './reasons';

export type { NamedEvent } from './vocabulary.gen';
export {
  AUX_BASE,
  F,
  FLAG_COLORS,
  FLAG_ENDS_GROUP,
  FLAG_ENDS_STEAL,
  FLAG_ENTERS_GRAPH,
  FLAG_EVENT_STREAM,
  FLAG_FILLS_QUEUE,
  FLAG_GRAPH_BOUND,
  FLAG_GRAPH_READY,
  FLAG_JOINS_PAUSE,
  FLAG_JOINS_TAKE,
  FLAG_LEAVES_GRAPH,
  FLAG_MAP_EPOCH,
  FLAG_PAUSES,
  FLAG_READY_FLAG,
  FLAG_RUNS_GROUP,
  FLAG_STARTS_STEP,
  FLAG_STEAL,
  FLAG_STEALS_COLOR,
  FLAG_SYNC_POINT,
  FLAG_TAKES_QUEUE,
  FOCUS,
  KIND,
  KIND_COUNT,
  KIND_KEBAB,
  KNOWN,
  NO_REQUEST,
  REASON,
  REASON_COUNT,
  REASON_JOINS_ARRIVAL,
  REASON_NAMES,
  REASON_SYNC_GROUP,
  SCHEDULER,
  SMALL,
  SMALL_NAMES,
  STRUCTURAL,
} from './vocabulary.gen';

/** Words per packed event. */
export const WORDS = 6;

/**
 * The run is an event stream (it delivers root events and their handlers
 * register the rest): its trace holds a kind the vocabulary flags
 * `event-stream`. `kindCounts` is the trace index's count per kind code.
 */
export function isEventStream(kindCounts: Uint32Array): boolean {
  return kindCounts.some((n, k) => n > 0 && FLAG_EVENT_STREAM[k] === true);
}
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

/** How `describe` words an event. `cycle: false` leaves out the cycle number of sync events (a barrier has none). */
export interface DescribeOptions {
  cycle?: boolean;
}

/** What every sentence of `describe` uses: the thread's name, the event's fields, the class names. */
export interface Wording {
  who: string;
  f(w: FieldWord): number;
  className(c: number): string;
  /** ` (cycle N)`, or nothing when the caller leaves cycle numbers out. */
  cycleOf(c: number): string;
}

/** The sentence of one kind of event. */
export type Sentence = (e: TraceEvent, c: Wording) => string;

/**
 * The sentence of each kind, by code: the kinds every family shares here, a
 * family's own kinds registered by its module (`FamilyModule.sentences`,
 * views/family.ts); a kind without one is named by its code.
 */
const SENTENCES: (Sentence | undefined)[] = [
  ...kindTable<Sentence>({
    Delivered: (_e, c) => `${c.who} delivered r${c.f(F.Delivered.req)} (${c.className(c.f(F.Delivered.class))})`,
    Enqueued: (_e, c) => `${c.who} put r${c.f(F.Enqueued.req)} in T${c.f(F.Enqueued.to)}'s queue`,
    Dequeued: (_e, c) => `${c.who} took r${c.f(F.Dequeued.req)} from its queue`,
    ExecStart: (_e, c) => `${c.who} starts executing r${c.f(F.ExecStart.req)}`,
    ExecEnd: (_e, c) => `${c.who} finished r${c.f(F.ExecEnd.req)}`,
    WaitStart: (_e, c) => `${c.who} waits ${reasonWords(c.f(F.WaitStart.reason))}${onReq(c.f(F.WaitStart.req))}`,
    WaitEnd: (_e, c) => {
      const spins = c.f(F.WaitEnd.spins);
      return (
        `${c.who} stops waiting ${reasonWords(c.f(F.WaitEnd.reason))}${onReq(c.f(F.WaitEnd.req))}` +
        (spins > 0 ? ` after ${spins} spins` : '')
      );
    },
    SyncArrive: (_e, c) =>
      `${c.who} arrives at ${c.className(c.f(F.SyncArrive.class))}'s sync for r${c.f(F.SyncArrive.req)}${c.cycleOf(c.f(F.SyncArrive.cycle))}`,
    SyncRelease: (_e, c) =>
      `${c.className(c.f(F.SyncRelease.class))}'s sync for r${c.f(F.SyncRelease.req)} released; T${c.f(F.SyncRelease.executor)} executed it${c.cycleOf(c.f(F.SyncRelease.cycle))}`,
    QueueLen: (_e, c) => `T${c.f(F.QueueLen.of)}'s queue holds ${c.f(F.QueueLen.len)}`,
    DepEdge: (_e, c) => `r${c.f(F.DepEdge.from)} depends on r${c.f(F.DepEdge.to)}`,
  }),
];

/** Registers the sentences of a family's own kinds (a kind keeps the first sentence it is given). */
export function registerSentences(sentences: ByKind<Sentence>): void {
  for (const name of Object.keys(sentences) as KindName[]) SENTENCES[KIND[name]] ??= sentences[name];
}

const unnamed: Sentence = (e, c) => `${c.who} event ${e.kind}`;

/** A short human description of an event, for tooltips and the log. */
export function describe(e: TraceEvent, className: (c: number) => string, opts: DescribeOptions = {}): string {
  const who = e.thread === SCHEDULER ? 'scheduler' : e.thread >= 0xff00 ? `aux ${e.thread - 0xff00}` : `T${e.thread}`;
  return (SENTENCES[e.kind] ?? unnamed)(e, {
    who,
    f: (w) => field(e, w),
    className,
    cycleOf: (c) => (opts.cycle === false ? '' : ` (cycle ${c})`),
  });
}
