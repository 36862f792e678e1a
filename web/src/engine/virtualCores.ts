/**
 * Runs on virtual cores (issue 25): the scheduler code on N simulated cores
 * under the engine's conductor, one thread at a time, in virtual time. Their
 * numbers are a cost model's, not this machine's, so every place that shows
 * such a run names it with {@link modelLabel}; real threads stay the default.
 *
 * The engine says a report is virtual with `virtual_run` beside the report
 * (psmr-wasm `VirtualRun`); the store keeps it on the report ({@link LabReport}),
 * so a view that has the report has the label. Read it only through
 * {@link virtualOf}: the one place to change if the report itself carries it.
 */
import type { Report, RunReport } from './contract.gen';

/** What the engine says of a run on virtual cores. */
export interface VirtualRun {
  /** Virtual cores (worker threads) of every run of the report. */
  cores: number;
  /** The cost table the conductor charged (`reference`: the committed one). */
  cost_table: string;
  /** FNV-1a of each run's packed trace, 16 hex digits, in run order (same natively). */
  trace_digests: string[];
}

/** A report as the store keeps it: the engine's, plus its model when virtual. */
export type LabReport = Report & { virtual_run?: VirtualRun };

/** The model of a report's runs, or null for real threads. */
export function virtualOf(report: LabReport | null | undefined): VirtualRun | null {
  return report?.virtual_run ?? null;
}

/** "virtual 4 cores (model, reference cost table)": how every view names a virtual run's cores. */
export function modelLabel(v: VirtualRun): string {
  return `virtual ${v.cores} ${v.cores === 1 ? 'core' : 'cores'} (model, ${v.cost_table} cost table)`;
}

/** The label of a run on `cores` virtual cores under the reference cost table (what the app's own virtual runs use). */
export function referenceLabel(cores: number): string {
  return modelLabel({ cores, cost_table: 'reference', trace_digests: [] });
}

/** A run's threads as a table cell or legend shows them: the count, or the model label. */
export function threadsLabel(report: LabReport, run: Pick<RunReport, 'threads'>): string {
  const v = virtualOf(report);
  return v ? modelLabel(v) : String(run.threads);
}

/** A run's name in a chart legend, a list or a CSV row: "label × threads" or "label × virtual N cores (model, …)". */
export function runLabel(report: LabReport, run: Pick<RunReport, 'label' | 'threads'>): string {
  return `${run.label} × ${threadsLabel(report, run)}`;
}

/** Whether two reports may share a chart: never a model's numbers with measured ones. */
export function sameKind(a: LabReport | null, b: LabReport | null): boolean {
  return (virtualOf(a) === null) === (virtualOf(b) === null);
}

/**
 * Most virtual cores this engine can host. Each virtual core is a pool
 * thread of its own: only one runs at a time, but all are alive and wait
 * at once, beside the auxiliary threads of a scheduler and the delivering
 * thread. So the pool size bounds the count, and the browser's worker limit
 * caps it (the engine checks the same).
 */
export function maxVirtualCores(poolThreads: number, limits: { max_threads: number; max_roles: number }): number {
  return Math.max(0, Math.min(limits.max_threads, poolThreads - 1 - limits.max_roles));
}

/** Why `n` virtual cores are refused here (null: accepted), in the run panel's words. */
export function virtualCoresProblem(n: number, max: number, poolThreads: number | null): string | null {
  if (Number.isInteger(n) && n >= 1 && n <= max) return null;
  const pool = poolThreads === null ? "the engine's pool threads" : `the engine's ${poolThreads} pool threads`;
  return (
    `This run › virtual cores: expected a whole number from 1 to ${max}, got ${n}. ` +
    `Each virtual core is one of ${pool} (Web Workers): one runs at a time, but all of them wait at once ` +
    `beside the scheduler's auxiliary threads and the delivering thread, so the browser allows at most ${max}.`
  );
}
