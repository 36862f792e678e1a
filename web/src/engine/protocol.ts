/**
 * Messages between the page and the engine worker, and the JSON shapes the
 * wasm engine returns. Every request carries an `id`; the worker answers
 * each request exactly once with a `reply` of the same id, and may send any
 * number of `progress` messages for a `run` request before its reply.
 */

/** A located problem in a scenario file (engine `Diagnostic`). */
export interface Diagnostic {
  file: string;
  line: number;
  col: number;
  /** JSON path of the offending field, e.g. `threads` or `schedulers[1].kind`. */
  path: string;
  message: string;
}

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
}

/** One `poll()` of a running scenario. */
export interface PollSnapshot {
  running: boolean;
  done: boolean;
  snapshot: RunSnapshot | null;
  /** Set once an engine thread panicked: the run will never finish. */
  panic?: string;
}

/** Live figures of the run in progress (engine `MonitorSnapshot` + run shape). */
export interface RunSnapshot {
  /** Index of the run in progress within the scenario's runs (0-based). */
  run_index: number;
  /** Runs in the scenario. */
  runs_total: number;
  /** Label of the scheduler running now. */
  scheduler: string;
  /** Worker threads of each run. */
  threads: number;
  /** Requests in the stream. */
  requests: number;
  /** Executed and delivered so far by the current run. */
  executed: number;
  delivered: number;
  /** Time since the scenario (not the current run) started. */
  elapsed_ms: number;
  /** Delivery is held back (Pause). */
  paused?: boolean;
  /**
   * Each worker thread of the run in progress, sampled at the poll. Named
   * `workers`, not `threads`, because the snapshot's flattened JSON already
   * uses `threads` for the worker count.
   */
  workers?: LiveWorker[];
}

/** One worker thread of a live run (engine `LiveSample`). */
export interface LiveWorker {
  /** Requests this thread has executed so far. */
  executed: number;
  /** Requests in its queue now. */
  queue_len: number;
  state: 'idle' | 'executing' | 'waiting' | 'stealing';
}

/**
 * A 64-bit value from the engine: a number up to 2^53, a decimal string
 * above (so it survives JSON.parse).
 */
export type U64 = number | string;

/** A cell range named by the oracle (`shard 2`, `keys 10-19`, `color 4`). */
export interface CellName {
  unit: 'shard' | 'key' | 'color';
  lo: U64;
  hi: U64;
  text: string;
}

/** What the oracle found wrong (engine `Violation`). */
export type Violation =
  | { kind: 'missing'; req: number }
  | { kind: 'duplicate'; req: number; times: number }
  | { kind: 'unexpected'; req: number }
  | { kind: 'admission'; req: number; times: number }
  | { kind: 'response'; req: number; expected: U64; got: U64 }
  | { kind: 'state'; expected: U64; got: U64 }
  | {
      kind: 'order';
      first: number;
      first_class: string;
      second: number;
      second_class: string;
      cell: CellName;
    }
  | { kind: 'color-order'; first: number; second: number; cell: CellName };

export interface ThroughputPoint {
  t_ms: number;
  ops_s: number;
}

export interface LatencyUs {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export interface ThreadTimes {
  thread: number;
  executed: number;
  exec_ms: number;
  wait_ms: number;
  idle_ms: number;
}

/** Engine `RunMetrics`. */
export interface RunMetrics {
  requests: number;
  duration_ms: number;
  throughput_ops_s: number;
  latency_us: LatencyUs;
  throughput_series: ThroughputPoint[];
  threads: ThreadTimes[];
  counters: Record<string, number>;
  scheduler_ns_per_request: number;
  queue_len_mean: number;
  queue_len_max: number;
  extra: Record<string, number>;
}

/** Scheduler families (engine `RunReport.family`). */
export type SchedulerFamily =
  'sequential' | 'early' | 'work-stealing' | 'late' | 'epaxos' | 'repartitioning' | 'coloring';

/** How requests reach the scheduler (engine `Delivery`, `RunReport.delivery`). */
export interface DeliveryModel {
  model: 'saturate' | 'rate' | 'closed';
  /** Closed loop: the number of clients. */
  clients?: number;
  /** Rate: deliveries per second. */
  per_s?: number;
}

/**
 * Where a long trace was cut (engine `TraceWindow`): the kept events are
 * `head_events` complete ones, `gap_events` structural ones from the gap
 * (steals, SCCs, map switches), then `tail_events` complete ones.
 */
export interface TraceWindow {
  cut: boolean;
  head_events: number;
  gap_events: number;
  tail_events: number;
  dropped_events: number;
  /** Run time of the last event before the gap and of the first after it. */
  gap_from_ns: number;
  gap_to_ns: number;
}

/** One scheduler's run (engine `RunReport`, the CLI JSON contract). */
export interface RunReport {
  /** Scheduler id. */
  scheduler: string;
  /** The scheduler's family. */
  family?: SchedulerFamily;
  /** How requests were delivered (defaults resolved). */
  delivery?: DeliveryModel;
  /** Auxiliary lanes (thread ids >= 0xFF00), e.g. a graph builder or a repartitioner. */
  roles?: { thread: number; name: string }[];
  /** Which part of the trace was kept when it was cut. */
  trace_window?: TraceWindow;
  /** Label (the id unless the scenario gives one). */
  label: string;
  threads: number;
  /** Requests in the stream. */
  requests: number;
  throughput_ops_s: number;
  latency_us: LatencyUs;
  /** The oracle's verdict. */
  correct: boolean;
  /** What the oracle found wrong, in words naming the offending pair. */
  violation: string | null;
  violation_detail?: Violation;
  state_digest: string;
  /** Cancelled: only the delivered prefix was checked. */
  cancelled: boolean;
  metrics: RunMetrics;
  speedup_vs_sequential?: number;
  trace_truncated: boolean;
  [key: string]: unknown;
}

/** The stream every run received (engine `StreamInfo`). */
export interface StreamInfo {
  kind: 'total' | 'commits' | 'events';
  requests: number;
  /** Delivery units: requests, ePaxos instances or root events. */
  deliveries: number;
  /** The application's cells: `shards`, `keys` or `colors`. */
  cells: string;
  dense_cells: number;
  /** Commit streams only: the SCC sizes of the dependency graph. */
  scc?: SccHistogram;
}

/** One request class (engine `ClassInfo`): no guessing from names. */
export interface ClassInfo {
  name: string;
  weight: number;
  /** Local class: its shard (0-based); absent for a global class. */
  shard?: number;
  write: boolean;
  /** Ids of the classes it conflicts with (itself when it has internal conflicts). */
  conflicts: number[];
}

/** The engine's report for a whole scenario (the CLI JSON contract). */
export interface Report {
  scenario: string;
  /** `navigator.hardwareConcurrency` in the browser. */
  cores: number;
  stream?: StreamInfo;
  classes?: ClassInfo[];
  runs: RunReport[];
  [key: string]: unknown;
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
  delivery?: DeliveryModel;
}

/** One expectation judged by the engine (`psmr_scenario::expect::ExpectationResult`). */
export interface ExpectationResult {
  /** What was expected, e.g. `correct(early)`. */
  name: string;
  passed: boolean;
  /** Present when it was not judged (too few cores, scheduler did not run): not a failure. */
  skipped_reason?: string | null;
  /** The measured values, in words. */
  message: string;
}

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
}

/** One point of a bench sweep (engine `BenchPoint`). */
export interface BenchPoint {
  scheduler: string;
  label: string;
  threads: number;
  writes: number;
  throughput_ops_s: number;
  speedup_vs_sequential: number;
  /** Over `epaxos` on the same stream (commit streams whose scenario lists epaxos). */
  speedup_vs_epaxos?: number;
  scheduler_ns_per_request: number;
  /** Workers' execution time per request they executed, µs (0 for sequential). */
  exec_us_per_request?: number;
  /** Workers' waiting and idle time over their measured time. */
  worker_wait_share?: number;
  correct: boolean;
  violation: string | null;
  /** More threads than cores: the speed figure is not meaningful. */
  oversubscribed: boolean;
}

/** Engine `SccHistogram`: SCC sizes of a commit stream's dependency graph. */
export interface SccHistogram {
  /** `[size, count]`, increasing size. */
  sizes: [number, number][];
  sccs: number;
  instances: number;
  largest: number;
}

/** The stream of one write share of a sweep. */
export interface BenchStream {
  writes: number;
  stream: StreamInfo;
}

export interface BenchReport {
  scenario: string;
  cores: number;
  repetitions: number;
  points: BenchPoint[];
  /** One per write share swept. */
  streams?: BenchStream[];
}

export type BenchOutcome = { ok: true; bench: BenchReport } | { ok: false; diagnostics: Diagnostic[] };

export type Request =
  | { id: number; type: 'init' }
  | { id: number; type: 'validate'; text: string; file?: string }
  | { id: number; type: 'run'; text: string; options: RunOptions }
  | { id: number; type: 'bench'; text: string; options: BenchOptions }
  | { id: number; type: 'cancel' }
  | { id: number; type: 'pause'; paused: boolean }
  | { id: number; type: 'trace'; runIndex: number }
  | { id: number; type: 'workloadGraph' }
  | { id: number; type: 'checkPlan'; text: string; file?: string }
  | { id: number; type: 'evaluate'; text: string; reports: Report[]; file?: string };

/** The result type of each request kind. */
export interface ResultOf {
  init: ReadyInfo;
  validate: Diagnostic[];
  run: RunOutcome;
  bench: BenchOutcome;
  cancel: null;
  pause: null;
  trace: ArrayBuffer;
  /** The last report's workload graph (repartitioning view; shape in views/repartitioning/model.ts). */
  workloadGraph: unknown;
  checkPlan: CheckPlan;
  evaluate: ExpectationResult[];
}

/** A run either produced a report or was refused with diagnostics. */
export type RunOutcome = { ok: true; report: Report } | { ok: false; diagnostics: Diagnostic[] };

export type Reply =
  | { id: number; type: 'reply'; ok: true; result: unknown }
  | { id: number; type: 'reply'; ok: false; error: string }
  | { id: number; type: 'progress'; poll: PollSnapshot; t_ms: number };

/** How often the worker polls a running scenario, in milliseconds. */
export const POLL_INTERVAL_MS = 100;
