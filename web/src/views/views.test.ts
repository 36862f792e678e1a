import { describe, expect, it } from 'vitest';
import { KIND, SCHEDULER } from '../trace/codec';
import { loadTraceHere } from '../trace/load';
import { synthesize } from '../trace/synth';
import { conflicts, inferMapping, shardedNames } from './classes';
import { codeFor, codes, pseudoEvent } from './pseudocode/PseudoPanel';
import { lineFor } from './pseudocode/types';
import './families';
import { familyOf, viewsFor } from './registry';
import { focusRequest } from './threads/draw';
import { makeTrack, shardsOf } from './tracks';
import './builtin';

describe('classes', () => {
  it('names the sharded classes as the engine numbers them', () => {
    expect(shardedNames(6)).toEqual(['R1', 'W1', 'R2', 'W2', 'Rg', 'Wg']);
    expect(shardedNames(3)).toEqual(['C0', 'C1', 'C2']);
  });

  it('follows the read/write conflict definition (reads never conflict with reads)', () => {
    expect(conflicts('R1', 'R2')).toBe(false);
    expect(conflicts('R1', 'Rg')).toBe(false);
    expect(conflicts('R1', 'W1')).toBe(true);
    expect(conflicts('R1', 'W2')).toBe(false);
    expect(conflicts('W1', 'W1')).toBe(true);
    expect(conflicts('Wg', 'R2')).toBe(true);
    expect(conflicts('Rg', 'W2')).toBe(true);
    expect(conflicts('X', 'W1')).toBeNull();
  });

  it('reads the mapping off a trace: multicast classes are sequential', () => {
    const s = synthesize({
      threads: 4,
      requests: 300,
      shards: 2,
      writes: 0.3,
      global: 0.1,
      mode: 'early',
      seed: 2,
      execTicks: 2,
    });
    const m = inferMapping(loadTraceHere(s.buffer), shardedNames(6));
    const wg = m.find((x) => x.class === 'Wg')!;
    expect(wg.sequential).toBe(true);
    expect(wg.threads).toEqual([0, 1, 2, 3]);
    const r1 = m.find((x) => x.class === 'R1')!;
    expect(r1.sequential).toBe(false);
    expect(r1.threads.every((t) => s.mapping[0].threads.includes(t))).toBe(true);
  });

  it('takes class names from the scenario shard count', () => {
    expect(shardsOf('{"app": {"kind": "spin", "shards": 3}}')).toBe(3);
    expect(shardsOf('not json')).toBeUndefined();
    const s = synthesize({
      threads: 2,
      requests: 50,
      shards: 3,
      writes: 0,
      global: 0,
      mode: 'early',
      seed: 1,
      execTicks: 1,
    });
    const track = makeTrack('k', 'early', { scheduler: 'early', threads: 2 }, loadTraceHere(s.buffer), 3);
    expect(track.classNames).toEqual(['R1', 'W1', 'R2', 'W2', 'R3', 'W3', 'Rg', 'Wg']);
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
  it('finds the listings the executor helpers export', () => {
    expect(codes.length).toBeGreaterThan(0);
    expect(codeFor('no-such-scheduler')).toBeNull();
  });

  it('turns trace events into the panel events the rules read', () => {
    const s = synthesize({
      threads: 4,
      requests: 200,
      shards: 2,
      writes: 0.3,
      global: 0.1,
      mode: 'busy-wait',
      seed: 4,
      execTicks: 2,
    });
    const model = loadTraceHere(s.buffer);
    const track = makeTrack(
      'k',
      'busy-wait',
      { scheduler: 'busy-wait', threads: 4, info: { mapping: s.mapping } },
      model,
    );
    for (let i = 0; i < model.length; i++) {
      const e = model.trace.event(i);
      const p = pseudoEvent(e, track);
      expect(p.thread).toBe(e.thread === SCHEDULER ? 'scheduler' : e.thread);
      if (e.kind === KIND.SyncRelease) {
        expect(p.executor).toBe(e.c);
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
      const s = synthesize({
        threads: 4,
        requests: 150,
        shards: 2,
        writes: 0.3,
        global: 0.1,
        mode,
        seed: 6,
        execTicks: 2,
        skew: 0.8,
      });
      const model = loadTraceHere(s.buffer);
      const track = makeTrack('k', id, { scheduler: id, threads: 4, info: { mapping: s.mapping } }, model);
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
