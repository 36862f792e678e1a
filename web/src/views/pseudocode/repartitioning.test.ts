import { describe, expect, it } from 'vitest';
import { repartAsync, repartBase, repartStatic } from './repartitioning';
import { sequentialCode } from './sequential';
import { lineFor, type PseudoCode, type PseudoEvent } from './types';

function text(code: PseudoCode, e: PseudoEvent): string {
  const t = lineFor(code, e);
  if (!t) throw new Error(`no line for ${e.kind}`);
  const line = code.listings.find((l) => l.id === t.listing)?.lines.find((l) => l.n === t.line);
  if (!line) throw new Error(`no line ${t.line} in ${t.listing}`);
  return line.text;
}

describe('repartitioning and sequential pseudo-code', () => {
  it('every rule points at an existing line', () => {
    for (const code of [repartStatic, repartBase, repartAsync, sequentialCode]) {
      for (const r of code.rules) {
        const l = code.listings.find((x) => x.id === r.target.listing);
        expect(
          l?.lines.some((x) => x.n === r.target.line),
          `${code.schedulers[0]} ${r.kind}`,
        ).toBe(true);
      }
    }
  });

  it('routes a sync share, a sync executor and a one-partition request to their own lines', () => {
    expect(text(repartBase, { kind: 'Enqueued', thread: 'scheduler', req: 3, inSync: true })).toMatch(
      /^else: put sync/,
    );
    expect(text(repartBase, { kind: 'Enqueued', thread: 'scheduler', req: 3, inSync: false })).toMatch(/^if \|P\| = 1/);
    expect(text(repartBase, { kind: 'ExecStart', thread: 1, req: 3, inSync: true })).toMatch(/executor/);
    expect(text(repartBase, { kind: 'ExecStart', thread: 1, req: 3, inSync: false })).toBe('else: execute r');
    expect(text(repartBase, { kind: 'PartSyncArrive', thread: 1, req: 0xffffffff })).toBe(
      'wait until every worker has arrived',
    );
    expect(text(repartBase, { kind: 'PartSyncArrive', thread: 1, req: 3 })).toBe(
      'wait until every worker of P has arrived',
    );
  });

  it("puts Base's pause and Async's partitioner on their strategy's lines", () => {
    expect(text(repartBase, { kind: 'SchedulerPause', thread: 'scheduler' })).toMatch(/^stop scheduling/);
    expect(text(repartAsync, { kind: 'PartitionStart', thread: 65280 })).toMatch(/^partition g/);
    expect(lineFor(repartStatic, { kind: 'MapSwitch', thread: 'scheduler' })).toBeNull();
  });
});
