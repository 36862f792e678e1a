import { describe, expect, it } from 'vitest';
import { busyWait, early } from './early';
import { lineFor, type PseudoCode } from './types';

function text(code: PseudoCode, listing: string, line: number): string {
  const l = code.listings.find((x) => x.id === listing);
  const found = l?.lines.find((x) => x.n === line);
  if (!found) throw new Error(`no line ${line} in ${listing}`);
  return found.text;
}

describe('early pseudo-code', () => {
  it('every rule points at an existing line', () => {
    for (const code of [early, busyWait]) {
      for (const r of code.rules) expect(() => text(code, r.target.listing, r.target.line)).not.toThrow();
    }
  });

  it('separates concurrent from sequential execution', () => {
    const conc = lineFor(early, { kind: 'ExecStart', thread: 0, req: 1, sequential: false });
    const seq = lineFor(early, { kind: 'ExecStart', thread: 0, req: 2, sequential: true });
    expect(conc).not.toEqual(seq);
    expect(text(early, seq!.listing, seq!.line)).toBe('execute r');
    expect(seq!.line).toBeGreaterThan(conc!.line);
  });

  // classroom-spin.json maps W1 as sequential on one thread ({T1}): the
  // class self-conflicts, so the paper's rule makes it seq whatever its
  // thread count, and the engine runs each W1 request through a barrier of
  // one party (SyncArrive, then the execution as the class's smallest id).
  // Its execution is line 9, under `if me = min(CtoT(c))`, not line 5.
  it('puts a one-thread sequential class (W1 on classroom-spin) under if me = min(CtoT(c))', () => {
    const w1 = lineFor(early, { kind: 'ExecStart', thread: 1, req: 4, class: 1, sequential: true });
    expect(w1).toEqual({ listing: 'worker', line: 9 });
    expect(text(early, 'worker', 8)).toBe('if me = min(CtoT(c)):');
    expect(text(early, 'worker', 9)).toBe('execute r');
  });

  it('puts busy-wait releases on the mark reset and waits on the polling loop', () => {
    const rel = lineFor(busyWait, { kind: 'SyncRelease', thread: 1, executor: 1, cycle: 1 });
    expect(text(busyWait, rel!.listing, rel!.line)).toContain('set(0)');
    const wait = lineFor(busyWait, { kind: 'WaitStart', thread: 0, reason: 'cycle', req: 3 });
    expect(text(busyWait, wait!.listing, wait!.line)).toContain('while mark');
  });

  it('maps scheduler events to the scheduler listing', () => {
    const enq = lineFor(early, { kind: 'Enqueued', thread: 'scheduler', req: 0, sequential: true });
    expect(enq?.listing).toBe('scheduler');
    const full = lineFor(busyWait, { kind: 'WaitStart', thread: 'scheduler', reason: 'full-queue', sequential: false });
    expect(full?.listing).toBe('scheduler');
    expect(full?.line).not.toBe(enq?.line);
  });
});
