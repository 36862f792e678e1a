/**
 * Plain-language verdicts. The engine's report carries its own message
 * (`violation`); when only the structured detail is there we phrase it the
 * same way the engine's `Display` does, so the CLI and the app agree.
 */
import type { Report, RunReport, Violation } from '../engine/protocol';

export function describeViolation(v: Violation): string {
  switch (v.kind) {
    case 'missing':
      return `request #${v.req} could run but never executed`;
    case 'duplicate':
      return `request #${v.req} executed ${v.times} times`;
    case 'unexpected':
      return `request #${v.req} executed although it could not run yet (not delivered, or waiting for an uncommitted dependency)`;
    case 'admission':
      return `request #${v.req} was delivered or registered ${v.times} times`;
    case 'response':
      return `request #${v.req} answered ${v.got}, sequential execution answers ${v.expected}`;
    case 'state':
      return 'final state differs from sequential execution';
    case 'order':
      return `conflicting requests reversed: #${v.second} (${v.second_class}) started before #${v.first} (${v.first_class}) finished, both touch ${v.cell.text}`;
    case 'color-order':
      return `events of ${v.cell.text} ran out of registration order: #${v.second} ran before #${v.first}, which was registered first`;
  }
}

/** The message for one run, or null when it is correct. */
export function runViolation(run: RunReport): string | null {
  if (run.correct) return null;
  if (run.violation) return run.violation;
  return run.violation_detail ? describeViolation(run.violation_detail) : 'incorrect (no detail given)';
}

export interface OverallVerdict {
  correct: boolean;
  /** `scheduler: message` of the first incorrect run. */
  message: string | null;
  incorrectRuns: number;
}

export function overallVerdict(report: Report): OverallVerdict {
  const bad = report.runs.filter((r) => !r.correct);
  const first = bad[0];
  return {
    correct: bad.length === 0,
    message: first ? `${first.label} (${first.threads} threads): ${runViolation(first)}` : null,
    incorrectRuns: bad.length,
  };
}
