/**
 * The browser's `psmr check`: run the scenario as many times as its expect
 * block asks, then let the engine judge the reports against the
 * expectations. The judging is the engine's `evaluate` (the same Rust code
 * the CLI runs), reached through the worker; nothing here decides pass or
 * fail.
 */
import type { Diagnostic, PollSnapshot, Report, RunOptions, RunOutcome } from '../engine/protocol';

/** One expectation's verdict (engine `ExpectationResult`). */
export interface ExpectationResult {
  name: string;
  passed: boolean;
  /** Set when the expectation could not be judged here (e.g. too few cores for a speed ratio). */
  skipped_reason: string | null;
  message: string;
}

export type ExpectationStatus = 'pass' | 'fail' | 'skipped';

export function statusOf(r: ExpectationResult): ExpectationStatus {
  if (r.skipped_reason) return 'skipped';
  return r.passed ? 'pass' : 'fail';
}

/** What the check needs from the engine (the worker bridge, or a fake in tests). */
export interface CheckEngine {
  run(text: string, options: RunOptions, onProgress?: (poll: PollSnapshot) => void): Promise<RunOutcome>;
  evaluate(text: string, reports: Report[]): Promise<ExpectationResult[]>;
}

export type CheckOutcome =
  | { kind: 'checked'; results: ExpectationResult[]; repetitions: number }
  | { kind: 'refused'; diagnostics: Diagnostic[] }
  | { kind: 'cancelled'; repetition: number; repetitions: number }
  | { kind: 'failed'; error: string };

/** Progress of a check: which repetition, and the engine's poll of it. */
export interface CheckProgress {
  repetition: number;
  repetitions: number;
  poll: PollSnapshot | null;
}

/** Upper bound on repetitions, as the engine enforces (`MAX_REPETITIONS`). */
export const MAX_REPETITIONS = 100;

/**
 * Repetitions the scenario asks for: `expect.repetitions`, else
 * `run.repetitions`, else 1, within 1..MAX_REPETITIONS. The engine
 * validates the same fields with located errors; this only counts.
 */
export function repetitionsOf(text: string): number {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return 1;
  }
  const o = (doc ?? {}) as { expect?: { repetitions?: unknown }; run?: { repetitions?: unknown } };
  const pick = [o.expect?.repetitions, o.run?.repetitions].find((v) => typeof v === 'number' && Number.isInteger(v));
  return Math.min(MAX_REPETITIONS, Math.max(1, (pick as number | undefined) ?? 1));
}

/** The counts of a result list, for the summary line. */
export function summarize(results: ExpectationResult[]): Record<ExpectationStatus, number> {
  const out = { pass: 0, fail: 0, skipped: 0 };
  for (const r of results) out[statusOf(r)]++;
  return out;
}

/**
 * Run the check. Traces are off (the check needs metrics and verdicts only).
 * Stops at the first refused or cancelled run; never throws.
 */
export async function runCheck(
  engine: CheckEngine,
  text: string,
  onProgress?: (p: CheckProgress) => void,
): Promise<CheckOutcome> {
  const repetitions = repetitionsOf(text);
  const reports: Report[] = [];
  try {
    for (let k = 1; k <= repetitions; k++) {
      onProgress?.({ repetition: k, repetitions, poll: null });
      const outcome = await engine.run(text, { trace: false }, (poll) =>
        onProgress?.({ repetition: k, repetitions, poll }),
      );
      if (!outcome.ok) return { kind: 'refused', diagnostics: outcome.diagnostics };
      if (outcome.report.runs.some((r) => r.cancelled)) return { kind: 'cancelled', repetition: k, repetitions };
      reports.push(outcome.report);
    }
    return { kind: 'checked', results: await engine.evaluate(text, reports), repetitions };
  } catch (e) {
    return { kind: 'failed', error: e instanceof Error ? e.message : String(e) };
  }
}
