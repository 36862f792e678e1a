/**
 * The run store: scenario text, engine status, the run in progress with its
 * live series, the last report and its diagnostics. Views read it through
 * `useRun`; only the actions here talk to the engine.
 *
 * State machine of `phase`:
 *   idle -> running -> done | cancelled | refused | failed -> running ...
 * `refused` means the engine rejected the scenario (see `diagnostics`);
 * `failed` means the engine itself failed, or could not start (see `error`).
 *
 * State machine of `engine`: idle -> starting -> ready | failed -> starting ...
 * The engine starts on first need (`startEngine`; `run` calls it); while a
 * run waits for it, `phase` is already `running` and the engine `starting`.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { RanOn } from '../engine/host';
import { packageFor, type EnginePackage } from '../engine/packages';
import type { Diagnostic, PollSnapshot, ReadyInfo, RunOptions, RunOutcome, RunSnapshot } from '../engine/protocol';
import type { LabReport } from '../engine/virtualCores';
import { addPoll, type LiveSeries } from './series';
import { listScenarios, type ScenarioEntry } from './scenarios';

/**
 * What the store needs from the engine (the engine host, engine/host.ts, or
 * a fake in tests). `stop`, if given, throws away an engine that failed to
 * start, so the next `ready` starts a fresh one (a new worker, the wasm
 * fetched again).
 */
export interface EngineApi {
  /** Start an engine whose package covers `wanted` (engine/packages.ts; null: any). */
  ready(wanted?: EnginePackage | null): Promise<ReadyInfo>;
  validate(text: string, file?: string): Promise<Diagnostic[]>;
  /** A run; `ran` says which worker ran it (the host sets it; its traces live there). */
  run(
    text: string,
    options?: RunOptions,
    onProgress?: (poll: PollSnapshot, tMs: number) => void,
  ): Promise<RunOutcome & { ran?: RanOn }>;
  cancel(): Promise<null>;
  setPaused(paused: boolean): Promise<null>;
  /** Run `runIndex`'s trace of the last report of the worker `ran` named (undefined: no such report). */
  trace(runIndex: number, ran?: number): Promise<ArrayBuffer>;
  stop?: () => void;
}

/**
 * The engine's life: `idle` until something needs it (the first run, a
 * lesson, the Author or Sweep tab, a link with a moment, or a click on the
 * header badge); nothing of it (worker, wasm, pool) is fetched before.
 */
export type EngineStatus =
  { state: 'idle' } | { state: 'starting' } | { state: 'ready'; info: ReadyInfo } | { state: 'failed'; error: string };

/**
 * How long the engine may take to start (download, compile, thread pool)
 * before the store calls it failed: a pool worker that never comes up
 * would otherwise leave "starting the engine…" on screen forever. Generous,
 * for a slow link and a loaded 2-core machine (the pool starts in well under
 * a second on a quiet one).
 */
export const ENGINE_START_TIMEOUT_MS = 90_000;

export interface RunStoreOptions {
  /** See {@link ENGINE_START_TIMEOUT_MS}. */
  engineStartTimeoutMs?: number;
}

export type Phase = 'idle' | 'running' | 'done' | 'cancelled' | 'refused' | 'failed';

export interface RunState {
  engine: EngineStatus;
  scenarios: ScenarioEntry[];
  /** File name of the picked scenario (the text may have been edited since). */
  selected: string;
  /** File name reported in diagnostics for the current text. */
  file: string;
  text: string;
  phase: Phase;
  diagnostics: Diagnostic[];
  /** The last report; a run on virtual cores carries its model (engine/virtualCores.ts). */
  report: LabReport | null;
  /** The id the engine keeps `report` under (Check judges reports by it); null with no report. */
  reportId: number | null;
  /**
   * The engine package and worker that ran `report` (null with no report):
   * its traces, workload graph and kept report live in that worker only.
   */
  reportRan: RanOn | null;
  /**
   * The report before the current one (kept when a new run starts), so the
   * classroom can compare a what-if run with the run it changed (never a
   * virtual run with a real one: see `sameKind`).
   */
  previous: { report: LabReport; serial: number; text: string } | null;
  /** Virtual cores of the run in progress or last started (null: real threads). */
  runVirtualCores: number | null;
  error: string | null;
  progress: RunSnapshot | null;
  /** The snapshot before `progress` (per-thread rates between two polls). */
  prevProgress: RunSnapshot | null;
  live: LiveSeries[];
  /** Increments with every run started (views can reset on change). */
  runSerial: number;
  /** Cancel was pressed during the current run. */
  cancelRequested: boolean;
  /** Delivery is held back (Pause pressed during the current run). */
  paused: boolean;

  /**
   * Start the engine if it is not up (idempotent: one start at a time; after
   * a failure, a new attempt). Resolves true once it is ready, false if it
   * failed (`engine.error` says why). The first start loads the package
   * `wanted` names (default: the one the current text needs); once one is
   * up, requests switch package as they need (engine/host.ts).
   */
  startEngine(wanted?: EnginePackage | null): Promise<boolean>;
  selectScenario(file: string): void;
  setText(text: string, file?: string): void;
  /** Open a scenario from a link: its text, as `shared.json`, no shipped file selected. */
  loadShared(text: string): void;
  validate(): Promise<Diagnostic[]>;
  run(options?: RunOptions): Promise<void>;
  cancel(): Promise<void>;
  /** Pause or resume the current run (no-op when none is going on). */
  setPaused(paused: boolean): Promise<void>;
  /** The packed trace (24-byte events) of run `runIndex` of the last report. */
  fetchTrace(runIndex: number): Promise<ArrayBuffer>;
}

export type RunStore = StoreApi<RunState>;

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function engineError(s: RunState): string {
  return s.engine.state === 'failed' ? s.engine.error : 'unknown error';
}

/** `p`, or a rejection with `what` after `ms`. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export function createRunStore(
  engine: EngineApi,
  scenarios: ScenarioEntry[] = listScenarios(),
  options: RunStoreOptions = {},
): RunStore {
  const first = scenarios[0];
  const startTimeoutMs = options.engineStartTimeoutMs ?? ENGINE_START_TIMEOUT_MS;
  /** The start in progress, shared by every caller that needs the engine meanwhile. */
  let starting: Promise<boolean> | null = null;
  return createStore<RunState>()((set, get) => ({
    engine: { state: 'idle' },
    scenarios,
    selected: first?.file ?? '',
    file: first?.file ?? 'scenario.json',
    text: first?.text ?? '',
    phase: 'idle',
    diagnostics: [],
    report: null,
    reportId: null,
    reportRan: null,
    previous: null,
    runVirtualCores: null,
    error: null,
    progress: null,
    prevProgress: null,
    live: [],
    runSerial: 0,
    cancelRequested: false,
    paused: false,

    startEngine(wanted = packageFor(get().text)) {
      if (get().engine.state === 'ready') return Promise.resolve(true);
      starting ??= (async () => {
        set({ engine: { state: 'starting' } });
        try {
          const info = await within(
            engine.ready(wanted),
            startTimeoutMs,
            `no answer within ${startTimeoutMs / 1000} s`,
          );
          set({ engine: { state: 'ready', info } });
          return true;
        } catch (e) {
          // A half-started engine is dropped: the next need starts a fresh one.
          engine.stop?.();
          set({ engine: { state: 'failed', error: message(e) } });
          return false;
        } finally {
          starting = null;
        }
      })();
      return starting;
    },

    selectScenario(file) {
      const entry = get().scenarios.find((s) => s.file === file);
      if (!entry) return;
      set({ selected: entry.file, file: entry.file, text: entry.text, diagnostics: [] });
    },

    setText(text, file) {
      set({ text, ...(file ? { file } : {}) });
    },

    loadShared(text) {
      set({ text, file: 'shared.json', selected: '', diagnostics: [] });
    },

    async validate() {
      if (!(await get().startEngine())) throw new Error(`the engine could not start: ${engineError(get())}`);
      const diagnostics = await engine.validate(get().text, get().file);
      set({ diagnostics });
      return diagnostics;
    },

    async run(options = {}) {
      if (get().phase === 'running') return;
      const last = get().report;
      set({
        previous: last ? { report: last, serial: get().runSerial, text: get().text } : get().previous,
        phase: 'running',
        diagnostics: [],
        error: null,
        report: null,
        reportId: null,
        reportRan: null,
        progress: null,
        prevProgress: null,
        live: [],
        runSerial: get().runSerial + 1,
        runVirtualCores: options.virtual_cores ?? null,
        cancelRequested: false,
        paused: false,
      });
      const onProgress = (poll: PollSnapshot) => {
        set((s) => ({
          progress: poll.snapshot ?? s.progress,
          prevProgress: poll.snapshot ? s.progress : s.prevProgress,
          live: addPoll(s.live, poll),
        }));
      };
      // The first run starts the engine (RunPhase says "starting the engine…" meanwhile).
      if (get().engine.state !== 'ready') {
        // The first start loads the package this run needs (its scenario's family), not the full engine.
        if (!(await get().startEngine(packageFor(get().text, options.schedulers ?? [])))) {
          set({ phase: 'failed', error: `the engine could not start: ${engineError(get())}` });
          return;
        }
        if (get().cancelRequested) {
          set({ phase: 'cancelled' });
          return;
        }
      }
      try {
        const outcome = await engine.run(get().text, { file: get().file, ...options }, onProgress);
        if (outcome.ok) {
          // Cancelled: a run stopped early, or the cancel came before the
          // first run (then the report has fewer runs, none cancelled).
          const cancelled = get().cancelRequested || outcome.report.runs.some((r) => r.cancelled);
          const report: LabReport = outcome.virtual_run
            ? { ...outcome.report, virtual_run: outcome.virtual_run }
            : outcome.report;
          set({
            phase: cancelled ? 'cancelled' : 'done',
            report,
            reportId: outcome.report_id,
            reportRan: outcome.ran ?? null,
          });
        } else {
          set({ phase: 'refused', diagnostics: outcome.diagnostics });
        }
      } catch (e) {
        set({ phase: 'failed', error: message(e) });
      }
    },

    async cancel() {
      if (get().phase !== 'running') return;
      set({ cancelRequested: true, paused: false });
      // Still starting: the run will not begin (see `run`).
      if (get().engine.state === 'ready') await engine.cancel();
    },

    async setPaused(paused) {
      if (get().phase !== 'running' || get().engine.state !== 'ready') return;
      set({ paused });
      await engine.setPaused(paused);
    },

    fetchTrace(runIndex) {
      return engine.trace(runIndex, get().reportRan?.generation);
    },
  }));
}
