import { beforeAll, describe, expect, it } from 'vitest';
import { shardedClasses } from '../engine/classes';
import type { RunReport } from '../engine/protocol';
import { KIND, SCHEDULER } from '../trace/codec';
import { loadTraceHere } from '../trace/load';
import { synthesizeSmall } from '../trace/synth';
import { conflictGraph, inferMapping } from './classes';
import { codeFor, codes, pseudoEvent } from './pseudocode/PseudoPanel';
import { lineFor, loadAllPseudoCode } from './pseudocode/types';
import './families';
import { familyOf, viewsFor } from './registry';
import { focusRequest } from './threads/draw';
import { caption } from './narrate';
import { makeTrack } from './tracks';
import './builtin';

/** A report run with the fields `makeTrack` reads (scheduler, label, mapping). */
const runOf = (scheduler: string, mapping?: RunReport['info']): RunReport =>
  ({ scheduler, label: scheduler, info: mapping }) as unknown as RunReport;

/** Edges of a conflict graph by class name, `a-b` with a before b in `names`. */
function namedEdges(names: readonly string[], g: { edges: [number, number][]; selfLoops: number[] }): string[] {
  return [...g.edges.map(([i, j]) => `${names[i]}-${names[j]}`), ...g.selfLoops.map((i) => `${names[i]}-${names[i]}`)];
}

describe("classes (the engine report's, never rebuilt on the web)", () => {
  it("draws the engine's conflict relation: reads never conflict with reads, writes with their shard", () => {
    const classes = shardedClasses(2);
    const names = classes.map((c) => c.name);
    expect(names).toEqual(['R1', 'W1', 'R2', 'W2', 'Rg', 'Wg']);
    const edges = namedEdges(names, conflictGraph(classes, names));
    for (const e of ['R1-W1', 'W1-W1', 'R1-Wg', 'W2-Rg', 'Rg-Wg', 'Wg-Wg', 'W1-Wg']) expect(edges).toContain(e);
    for (const e of ['R1-R2', 'R1-Rg', 'R1-R1', 'R1-W2', 'W1-W2', 'Rg-Rg', 'R2-Rg']) expect(edges).not.toContain(e);
  });

  it('finds each class of a mapping by name, in any order; unknown classes have no edges', () => {
    const classes = shardedClasses(2);
    const names = ['Wg', 'X', 'R2', 'W2', 'R1'];
    const edges = namedEdges(names, conflictGraph(classes, names));
    expect(edges.sort()).toEqual(['R2-W2', 'W2-W2', 'Wg-R1', 'Wg-R2', 'Wg-W2', 'Wg-Wg']);
  });

  it('reads the mapping off a trace: multicast classes are sequential', () => {
    const s = synthesizeSmall({ requests: 300, seed: 2 });
    const m = inferMapping(
      loadTraceHere(s.buffer),
      shardedClasses(2).map((c) => c.name),
    );
    const wg = m.find((x) => x.class === 'Wg')!;
    expect(wg.sequential).toBe(true);
    expect(wg.threads).toEqual([0, 1, 2, 3]);
    const r1 = m.find((x) => x.class === 'R1')!;
    expect(r1.sequential).toBe(false);
    expect(r1.threads.every((t) => s.mapping[0].threads.includes(t))).toBe(true);
  });

  it("takes class names and conflicts from the report's classes", () => {
    const s = synthesizeSmall({ threads: 2, requests: 50, shards: 3, writes: 0, global: 0, execTicks: 1 });
    const classes = shardedClasses(3);
    const track = makeTrack('k', 'early', runOf('early'), loadTraceHere(s.buffer), classes);
    expect(track.classNames).toEqual(['R1', 'W1', 'R2', 'W2', 'R3', 'W3', 'Rg', 'Wg']);
    expect(track.classes).toBe(classes);
    // A trace with class ids past the report's table names them by id.
    const none = makeTrack('k', 'early', runOf('early'), loadTraceHere(s.buffer), []);
    expect(none.classNames).toEqual(['C0', 'C1', 'C2', 'C3', 'C4']);
  });
});

/** A synthetic early trace (2 threads, 2 shards, 60 requests) and its classes. */
function earlyTrace() {
  const s = synthesizeSmall({ threads: 2, requests: 60, writes: 0.5, global: 0.2, seed: 3, execTicks: 1 });
  return { model: loadTraceHere(s.buffer), classes: shardedClasses(2) };
}

describe('captions name a class as the report describes it', () => {
  it("says read or write, and which shard, from the engine's classes, not from the class name", () => {
    const { model, classes } = earlyTrace();
    const track = makeTrack('k', 'early', runOf('early'), model, classes);
    // The same trace with the report's class facts swapped: the caption follows the report.
    const swapped = classes.map((c) => ({ ...c, write: !c.write }));
    const other = makeTrack('k', 'early', runOf('early'), model, swapped);
    const seen = new Set<string>();
    for (let i = 0; i < model.length; i++) {
      const e = model.trace.event(i);
      if (e.kind !== KIND.Delivered) continue;
      const c = classes[e.b];
      const where = c.shard === undefined ? 'of every shard' : `on shard ${c.shard + 1}`;
      const said = caption(track, i + 1, model.stateAt(i + 1))?.text ?? '';
      expect(said).toContain(`${c.write ? 'a write' : 'a read'} ${where} (class ${c.name})`);
      const flipped = caption(other, i + 1, model.stateAt(i + 1))?.text ?? '';
      expect(flipped).toContain(`${c.write ? 'a read' : 'a write'} ${where} (class ${c.name})`);
      seen.add(c.name);
    }
    expect(seen.size).toBeGreaterThan(3);
  });
});

describe('early captions follow the mapping on an execution with no meeting', () => {
  it('never calls a class the mapping makes sequential concurrent', () => {
    const { model, classes } = earlyTrace();
    // Every class sequential on one thread: its executions (met or not) are no concurrent ones.
    const mapping = classes.map((c) => ({ class: c.name, sequential: true, threads: [0] }));
    const track = makeTrack('k', 'early', runOf('early', { mapping } as unknown as RunReport['info']), model, classes);
    let execs = 0;
    for (let i = 0; i < model.length; i++) {
      if (model.trace.event(i).kind !== KIND.ExecStart) continue;
      const said = caption(track, i + 1, model.stateAt(i + 1))?.text ?? '';
      expect(said).not.toContain('is concurrent');
      execs++;
    }
    expect(execs).toBeGreaterThan(10);
  });
});

describe('view registry', () => {
  it('offers synchronization and mapping views to the early and stealing families only', () => {
    expect(familyOf('busy-wait')).toBe('early');
    expect(familyOf('ws-optimistic')).toBe('work-stealing');
    const ids = (s: string[]) => viewsFor(s.map(familyOf)).map((v) => v.id);
    expect(ids(['early'])).toEqual(['threads', 'sync', 'mapping', 'charts']);
    expect(ids(['sequential'])).toEqual(['threads', 'charts']);
    expect(ids(['sequential', 'ws-moderate'])).toContain('sync');
  });
});

describe('threads view', () => {
  it('highlights the request an event is about', () => {
    const ev = (kind: number, a: number, b = 0, c = 0) => ({ t_ns: 0, thread: 0, kind, extra: 0, a, b, c });
    expect(focusRequest(ev(KIND.Enqueued, 7, 2))).toBe(7);
    expect(focusRequest(ev(KIND.SyncRelease, 3, 9, 1))).toBe(9);
    expect(focusRequest(ev(KIND.Steal, 1, 4, 12))).toBe(12);
    expect(focusRequest(ev(KIND.QueueLen, 1, 4))).toBe(-1);
    expect(focusRequest(null)).toBe(-1);
  });
});

describe('pseudo-code panel', () => {
  // Some families' listings are fetched on first need (a chunk of their own): fetch them all.
  beforeAll(() => loadAllPseudoCode());

  it('finds the listings the executor helpers export', () => {
    expect(codes.length).toBeGreaterThan(0);
    expect(codeFor('no-such-scheduler')).toBeNull();
  });

  it('turns trace events into the panel events the rules read', () => {
    const s = synthesizeSmall({ mode: 'busy-wait', seed: 4 });
    const model = loadTraceHere(s.buffer);
    const track = makeTrack(
      'k',
      'busy-wait',
      runOf('busy-wait', { mapping: s.mapping, mapping_how: '' }),
      model,
      shardedClasses(2),
    );
    for (let i = 0; i < model.length; i++) {
      const e = model.trace.event(i);
      const p = pseudoEvent(e, track);
      expect(p.thread).toBe(e.thread === SCHEDULER ? 'scheduler' : e.thread);
      if (e.kind === KIND.SyncRelease) {
        expect(p.executor).toBe(e.c);
        expect(p.fields).toEqual({ class: e.a, req: e.b, executor: e.c, cycle: p.cycle });
        expect(p.class).toBe(e.a);
        expect(p.req).toBe(e.b);
        expect(p.sequential).toBe(s.mapping[e.a].sequential);
      }
      if (e.kind === KIND.ExecStart) expect(p.class).toBe(model.index.reqClass[e.a]);
    }
  });

  it('puts every synthetic early-family event that has a rule on a line of its listing', () => {
    for (const [mode, id] of [
      ['early', 'early'],
      ['busy-wait', 'busy-wait'],
      ['ws', 'ws-conservative'],
    ] as const) {
      const code = codeFor(id);
      if (!code) continue; // the family's listing is not written yet
      const s = synthesizeSmall({ requests: 150, mode, seed: 6, skew: 0.8 });
      const model = loadTraceHere(s.buffer);
      const track = makeTrack('k', id, runOf(id, { mapping: s.mapping, mapping_how: '' }), model, shardedClasses(2));
      let placed = 0;
      for (let i = 0; i < model.length; i++) {
        const target = lineFor(code, pseudoEvent(model.trace.event(i), track));
        if (!target) continue;
        placed++;
        const listing = code.listings.find((l) => l.id === target.listing);
        expect(listing, `${id}: rule names listing ${target.listing}`).toBeDefined();
        expect(listing!.lines.some((l) => l.n === target.line)).toBe(true);
      }
      expect(placed).toBeGreaterThan(model.length / 2);
    }
  });
});
