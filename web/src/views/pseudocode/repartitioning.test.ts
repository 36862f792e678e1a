import { describe, expect, it } from 'vitest';
import '../families';
import { KIND, NO_REQUEST } from '../../trace/codec';
import { lessonTracks } from '../consistency';
import { codeFor, stepLine } from './PseudoPanel';
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

describe('the end of an execution in the recorded repartitioning lessons', async () => {
  const tracks = await lessonTracks(['repart-base', 'repart-async']);
  it.each(tracks.map((t) => [t.file, t.track] as const))(
    '%s: a sync request ends on the executor line, however far its arrival, a one-partition one on "else"',
    (_file, track) => {
      const t = track.model.trace;
      const code = codeFor(track.scheduler)!;
      const lineText = (p: number) => {
        const target = stepLine(code, track, p + 1, p);
        return code.listings.find((l) => l.id === target?.listing)?.lines.find((l) => l.n === target?.line)?.text;
      };
      const sync = new Map<number, number>();
      let far = 0;
      const seen = { sync: 0, single: 0 };
      for (let i = 0; i < t.length; i++) {
        const k = t.kind(i);
        if (k === KIND.PartSyncArrive && t.event(i).a !== NO_REQUEST) sync.set(t.event(i).a, i);
        if (k !== KIND.ExecEnd) continue;
        const req = t.event(i).a;
        // The step of the ExecEnd alone (as stepping shows it: "T0 has finished executing r0").
        const text = lineText(i);
        if (sync.has(req)) {
          seen.sync++;
          if (i - (sync.get(req) ?? i) > 64) far++;
          expect(text, `r${req} at ${i}`).toMatch(/^if me is r’s executor/);
        } else {
          seen.single++;
          expect(text, `r${req} at ${i}`).toBe('else: execute r');
        }
      }
      expect(seen.sync).toBeGreaterThan(100);
      expect(seen.single).toBeGreaterThan(100);
      // The old 64-event window put these on "else: execute r".
      expect(far).toBeGreaterThan(0);
    },
  );
});
