/**
 * The browser's `psmr check`: ask the engine how many runs the scenario's
 * expect block wants, run it that many times, then let the engine judge the
 * reports (the engine keeps each run's report; it is named here by its
 * `report_id`, never sent back). Both the count and the judging are the engine's
 * (`psmr_scenario::expect::{repetitions, evaluate}`, through the worker), the
 * same Rust code the CLI runs; nothing here decides pass or fail.
 */
import type { CheckPlan, Diagnostic, ExpectationResult, RunOptions, RunOutcome, RunSnapshot } from '../engine/protocol';

export type { ExpectationResult } from '../engine/protocol';

export type ExpectationStatus = 'pass' | 'fail' | 'skipped';

export function statusOf(r: ExpectationResult): ExpectationStatus {
  if (r.skipped_reason) return 'skipped';
  return r.passed ? 'pass' : 'fail';
}

/** What the check needs from the engine (the worker bridge and run store, or a fake in tests). */
export interface CheckEngine {
  plan(text: string): Promise<CheckPlan>;
  run(text: string, options: RunOptions, onProgress?: (snapshot: RunSnapshot | null) => void): Promise<RunOutcome>;
  /** Judge `text` on the reports the engine kept under `reportIds` (one per repetition). */
  evaluate(text: string, reportIds: number[]): Promise<ExpectationResult[]>;
  /**
   * Hold one engine for the whole check (its runs keep their reports in
   * the worker that ran them, and evaluate reads them there: no switch of
   * engine package in between, engine/host.ts). Absent: no switching.
   */
  session?<T>(text: string, body: () => Promise<T>): Promise<T>;
}

export type CheckOutcome =
  | { kind: 'checked'; results: ExpectationResult[]; repetitions: number }
  | { kind: 'refused'; diagnostics: Diagnostic[] }
  | { kind: 'cancelled'; repetition: number; repetitions: number }
  | { kind: 'failed'; error: string };

/** Progress of a check: which repetition, and the engine's snapshot of it. */
export interface CheckProgress {
  repetition: number;
  repetitions: number;
  snapshot: RunSnapshot | null;
}

/** The counts of a result list, for the summary line. */
export function summarize(results: ExpectationResult[]): Record<ExpectationStatus, number> {
  const out = { pass: 0, fail: 0, skipped: 0 };
  for (const r of results) out[statusOf(r)]++;
  return out;
}

/**
 * Run the check. Traces are off (the check needs metrics and verdicts only).
 * Stops at the first refused or cancelled run; never throws. The number of
 * runs is bounded by the engine (at most 100 repetitions).
 */
export async function runCheck(
  engine: CheckEngine,
  text: string,
  onProgress?: (p: CheckProgress) => void,
): Promise<CheckOutcome> {
  try {
    return await (engine.session
      ? engine.session(text, () => check(engine, text, onProgress))
      : check(engine, text, onProgress));
  } catch (e) {
    return { kind: 'failed', error: e instanceof Error ? e.message : String(e) };
  }
}

async function check(
  engine: CheckEngine,
  text: string,
  onProgress?: (p: CheckProgress) => void,
): Promise<CheckOutcome> {
  const plan = await engine.plan(text);
  if (!plan.ok) return { kind: 'refused', diagnostics: plan.diagnostics };
  const { repetitions } = plan;
  const reportIds: number[] = [];
  for (let k = 1; k <= repetitions; k++) {
    onProgress?.({ repetition: k, repetitions, snapshot: null });
    const outcome = await engine.run(text, { trace: false }, (snapshot) =>
      onProgress?.({ repetition: k, repetitions, snapshot }),
    );
    if (!outcome.ok) return { kind: 'refused', diagnostics: outcome.diagnostics };
    if (outcome.report.runs.some((r) => r.cancelled)) return { kind: 'cancelled', repetition: k, repetitions };
    reportIds.push(outcome.report_id);
  }
  return { kind: 'checked', results: await engine.evaluate(text, reportIds), repetitions };
}
