import { describe, expect, it } from 'vitest';
import {
  decode,
  describe as describeEvent,
  encode,
  EVENT_BYTES,
  KIND,
  KIND_CODES,
  KIND_COUNT,
  NO_REQUEST,
  REASON_COUNT,
  SCHEDULER,
  TraceFormatError,
  type TraceEvent,
} from './codec';
import { rng } from './synth';

/** One event of every kind, with fields at their widths' edges. */
function everyKind(): TraceEvent[] {
  const out: TraceEvent[] = [];
  for (const k of KIND_CODES) {
    out.push({
      t_ns: 2 ** 40 + k * 7919, // needs the high word
      thread: k % 2 === 0 ? SCHEDULER : k,
      kind: k,
      extra: k === KIND.WaitStart || k === KIND.WaitEnd ? 7 : k === KIND.Flag ? 1 : 0,
      a: 0xffff_fff0 + (k % 16),
      b: k * 3,
      c: k === KIND.SyncRelease ? 5 : 0,
    });
  }
  return out;
}

describe('packed trace codec', () => {
  it('round-trips every kind through the encoder mirror', () => {
    const events = everyKind();
    const t = decode(encode(events));
    expect(t.length).toBe(events.length);
    for (let i = 0; i < events.length; i++) expect(t.event(i)).toEqual(events[i]);
  });

  it('lays out words as the Rust codec does', () => {
    // Delivered{req: 1, class: 3} by the scheduler at t = 2^32 + 5 ns.
    const buf = encode([{ t_ns: 2 ** 32 + 5, thread: SCHEDULER, kind: KIND.Delivered, extra: 0, a: 1, b: 3, c: 0 }]);
    expect(Array.from(new Uint32Array(buf))).toEqual([5, 1, 0xffff, 1, 3, 0]);
    // SyncRelease{class 2, req 10, executor 3, cycle 1} by worker 4.
    const buf2 = encode([{ t_ns: 9, thread: 4, kind: KIND.SyncRelease, extra: 1, a: 2, b: 10, c: 3 }]);
    expect(Array.from(new Uint32Array(buf2))).toEqual([9, 0, 4 | (8 << 16) | (1 << 24), 2, 10, 3]);
  });

  it('round-trips random events', () => {
    const r = rng(42);
    const u32 = () => Math.floor(r() * 2 ** 32);
    const events: TraceEvent[] = Array.from({ length: 2000 }, () => {
      const kind = KIND_CODES[Math.floor(r() * KIND_CODES.length)];
      return {
        t_ns: Math.floor(r() * 2 ** 50),
        thread: Math.floor(r() * 0x10000),
        kind,
        extra: kind === KIND.WaitStart || kind === KIND.WaitEnd ? Math.floor(r() * 8) : Math.floor(r() * 256),
        a: u32(),
        b: u32(),
        c: u32(),
      };
    });
    const t = decode(encode(events));
    expect(Array.from({ length: t.length }, (_, i) => t.event(i))).toEqual(events);
  });

  it('rejects a ragged length, an unknown kind and an unknown reason', () => {
    expect(() => decode(new ArrayBuffer(EVENT_BYTES + 4))).toThrow(TraceFormatError);
    const bad = new Uint32Array([0, 0, 200 << 16, 0, 0, 0]);
    expect(() => decode(bad.buffer)).toThrow(/unknown kind/);
    const badReason = new Uint32Array([0, 0, (KIND.WaitStart << 16) | (REASON_COUNT << 24), 0, 0, 0]);
    expect(() => decode(badReason.buffer)).toThrow(/unknown wait reason/);
  });

  it('decodes an empty trace', () => {
    expect(decode(new ArrayBuffer(0)).length).toBe(0);
  });
});

describe('event descriptions', () => {
  it('name the request, or none for an idle wait', () => {
    const name = (c: number) => ['R1', 'W1'][c] ?? `C${c}`;
    const text = (e: TraceEvent) => describeEvent(e, name);
    const ev = (kind: number, a: number, b = 0, c = 0, extra = 0, thread = 1) => ({
      t_ns: 0,
      thread,
      kind,
      extra,
      a,
      b,
      c,
    });
    expect(text(ev(KIND.WaitStart, NO_REQUEST, 0, 0, 0))).toBe('T1 waits for work (its queue is empty)');
    expect(text(ev(KIND.WaitEnd, 7, 40, 0, 3))).toBe(
      "T1 stops waiting for its class's cycle (busy-wait) on r7 after 40 spins",
    );
    expect(text(ev(KIND.SyncRelease, 1, 9, 2, 1))).toBe("W1's sync for r9 released; T2 executed it (cycle 1)");
    expect(text(ev(KIND.Enqueued, 3, 0, 0, 0, SCHEDULER))).toBe("scheduler put r3 in T0's queue");
    // A barrier has no cycles: the early family's views ask for no cycle number.
    expect(describeEvent(ev(KIND.SyncRelease, 1, 9, 2, 0), name, { cycle: false })).toBe(
      "W1's sync for r9 released; T2 executed it",
    );
  });
});

describe('kind codes with gaps', () => {
  it('refuses a code between two families ranges that no kind uses', () => {
    const gap = Array.from({ length: KIND_COUNT }, (_, k) => k).find((k) => !KIND_CODES.includes(k));
    if (gap === undefined) return; // no gap in this vocabulary
    const buf = encode([{ t_ns: 1, thread: 0, kind: gap, extra: 0, a: 0, b: 0, c: 0 }]);
    expect(() => decode(buf)).toThrow(TraceFormatError);
  });
});
