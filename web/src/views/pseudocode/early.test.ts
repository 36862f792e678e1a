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
