import { describe, expect, it } from 'vitest';
import { AUX_BASE, decode, encode, KIND, KIND_CODES, REASON, SCHEDULER, type TraceEvent } from './codec';
import { analyze, buildCheckpoints, buildIndex, positionAtTime } from './index';
import { ReplayModel } from './model';
import { apply, emptyState, serialize, type ReplayState } from './state';
import { rng, synthesizeSmall } from './synth';

/** Random events over a few threads, requests and classes: any order, any kind. */
function randomTrace(seed: number, n: number, threads: number): ArrayBuffer {
  const r = rng(seed);
  const pick = (k: number) => Math.floor(r() * k);
  let t = 0;
  const events: TraceEvent[] = [];
  for (let i = 0; i < n; i++) {
    t += pick(1000);
    const kind = KIND_CODES[pick(KIND_CODES.length)];
    const thread = pick(threads + 1) === threads ? SCHEDULER : pick(threads);
    const extra = kind === KIND.WaitStart || kind === KIND.WaitEnd ? pick(8) : pick(2);
    const isThreadField = kind === KIND.Steal || kind === KIND.StealDone || kind === KIND.QueueLen;
    const a = isThreadField ? pick(threads) : pick(40);
    const b = kind === KIND.Enqueued ? pick(threads) : kind === KIND.Steal ? 1 + pick(4) : pick(40);
    const c = kind === KIND.SyncRelease ? pick(threads) : pick(40);
    events.push({ t_ns: t, thread, kind, extra, a, b, c });
  }
  return encode(events);
}

function fromStart(model: ReplayModel, p: number): ReplayState {
  const s = emptyState(model.index.threads);
  for (let i = 0; i < p; i++) apply(s, model.trace, i);
  return s;
}

function modelOf(buf: ArrayBuffer, stride?: number): ReplayModel {
  const trace = decode(buf);
  const index = buildIndex(trace);
  return new ReplayModel(trace, { index, checkpoints: buildCheckpoints(trace, index, stride) });
}

describe('replay reducer', () => {
  it('gives the same state seeking anywhere as replaying from the start (random traces)', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const m = modelOf(randomTrace(seed, 700, 1 + (seed % 5)), 16 + seed);
      const r = rng(seed * 31);
      for (let j = 0; j < 40; j++) {
        const p = Math.floor(r() * (m.length + 1));
        expect(serialize(m.stateAt(p))).toEqual(serialize(fromStart(m, p)));
      }
    }
  });

  it('steps forward then back to the same states (random walk)', () => {
    const m = modelOf(
      synthesizeSmall({ requests: 300, writes: 0.4, global: 0.15, mode: 'ws', seed: 9, execTicks: 3 }).buffer,
      32,
    );
    const seen = new Map<number, Float64Array>();
    const r = rng(5);
    let p = 0;
    for (let step = 0; step < 3000; step++) {
      const f = serialize(m.stateAt(p));
      const before = seen.get(p);
      if (before) expect(f).toEqual(before);
      else seen.set(p, f);
      const move = r() < 0.55 ? 1 : r() < 0.8 ? -1 : Math.floor(r() * 200) - 100;
      p = Math.max(0, Math.min(m.length, p + move));
    }
    expect(seen.size).toBeGreaterThan(100);
  });

  it('keeps a checkpoint every stride events and restores each exactly', () => {
    const m = modelOf(randomTrace(77, 1000, 3), 100);
    expect(m.checkpoints.offsets.length - 1).toBe(11); // positions 0, 100, ..., 1000
    for (let k = 0; k <= 10; k++) {
      const cp = m.checkpoint(k);
      expect(cp.position).toBe(k * 100);
      expect(serialize(cp)).toEqual(serialize(fromStart(m, k * 100)));
    }
  });

  it('follows a barrier: arrivals, release with its executor, waits', () => {
    const ev = (thread: number, kind: number, a = 0, b = 0, c = 0, extra = 0): TraceEvent => ({
      t_ns: 0,
      thread,
      kind,
      extra,
      a,
      b,
      c,
    });
    const buf = encode([
      ev(SCHEDULER, KIND.Delivered, 7, 3),
      ev(SCHEDULER, KIND.Enqueued, 7, 0),
      ev(SCHEDULER, KIND.Enqueued, 7, 1),
      ev(1, KIND.Dequeued, 7),
      ev(1, KIND.SyncArrive, 3, 7),
      ev(1, KIND.WaitStart, 7, 0, 0, REASON.Barrier),
      ev(0, KIND.Dequeued, 7),
      ev(0, KIND.SyncArrive, 3, 7),
      ev(0, KIND.SyncRelease, 3, 7, 0),
      ev(0, KIND.ExecStart, 7),
    ]);
    const m = modelOf(buf);
    const s3 = m.stateAt(3);
    expect(s3.lanes[0].queue).toEqual([7]);
    expect(s3.lanes[1].queue).toEqual([7]);
    const s6 = m.stateAt(6);
    expect(s6.syncs).toEqual([
      { cls: 3, req: 7, cycle: 0, arrived: [1], executor: -1, releasedAt: -1, executing: -1, executedBy: -1 },
    ]);
    expect(s6.lanes[1].current).toBe(7);
    expect(s6.lanes[1].waitReason).toBe(REASON.Barrier);
    const s10 = m.stateAt(10);
    expect(s10.syncs[0].arrived).toEqual([1, 0]);
    expect(s10.syncs[0].executor).toBe(0);
    expect(s10.lanes[0].exec).toBe(7);
    expect(s10.lanes[0].queue).toEqual([]);
  });

  it('moves stolen requests from the victim to the stealer until StealDone', () => {
    const ev = (thread: number, kind: number, a = 0, b = 0, c = 0): TraceEvent => ({
      t_ns: 0,
      thread,
      kind,
      extra: 0,
      a,
      b,
      c,
    });
    const buf = encode([
      ev(SCHEDULER, KIND.Enqueued, 1, 0),
      ev(SCHEDULER, KIND.Enqueued, 2, 0),
      ev(SCHEDULER, KIND.Enqueued, 3, 0),
      ev(0, KIND.Dequeued, 1),
      ev(1, KIND.Steal, 0, 2, 2),
      ev(1, KIND.ExecStart, 2),
      ev(1, KIND.ExecEnd, 2),
      ev(1, KIND.ExecStart, 3),
      ev(1, KIND.ExecEnd, 3),
      ev(1, KIND.StealDone, 0),
    ]);
    const m = modelOf(buf);
    const s5 = m.stateAt(5);
    expect(s5.lanes[0].queue).toEqual([]);
    expect(s5.lanes[1].stealVictim).toBe(0);
    expect(s5.lanes[1].stolen).toEqual([2, 3]);
    expect(m.stateAt(6).lanes[1].stolen).toEqual([3]);
    const end = m.stateAt(10);
    expect(end.lanes[1].stealVictim).toBe(-1);
    expect(end.lanes[1].executed).toBe(2);
  });
});

describe('trace index', () => {
  it('finds lanes, requests, classes and seeks by time', () => {
    const { events, buffer } = synthesizeSmall({ threads: 6, shards: 3, mode: 'busy-wait', seed: 3 });
    const a = analyze(decode(buffer));
    expect(a.index.threads).toBe(6);
    expect(a.index.requests).toBe(200);
    expect(a.index.events).toBe(events.length);
    expect(a.index.releases.length).toBeGreaterThan(0);
    for (const t of [0, 1e3, a.index.durationNs / 2, a.index.durationNs]) {
      const p = positionAtTime(a.index, t);
      if (p > 0) expect(a.index.tMaxNs[p - 1]).toBeLessThanOrEqual(t);
      if (p < events.length) expect(a.index.tMaxNs[p]).toBeGreaterThan(t);
    }
  });

  it('the simulator executes every request exactly once', () => {
    for (const mode of ['early', 'busy-wait', 'ws'] as const) {
      const { events } = synthesizeSmall({
        requests: 150,
        writes: 0.1,
        global: 0.05,
        mode,
        seed: 11,
        execTicks: 4,
        skew: 0.9,
      });
      const ends = events.filter((e) => e.kind === KIND.ExecEnd).map((e) => e.a);
      expect(new Set(ends).size).toBe(150);
      expect(ends.length).toBe(150);
      if (mode === 'ws') expect(events.some((e) => e.kind === KIND.Steal)).toBe(true);
    }
  });
});

describe('classes seen in the trace', () => {
  it('records which threads each class used and which classes were multicast', () => {
    const { buffer, mapping } = synthesizeSmall({ requests: 400, seed: 21 });
    const { index } = analyze(decode(buffer));
    for (let c = 0; c < index.classes; c++) {
      const used = [0, 1, 2, 3].filter((t) => index.classThreads[c * 4 + t] === 1);
      expect(used.every((t) => mapping[c].threads.includes(t))).toBe(true);
      if (index.classMulti[c] === 1) expect(mapping[c].sequential).toBe(true);
    }
    const wg = 2 * 2 + 1;
    expect(index.classMulti[wg]).toBe(1);
    expect(index.classMulti[0]).toBe(0);
  });
});

describe('sequential SMR', () => {
  it('shows the scheduler thread executing requests itself', () => {
    const ev = (kind: number, a: number): TraceEvent => ({ t_ns: 0, thread: SCHEDULER, kind, extra: 0, a, b: 0, c: 0 });
    const m = modelOf(
      encode([
        ev(KIND.Delivered, 0),
        ev(KIND.ExecStart, 0),
        ev(KIND.ExecEnd, 0),
        ev(KIND.Delivered, 1),
        ev(KIND.ExecStart, 1),
      ]),
    );
    expect(m.index.threads).toBe(0);
    expect(m.stateAt(2).scheduler.exec).toBe(0);
    expect(m.stateAt(3).scheduler).toMatchObject({ exec: -1, executed: 1 });
    expect(m.stateAt(5).scheduler).toMatchObject({ exec: 1, executed: 1 });
    expect(m.stateAt(5).executedTotal).toBe(1);
  });
});

describe('auxiliary roles', () => {
  it('a tracker or partitioner lane (AUX_BASE + k) is not a worker lane', () => {
    const trace = decode(
      encode([
        { t_ns: 1, thread: SCHEDULER, kind: KIND.Delivered, extra: 0, a: 0, b: 0, c: 0 },
        { t_ns: 2, thread: 1, kind: KIND.ExecStart, extra: 0, a: 0, b: 0, c: 0 },
        { t_ns: 3, thread: AUX_BASE + 1, kind: KIND.Partitioned, extra: 0, a: 1, b: 5, c: 9 },
      ]),
    );
    const index = buildIndex(trace);
    expect(index.threads).toBe(2);
    const s = emptyState(index.threads);
    for (let i = 0; i < trace.length; i++) apply(s, trace, i);
    expect(s.position).toBe(3);
  });
});
