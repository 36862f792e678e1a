import { describe, expect, it } from 'vitest';
import lateMd from '../../../../docs/teaching/late.md?raw';
import epaxosMd from '../../../../docs/teaching/epaxos.md?raw';
import pepaxosMd from '../../../../docs/teaching/pepaxos.md?raw';
import { epaxos, late, pepaxos } from './late-epaxos';
import { lineFor, type PseudoCode } from './types';

function text(code: PseudoCode, listing: string, line: number): string {
  const found = code.listings.find((x) => x.id === listing)?.lines.find((x) => x.n === line);
  if (!found) throw new Error(`no line ${line} in ${listing}`);
  return found.text;
}

describe('late, epaxos and pepaxos pseudo-code', () => {
  it('every rule points at an existing line', () => {
    for (const code of [late, epaxos, pepaxos]) {
      for (const r of code.rules) expect(() => text(code, r.target.listing, r.target.line)).not.toThrow();
    }
  });

  it('prints the teaching pages listings, same numbers, same text', () => {
    for (const [code, md] of [
      [late, lateMd],
      [epaxos, epaxosMd],
      [pepaxos, pepaxosMd],
    ] as const) {
      const page = md.replace(/\s+/g, ' ');
      for (const l of code.listings) {
        // The commit thread's listing is ePaxos's lines 1-2 (pepaxos.md says "as in ePaxos").
        const where = l.id === 'commit' ? epaxosMd.replace(/\s+/g, ' ') : page;
        for (const line of l.lines) expect(where, `${l.id} ${line.n}`).toContain(`${line.n} ${line.text}`);
      }
    }
  });

  it('puts the full graph, the lock and the cross-SCC wait on their lines', () => {
    const full = lineFor(late, { kind: 'WaitStart', thread: 'scheduler', reason: 'full-graph' });
    expect(text(late, full!.listing, full!.line)).toContain('graph_bound');
    const lock = lineFor(late, { kind: 'WaitStart', thread: 1, reason: 'lock' });
    expect(lock).toEqual({ listing: 'worker', line: 2 });
    const wait = lineFor(pepaxos, { kind: 'WaitStart', thread: 0, reason: 'scc' });
    expect(text(pepaxos, wait!.listing, wait!.line)).toBe('wait until T has finished');
    const park = lineFor(epaxos, { kind: 'CommitWait', thread: 0 });
    expect(text(epaxos, park!.listing, park!.line)).toContain('park i');
  });
});
