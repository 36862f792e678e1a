import { describe, expect, it, vi } from 'vitest';
import type { BenchOptions, BenchOutcome, PollSnapshot } from '../engine/protocol';
import { createSweepStore, SWEEP_PROGRESS_MS, type BenchApi } from './store';

const REPORT = { scenario: 'demo', cores: 2, repetitions: 1, points: [] };

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
    const done = store.getState().start('{}', { threads: [1, 2], schedulers: ['early'] });
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
    await store.getState().start('{}', {});
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
    const done = store.getState().start('{}', {});
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
});
