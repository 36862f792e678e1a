/**
 * Does a run show the lesson's outcome (issue 27)? A pure reading of the
 * report: `better` beats `worse` on the figure the lesson names. The lesson
 * bar and the outcome charts say it of the lesson's virtual run, whose
 * figures do not depend on this machine's cores.
 */
import type { RunReport } from '../engine/protocol';
import type { LessonOutcome } from './lessons';

/** One outcome read from a report: both figures, and whether the claim holds. */
export interface OutcomeCheck {
  outcome: LessonOutcome;
  better: number;
  worse: number;
  holds: boolean;
}

type Run = Pick<RunReport, 'label' | 'scheduler' | 'throughput_ops_s' | 'latency_us'>;

/** A run's figure: its throughput (ops/s) or a latency percentile (µs); undefined when the report lacks it. */
export function figureOf(run: Run, figure: LessonOutcome['figure']): number | undefined {
  if (figure === 'throughput') return run.throughput_ops_s;
  return run.latency_us?.[figure];
}

/** More throughput is better; a lower latency is. */
export function beats(figure: LessonOutcome['figure'], a: number, b: number): boolean {
  return figure === 'throughput' ? a > b : a < b;
}

/** The outcome's check in `runs` (by label, then scheduler id), or null when a run or figure is missing. */
export function checkOutcome(o: LessonOutcome, runs: readonly Run[]): OutcomeCheck | null {
  const find = (name: string) => runs.find((r) => r.label === name) ?? runs.find((r) => r.scheduler === name);
  const b = find(o.better);
  const w = find(o.worse);
  const better = b && figureOf(b, o.figure);
  const worse = w && figureOf(w, o.figure);
  if (better === undefined || worse === undefined) return null;
  return { outcome: o, better, worse, holds: beats(o.figure, better, worse) };
}

/** "throughput 900,536 vs 307,607 ops/s", "p99 554 vs 15,580 µs". */
export function figureText(c: OutcomeCheck): string {
  const unit = c.outcome.figure === 'throughput' ? 'ops/s' : 'µs';
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  return `${c.outcome.figure} ${n(c.better)} vs ${n(c.worse)} ${unit}`;
}
