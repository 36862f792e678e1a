import { describe, expect, it } from 'vitest';
import coloringMd from '../../../../docs/teaching/event-coloring.md?raw';
import { libasync, mely } from './coloring';
import { lineFor, type PseudoCode, type PseudoEvent } from './types';

function text(code: PseudoCode, listing: string, line: number): string {
  const found = code.listings.find((x) => x.id === listing)?.lines.find((x) => x.n === line);
  if (!found) throw new Error(`no line ${line} in ${listing}`);
  return found.text;
}

function lineText(code: PseudoCode, e: PseudoEvent): string {
  const t = lineFor(code, e);
  expect(t, `${e.kind} has a line`).not.toBeNull();
  return text(code, t!.listing, t!.line);
}

describe('libasync and mely pseudo-code', () => {
  it('covers both runtimes, every rule pointing at an existing line', () => {
    expect(libasync.schedulers).toEqual(['libasync']);
    expect(mely.schedulers).toEqual(['mely']);
    for (const code of [libasync, mely]) {
      for (const r of code.rules) expect(() => text(code, r.target.listing, r.target.line)).not.toThrow();
    }
  });

  it('prints the teaching page listings, same numbers, same text', () => {
    const page = coloringMd.replace(/\s+/g, ' ');
    for (const code of [libasync, mely]) {
      for (const l of code.listings) {
        for (const line of l.lines)
          expect(page, `${code.schedulers[0]} ${l.id} ${line.n}`).toContain(`${line.n} ${line.text}`);
      }
    }
  });

  it('puts registrations, takes, steals and refusals on their lines', () => {
    expect(lineText(libasync, { kind: 'Registered', thread: 0 })).toBe("append e to k's FIFO");
    expect(lineText(mely, { kind: 'Registered', thread: 'scheduler' })).toContain('color-queue at k');
    expect(lineText(mely, { kind: 'ColorHome', thread: 1 })).toContain('claim it');
    expect(lineText(libasync, { kind: 'Dequeued', thread: 0 })).toContain("first event of k's FIFO");
    expect(lineText(mely, { kind: 'Dequeued', thread: 0 })).toContain('head color-queue');
    expect(lineText(mely, { kind: 'ColorQueue', thread: 0, fields: { op: 2 } })).toContain('move it to the tail');
    expect(lineText(mely, { kind: 'ColorQueue', thread: 0, fields: { op: 0 } })).toContain('color-queue at k');
    expect(lineText(libasync, { kind: 'StealTry', thread: 1 })).toBe('lock v and k, lowest number first');
    expect(lineText(libasync, { kind: 'StealRefused', thread: 1, fields: { heuristic: 0 } })).toContain(
      'fewer than two colors',
    );
    expect(lineText(libasync, { kind: 'StealRefused', thread: 1, fields: { heuristic: 1 } })).toContain('under half');
    expect(lineText(mely, { kind: 'StealRefused', thread: 1, fields: { heuristic: 2 } })).toContain(
      'refuse (time-left)',
    );
    expect(lineText(mely, { kind: 'StealRefused', thread: 1, fields: { heuristic: 3 } })).toContain('stealing queue');
    expect(lineText(libasync, { kind: 'ColorSteal', thread: 1 })).toContain("append them to k's FIFO");
    expect(lineText(mely, { kind: 'ColorSteal', thread: 1 })).toContain("unlink c's color-queue");
    expect(lineText(mely, { kind: 'WaitStart', thread: 1, reason: 'empty-queue' })).toContain('sleep');
    expect(lineText(libasync, { kind: 'WaitStart', thread: 'scheduler', reason: 'full-queue' })).toContain(
      'queue_capacity',
    );
  });
});
