/**
 * Messages between the page and the engine worker, and the JSON shapes the
 * wasm engine returns. Every request carries an `id`; the worker answers
 * each request exactly once with a `reply` of the same id, and may send any
 * number of `progress` messages for a `run` request before its reply.
 *
 * The report, the live snapshot and the bench report are the engine's own
 * types, generated from its contract (`contract.gen.ts`); only the messages
 * and the options the page builds are declared here.
 */
import type { EnginePackage } from './packages';
import type {
  BenchReport,
  Delivery,
  Diagnostic,
  ExpectationResult,
  MonitorSnapshot,
  Report,
  Violation,
} from './contract.gen';
import type { VirtualRun } from './virtualCores';

export type {
  BenchPoint,
  BenchReport,
  BenchStream,
  CellName,
  ClassAssignment,
  ClassInfo,
  Delivery,
  Diagnostic,
  ExpectationResult,
  Family,
  LatencyUs,
  LiveSample,
  LiveState,
  MonitorSnapshot,
  Report,
  RoleLane,
  RunMetrics,
  RunReport,
  SccHistogram,
  SchedulerInfo,
  StreamInfo,
  ThreadTimes,
  ThroughputPoint,
  TraceWindow,
  U64,
  Violation,
} from './contract.gen';

/** Browser run limits reported by the engine (`Limits::browser()`). */
export interface EngineLimits {
  max_threads: number;
  /** Most auxiliary threads of one run (the pool holds them too). */
  max_roles: number;
  [key: string]: unknown;
}

/** What the worker reports once the engine and its thread pool are up. */
export interface ReadyInfo {
  poolThreads: number;
  hardwareConcurrency: number;
  crossOriginIsolated: boolean;
  version: string;
  features: string[];
  limits: EngineLimits;
  initMs: number;
  /**
   * The engine package this worker loaded (issue 30: one family's, or the
   * full engine). It is `asked` unless that family's package is not in this
   * build (made without `build-wasm.sh --families`): then `full`.
   */
  package: EnginePackage;
  /** The package the page asked for. */
  asked: EnginePackage;
}

/** One `poll()` of a running scenario. */
export interface PollSnapshot {
  running: boolean;
  done: boolean;
  snapshot: RunSnapshot | null;
  /** Set once an engine thread panicked: the run will never finish. */
  panic?: string;
}

/**
 * Live figures of the run in progress: the engine's `MonitorSnapshot`
 * flattened with the run's shape. Its `workers` are each worker thread of
 * the run in progress, sampled at the poll (named `workers`, not `threads`,
 * because `threads` is the worker count here).
 */
export interface RunSnapshot extends MonitorSnapshot {
  /** Worker threads of each run. */
  threads: number;
  /** Requests in the stream. */
  requests: number;
  /** An exploration's schedules tried so far (found correct) and its budget. */
  explore?: { tried: number; budget: number };
}

/** Options for `run` (passed to the engine as JSON). */
export interface RunOptions {
  /** File name used in diagnostics. */
  file?: string;
  /** `navigator.hardwareConcurrency`, reported as the report's `cores` (the worker fills it in). */
  cores?: number;
  /** Scheduler labels or ids to run, in order (default: all of the scenario's). */
  schedulers?: string[];
  threads?: number;
  requests?: number;
  seed?: number;
  /** Record a trace for the views (default: the scenario's setting). */
  trace?: boolean;
  pace_ns?: number;
  /**
   * Extra busy time per executed request for each worker thread (index =
   * thread id), replacing `pace_ns` for those threads, to slow one thread
   * down in a what-if. The engine advertises it with the `thread-pace`
   * feature in `ReadyInfo.features`.
   */
  thread_pace_ns?: number[];
  /** Another delivery model than the scenario's. */
  delivery?: Delivery;
  /**
   * Run on this many virtual cores (worker threads, replacing `threads`),
   * one at a time in virtual time under the reference cost table: a
   * model's numbers (engine/virtualCores.ts). Absent: real threads.
   */
  virtual_cores?: number;
  /**
   * Replay this schedule: a token of an exploration (`psmr explore`, the
   * classroom's break-it mode). It fixes the seed and the virtual cores, so
   * the run is the explored one, event for event.
   */
  schedule?: string;
}

/**
 * Options for `explore` (psmr-scenario `ExploreOptions`): one scheduler of
 * the scenario, its fault, on virtual cores, schedule after schedule until
 * the oracle reports a violation or the budget is spent.
 */
export interface ExploreOptions {
  /** Scheduler label or id. */
  scheduler: string;
  /** The broken variant to select (catalog `faults`); needs the fault-injection build. */
  fault?: string;
  /** Most schedules to try (default 200). */
  schedules?: number;
  /** Virtual cores (default: the scenario's threads). */
  cores?: number;
  requests?: number;
  seed?: number;
  explore_seed?: number;
}

/** The violating schedule an exploration found (psmr-scenario `Found`). */
export interface ExploreFound {
  /** Index of the schedule (0 = earliest clock). */
  schedule: number;
  /** Its replay token (`RunOptions.schedule`). */
  token: string;
  violation: string;
  detail?: Violation | null;
  trace_digest: string;
}

/** What an exploration did (psmr-scenario `Explored`). */
export interface Explored {
  cores: number;
  seed: number;
  /** Schedules run, the violating one included. */
  schedules: number;
  horizon: number;
  /** Stopped (cancelled) before the budget without a find. */
  stopped: boolean;
  found: ExploreFound | null;
}

export type ExploreOutcome = { ok: true; explore: Explored } | { ok: false; diagnostics: Diagnostic[] };

/** How many runs a check needs, or why the scenario cannot be checked. */
export type CheckPlan = { ok: true; repetitions: number } | { ok: false; diagnostics: Diagnostic[] };

/** Options for `bench` (a sweep of thread counts x write shares, traces off). */
export interface BenchOptions {
  file?: string;
  cores?: number;
  /** Thread counts (default: powers of two up to the scenario's threads). */
  threads?: number[];
  /** Write shares between 0 and 1 (default: the scenario's). */
  writes?: number[];
  schedulers?: string[];
  requests?: number;
  /**
   * Sweep virtual cores instead of threads (`threads` then lists virtual
   * core counts, each point one worker per virtual core), up to this many:
   * every point, the sequential baseline included, is a model's number
   * with its `mode_label` (engine/virtualCores.ts).
   */
  virtual_cores?: number;
}

export type BenchOutcome = { ok: true; bench: BenchReport } | { ok: false; diagnostics: Diagnostic[] };

export type Request =
  /** Load `package` (default: the full engine) and start its thread pool; once per worker. */
  | { id: number; type: 'init'; package?: EnginePackage }
  | { id: number; type: 'validate'; text: string; file?: string }
  | { id: number; type: 'run'; text: string; options: RunOptions }
  | { id: number; type: 'bench'; text: string; options: BenchOptions }
  | { id: number; type: 'explore'; text: string; options: ExploreOptions }
  | { id: number; type: 'cancel' }
  | { id: number; type: 'pause'; paused: boolean }
  | { id: number; type: 'trace'; runIndex: number }
  | { id: number; type: 'workloadGraph' }
  | { id: number; type: 'checkPlan'; text: string; file?: string }
  | { id: number; type: 'evaluate'; text: string; reportIds: number[]; file?: string };

/** The result type of each request kind. */
export interface ResultOf {
  init: ReadyInfo;
  validate: Diagnostic[];
  run: RunOutcome;
  bench: BenchOutcome;
  explore: ExploreOutcome;
  cancel: null;
  pause: null;
  trace: ArrayBuffer;
  /** The last report's workload graph (repartitioning view; shape in views/repartitioning/model.ts). */
  workloadGraph: unknown;
  checkPlan: CheckPlan;
  evaluate: ExpectationResult[];
}

/** A run either produced a report or was refused with diagnostics. */
export type RunOutcome =
  | {
      ok: true;
      report: Report;
      /** Set for a run on virtual cores only. */
      virtual_run?: VirtualRun;
      /** The id the engine keeps this report under, to judge it by (Check). */
      report_id: number;
    }
  | { ok: false; diagnostics: Diagnostic[] };

export type Reply =
  | { id: number; type: 'reply'; ok: true; result: unknown }
  | { id: number; type: 'reply'; ok: false; error: string }
  | { id: number; type: 'progress'; poll: PollSnapshot; t_ms: number };

/** How often the worker polls a running scenario, in milliseconds. */
export const POLL_INTERVAL_MS = 100;
