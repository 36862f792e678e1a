import { describe, expect, it, vi } from 'vitest';
import type { BenchOptions, BenchOutcome, BenchPoint, BenchReport, PollSnapshot } from '../engine/protocol';
import { createSweepStore, SWEEP_PROGRESS_MS, type BenchApi } from './store';

const REPORT = { scenario: 'demo', cores: 2, repetitions: 1, points: [] };
/** One engine sweep, no warm-up: what the tests of a single sweep's life use. */
const ONE = { warmup: false, repetitions: 1 };

/** A report of one sweep: `early` on 1 thread at `ops` requests/s, sequential at 1000. */
function reportAt(ops: number, correct = true): BenchReport {
  const point = (scheduler: string, throughput: number, ok: boolean) =>
    ({
      scheduler,
      label: scheduler,
      threads: 1,
      writes: 0.1,
      throughput_ops_s: throughput,
      speedup_vs_sequential: throughput / 1000,
      scheduler_ns_per_request: 10,
      exec_us_per_request: 1,
      worker_wait_share: 0,
      latency_p99_us: 5,
      correct: ok,
      violation: ok ? null : 'r3 out of order',
      oversubscribed: false,
    }) as BenchPoint;
  return {
    scenario: 'demo',
    cores: 2,
    repetitions: 1,
    points: [point('sequential', 1000, true), point('early', ops, correct)],
  };
}

/** A fake engine whose bench resolves when the test says so. */
function fakeEngine() {
  let finish: (o: BenchOutcome) => void = () => {};
  let progress: ((p: PollSnapshot, t: number) => void) | undefined;
  const calls: BenchOptions[] = [];
  const api: BenchApi = {
    bench: (_text, options = {}, onProgress) => {
      calls.push(options);
      progress = onProgress;
      return new Promise<BenchOutcome>((r) => (finish = r));
    },
    cancel: vi.fn(async () => null),
  };
  return {
    api,
    calls,
    finish: (o: BenchOutcome) => finish(o),
    progress: (p: PollSnapshot, tMs = 250) => progress?.(p, tMs),
  };
}

describe('sweep store', () => {
  it('runs a sweep: running with progress, then done with the report', async () => {
    const e = fakeEngine();
    const store = createSweepStore(e.api);
    const done = store.getState().start('{}', { threads: [1, 2], schedulers: ['early'] }, ONE);
    expect(store.getState().phase).toBe('running');
    expect(e.calls).toEqual([{ threads: [1, 2], schedulers: ['early'] }]);
    const snapshot = {
      run_index: 0,
      runs_total: 1,
      scheduler: 'early',
      threads: 2,
      requests: 100,
      executed: 40,
      delivered: 50,
      elapsed_ms: 3,
    };
    e.progress({ running: true, done: false, snapshot });
    expect(store.getState().progress).toEqual(snapshot);
    expect(store.getState().elapsedMs).toBe(250);
    // Updates closer than SWEEP_PROGRESS_MS to the last one shown are not shown (no repaint).
    e.progress({ running: true, done: false, snapshot: { ...snapshot, executed: 60 } }, 250 + SWEEP_PROGRESS_MS - 1);
    expect(store.getState().progress?.executed).toBe(40);
    e.progress({ running: true, done: false, snapshot: { ...snapshot, executed: 80 } }, 250 + SWEEP_PROGRESS_MS);
    expect(store.getState().progress?.executed).toBe(80);
    expect(store.getState().elapsedMs).toBe(250 + SWEEP_PROGRESS_MS);
    // A second start while running is ignored.
    await store.getState().start('{}', {}, ONE);
    expect(e.calls).toHaveLength(1);
    e.finish({ ok: true, bench: REPORT });
    await done;
    expect(store.getState()).toMatchObject({ phase: 'done', report: REPORT, progress: null });
  });

  it('keeps the diagnostics of a refused sweep', async () => {
    const e = fakeEngine();
    const store = createSweepStore(e.api);
    const done = store.getState().start('{}', { threads: [99] });
    const diagnostics = [{ file: 'x.json', line: 1, col: 1, path: 'threads', message: '--threads 99: expected 1..=8' }];
    e.finish({ ok: false, diagnostics });
    await done;
    expect(store.getState()).toMatchObject({ phase: 'refused', diagnostics, report: null });
  });

  it('says cancelled (with the partial report) when the user cancelled', async () => {
    const e = fakeEngine();
    const store = createSweepStore(e.api);
    const done = store.getState().start('{}', {}, ONE);
    await store.getState().cancel();
    expect(e.api.cancel).toHaveBeenCalledTimes(1);
    e.finish({ ok: true, bench: REPORT });
    await done;
    expect(store.getState().phase).toBe('cancelled');
    expect(store.getState().report).toEqual(REPORT);
    // Cancel when nothing runs does not reach the engine.
    await store.getState().cancel();
    expect(e.api.cancel).toHaveBeenCalledTimes(1);
  });

  it('by default drops a warm-up sweep, then combines three: the median point with the spread', async () => {
    const e = fakeEngine();
    const store = createSweepStore(e.api);
    expect(store.getState().plan).toEqual({ warmup: true, repetitions: 3 });
    const done = store.getState().start('{}', { threads: [1] });
    // The warm-up's cold numbers (one worker "3x faster than sequential") are not kept.
    const sweeps = [reportAt(3000), reportAt(900), reportAt(1200), reportAt(1000, false)];
    for (const [k, r] of sweeps.entries()) {
      await vi.waitFor(() => expect(e.calls).toHaveLength(k + 1));
      expect(store.getState().repetition).toEqual({ k, n: 3 });
      e.finish({ ok: true, bench: r });
    }
    await done;
    expect(e.calls).toHaveLength(4);
    const s = store.getState();
    expect(s.phase).toBe('done');
    expect(s.repetition).toBeNull();
    expect(s.report?.repetitions).toBe(3);
    const early = s.report?.points.find((p) => p.scheduler === 'early');
    expect(early).toMatchObject({
      throughput_ops_s: 1000,
      speedup_vs_sequential: 1,
      spread: { min: 900, max: 1200, runs: 3 },
      // One wrong repetition makes the point wrong.
      correct: false,
      violation: 'r3 out of order',
    });
  });

  it('stops after the repetition a cancel came in, keeping the repetitions measured', async () => {
    const e = fakeEngine();
    const store = createSweepStore(e.api);
    const done = store.getState().start('{}', {}, { warmup: false, repetitions: 3 });
    e.finish({ ok: true, bench: reportAt(800) });
    await vi.waitFor(() => expect(e.calls).toHaveLength(2));
    await store.getState().cancel();
    e.finish({ ok: true, bench: reportAt(1000) });
    await done;
    expect(e.calls).toHaveLength(2);
    const s = store.getState();
    expect(s.phase).toBe('cancelled');
    expect(s.report?.points.find((p) => p.scheduler === 'early')?.spread).toEqual({ min: 800, max: 1000, runs: 2 });
  });

  it('reports an engine failure', async () => {
    const store = createSweepStore({
      bench: () => Promise.reject(new Error('a run is already in progress; cancel it first')),
      cancel: async () => null,
    });
    await store.getState().start('{}', {});
    expect(store.getState()).toMatchObject({ phase: 'failed', error: 'a run is already in progress; cancel it first' });
  });

  it('keeps thread picks sorted and unique', () => {
    const store = createSweepStore(fakeEngine().api);
    store.getState().pickThreads([4, 1, 2, 4]);
    expect(store.getState().threads).toEqual([1, 2, 4]);
  });

  it('sweeps the virtual-cores axis after the real one, once, and keeps its report apart', async () => {
    const e = fakeEngine();
    const store = createSweepStore(e.api);
    const done = store.getState().start('{}', { threads: [1], schedulers: ['early'] }, ONE, [4, 1, 16]);
    e.finish({ ok: true, bench: reportAt(2000) });
    await vi.waitFor(() => expect(e.calls).toHaveLength(2));
    expect(e.calls[1]).toEqual({ threads: [4, 1, 16], schedulers: ['early'], virtual_cores: 16 });
    expect(store.getState().sweepingVirtual).toBe(true);
    e.finish({ ok: true, bench: { ...reportAt(9000), mode: { virtual: { cores: 16 } } } as unknown as BenchReport });
    await done;
    const st = store.getState();
    expect(st.phase).toBe('done');
    expect(st.report?.points.find((p) => p.scheduler === 'early')?.throughput_ops_s).toBe(2000);
    expect(st.virtualReport?.points.find((p) => p.scheduler === 'early')?.throughput_ops_s).toBe(9000);
    expect(st.sweepingVirtual).toBe(false);
  });

  it('skips the real sweep when no thread count is picked (the virtual axis alone)', async () => {
    const e = fakeEngine();
    const store = createSweepStore(e.api);
    const done = store
      .getState()
      .start('{}', { threads: [], schedulers: ['early'] }, { warmup: true, repetitions: 3 }, [8]);
    await vi.waitFor(() => expect(e.calls).toHaveLength(1));
    expect(e.calls[0].virtual_cores).toBe(8);
    e.finish({ ok: true, bench: reportAt(9000) });
    await done;
    expect(store.getState().report).toBeNull();
    expect(store.getState().virtualReport).not.toBeNull();
  });
});
