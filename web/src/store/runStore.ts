/**
 * The run store: scenario text, engine status, the run in progress with its
 * live series, the last report and its diagnostics. Views read it through
 * `useRun`; only the actions here talk to the engine.
 *
 * State machine of `phase`:
 *   idle -> running -> done | cancelled | refused | failed -> running ...
 * `refused` means the engine rejected the scenario (see `diagnostics`);
 * `failed` means the engine itself failed (see `error`).
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { EngineBridge } from '../engine/bridge';
import type { Diagnostic, PollSnapshot, ReadyInfo, Report, RunOptions, RunSnapshot } from '../engine/protocol';
import { addPoll, type LiveSeries } from './series';
import { listScenarios, type ScenarioEntry } from './scenarios';

/** What the store needs from the engine (the bridge, or a fake in tests). */
export type EngineApi = Pick<EngineBridge, 'ready' | 'validate' | 'run' | 'cancel' | 'setPaused' | 'trace'>;

export type EngineStatus =
  { state: 'starting' } | { state: 'ready'; info: ReadyInfo } | { state: 'failed'; error: string };

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
  report: Report | null;
  /**
   * The report before the current one (kept when a new run starts), so the
   * classroom can compare a what-if run with the run it changed.
   */
  previous: { report: Report; serial: number; text: string } | null;
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

  startEngine(): Promise<void>;
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

export function createRunStore(engine: EngineApi, scenarios: ScenarioEntry[] = listScenarios()): RunStore {
  const first = scenarios[0];
  return createStore<RunState>()((set, get) => ({
    engine: { state: 'starting' },
    scenarios,
    selected: first?.file ?? '',
    file: first?.file ?? 'scenario.json',
    text: first?.text ?? '',
    phase: 'idle',
    diagnostics: [],
    report: null,
    previous: null,
    error: null,
    progress: null,
    prevProgress: null,
    live: [],
    runSerial: 0,
    cancelRequested: false,
    paused: false,

    async startEngine() {
      try {
        const info = await engine.ready();
        set({ engine: { state: 'ready', info } });
      } catch (e) {
        set({ engine: { state: 'failed', error: message(e) } });
      }
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
        progress: null,
        prevProgress: null,
        live: [],
        runSerial: get().runSerial + 1,
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
      try {
        const outcome = await engine.run(get().text, { file: get().file, ...options }, onProgress);
        if (outcome.ok) {
          // Cancelled: a run stopped early, or the cancel came before the
          // first run (then the report has fewer runs, none cancelled).
          const cancelled = get().cancelRequested || outcome.report.runs.some((r) => r.cancelled);
          set({ phase: cancelled ? 'cancelled' : 'done', report: outcome.report });
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
      await engine.cancel();
    },

    async setPaused(paused) {
      if (get().phase !== 'running') return;
      set({ paused });
      await engine.setPaused(paused);
    },

    fetchTrace(runIndex) {
      return engine.trace(runIndex);
    },
  }));
}
