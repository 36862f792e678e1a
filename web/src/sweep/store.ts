/**
 * The Sweep panel's state: the user's choices (kept while switching tabs)
 * and the last sweep with its progress. Only `start` and `cancel` talk to
 * the engine, through the bridge's `bench` (one job at a time in the
 * engine: a sweep and a scenario run cannot overlap).
 *
 * Phases: idle -> running -> done | cancelled | refused | failed -> running ...
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { EngineBridge } from '../engine/bridge';
import type { BenchOptions, BenchReport, Diagnostic, RunSnapshot } from '../engine/protocol';
import { combineRepetitions, DEFAULT_PLAN, type SweepPlan, type SweepReport } from './model';

/**
 * Least time between two progress updates of a running sweep (ms). The
 * engine reports every POLL_INTERVAL_MS (100 ms); a sweep is a measurement,
 * so the page repaints its progress once a second instead.
 */
export const SWEEP_PROGRESS_MS = 1000;

export type BenchApi = Pick<EngineBridge, 'bench' | 'cancel'>;

export type SweepPhase = 'idle' | 'running' | 'done' | 'cancelled' | 'refused' | 'failed';

/** The executors picked for one scenario file (a new file starts from all of its executors). */
export interface ExecutorPick {
  file: string;
  labels: string[];
}

export interface SweepState {
  executors: ExecutorPick | null;
  /** Thread counts picked; null until the user changes the default. */
  threads: number[] | null;
  /** Write shares as typed (empty: the scenario's). */
  sharesText: string;
  /** Requests per stream as typed (empty: the scenario's). */
  requestsText: string;
  /** Warm-up and repetitions of the next sweep. */
  plan: SweepPlan;
  /** Virtual core counts picked (the model's axis; empty: none). */
  virtualCores: number[];

  phase: SweepPhase;
  /** The repetitions measured so far, combined (median point, spread). */
  report: SweepReport | null;
  /**
   * The sweep on virtual cores (a model's numbers, kept apart from
   * `report`): one repetition, since a virtual run is deterministic.
   */
  virtualReport: SweepReport | null;
  /** The engine is sweeping the virtual-cores axis now. */
  sweepingVirtual: boolean;
  /** What the engine is sweeping now: the warm-up (0) or repetition k of n (1-based). */
  repetition: { k: number; n: number } | null;
  diagnostics: Diagnostic[];
  error: string | null;
  progress: RunSnapshot | null;
  /** Time since the sweep started, from the last progress message. */
  elapsedMs: number;
  cancelRequested: boolean;

  pickExecutors(pick: ExecutorPick): void;
  pickThreads(threads: number[]): void;
  setSharesText(text: string): void;
  setRequestsText(text: string): void;
  setPlan(plan: SweepPlan): void;
  pickVirtualCores(cores: number[]): void;
  /**
   * Sweep `text`: the plan's warm-up (its numbers dropped), then its
   * repetitions, one engine sweep each with the same `options` (a later axis
   * of the sweep belongs in `options`). Then, if `virtualCores` lists any,
   * one sweep of those virtual core counts (no warm-up, one repetition: a
   * virtual run gives the same numbers every time). An empty `options.threads`
   * (not an absent one) skips the real sweep.
   */
  start(text: string, options: BenchOptions, plan?: SweepPlan, virtualCores?: number[]): Promise<void>;
  cancel(): Promise<void>;
}

export type SweepStore = StoreApi<SweepState>;

/** The figures of a sweep before its first progress message (and before any sweep). */
function noSweepYet(): Pick<
  SweepState,
  | 'report'
  | 'virtualReport'
  | 'sweepingVirtual'
  | 'repetition'
  | 'diagnostics'
  | 'error'
  | 'progress'
  | 'elapsedMs'
  | 'cancelRequested'
> {
  return {
    report: null,
    virtualReport: null,
    sweepingVirtual: false,
    repetition: null,
    diagnostics: [],
    error: null,
    progress: null,
    elapsedMs: 0,
    cancelRequested: false,
  };
}

export function createSweepStore(engine: BenchApi): SweepStore {
  return createStore<SweepState>()((set, get) => ({
    executors: null,
    threads: null,
    sharesText: '',
    requestsText: '',
    plan: DEFAULT_PLAN,
    virtualCores: [],
    phase: 'idle',
    ...noSweepYet(),

    pickExecutors: (executors) => set({ executors }),
    pickThreads: (threads) => set({ threads: [...new Set(threads)].sort((a, b) => a - b) }),
    setSharesText: (sharesText) => set({ sharesText }),
    setRequestsText: (requestsText) => set({ requestsText }),
    setPlan: (plan) => set({ plan }),
    pickVirtualCores: (cores) => set({ virtualCores: [...new Set(cores)].sort((a, b) => a - b) }),

    async start(text, options, plan = get().plan, virtualCores = get().virtualCores) {
      if (get().phase === 'running') return;
      set({ phase: 'running', ...noSweepYet() });
      const n = Math.max(1, Math.floor(plan.repetitions));
      const measured: BenchReport[] = [];
      // Show progress at most every SWEEP_PROGRESS_MS: each update repaints
      // the page, and the browser's paint and compositor threads then take
      // CPU from the very cores the sweep measures (docs/benchmarks/wasm.md).
      const bench = (opts: BenchOptions) => {
        let shownAt = -Infinity;
        return engine.bench(text, opts, (poll, tMs) => {
          if (tMs - shownAt < SWEEP_PROGRESS_MS) return;
          shownAt = tMs;
          set((s) => ({ progress: poll.snapshot ?? s.progress, elapsedMs: tMs }));
        });
      };
      // No `threads`: the engine's default list; an empty list: no real sweep.
      const real = options.threads === undefined || options.threads.length > 0;
      try {
        for (let k = plan.warmup ? 0 : 1; real && k <= n; k++) {
          set({ repetition: { k, n } });
          const outcome = await bench(options);
          if (!outcome.ok) {
            set({ phase: 'refused', diagnostics: outcome.diagnostics, progress: null, repetition: null });
            return;
          }
          // The warm-up's numbers are dropped (a cancelled warm-up measured nothing worth showing).
          if (k > 0) measured.push(outcome.bench);
          set({ report: combineRepetitions(measured) });
          if (get().cancelRequested) break;
        }
        if (virtualCores.length > 0 && !get().cancelRequested) {
          set({ repetition: null, sweepingVirtual: true });
          const outcome = await bench({
            ...options,
            threads: virtualCores,
            virtual_cores: Math.max(...virtualCores),
          });
          if (!outcome.ok) {
            set({ phase: 'refused', diagnostics: outcome.diagnostics, progress: null, sweepingVirtual: false });
            return;
          }
          set({ virtualReport: combineRepetitions([outcome.bench]), sweepingVirtual: false });
        }
        set({ phase: get().cancelRequested ? 'cancelled' : 'done', progress: null, repetition: null });
      } catch (e) {
        set({
          phase: 'failed',
          error: e instanceof Error ? e.message : String(e),
          progress: null,
          repetition: null,
          sweepingVirtual: false,
        });
      }
    },

    async cancel() {
      if (get().phase !== 'running') return;
      set({ cancelRequested: true });
      await engine.cancel();
    },
  }));
}
