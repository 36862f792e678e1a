/**
 * The coloring family's words for durations and refused steals, shared by
 * the step captions (`narrate.ts`), the event sentences (`sentences.ts`)
 * and the Colors & steals view. Apart from the view's model (`model.ts`,
 * fetched with the view) so that a lesson of another family does not fetch
 * the model with the captions (issue 30).
 */
import { SMALL } from '../../trace/codec';
import type { Refusal } from './model';

const H = SMALL.StealRefused.heuristic;

/** One short phrase per `StealRefused.heuristic` code (engine `Refusal`). */
export const REFUSAL_REASONS: Record<number, string> = {
  [H.TwoColors]: 'fewer than two colors queued',
  [H.Half]: 'no color under half the queue',
  [H.TimeLeft]: 'time left not above the steal cost',
  [H.Nothing]: 'no stealable color',
};

/** A duration for people: ns under 1 µs, then µs (one decimal under 10 µs). */
export function us(ns: number): string {
  if (ns < 1000) return `${Math.round(ns)} ns`;
  const u = ns / 1000;
  return u < 10 ? `${u.toFixed(1).replace(/\.0$/, '')} µs` : `${Math.round(u)} µs`;
}

/**
 * A measured duration (a steal's cost) for people. A zero reading is a
 * duration the trace's clock did not resolve, not a free steal: it reads
 * "under 1 µs", never "0 ns".
 */
export function measuredUs(ns: number): string {
  return Math.round(ns) <= 0 ? 'under 1 µs' : us(ns);
}

/** Why a steal was refused, in words; the time-left refusal compares the two times. */
export function refusalText(r: Pick<Refusal, 'heuristic' | 'left_ns' | 'cost_ns'>): string {
  if (r.heuristic === H.TimeLeft) {
    if (r.left_ns < r.cost_ns) return `time left ${us(r.left_ns)} < steal cost ${us(r.cost_ns)}`;
    // The stealing queue held no color: this one was judged unworthy against a higher steal cost than now's.
    return `no color in its stealing queue (color's time left ${us(r.left_ns)}, judged against an earlier, higher steal cost; now ${us(r.cost_ns)})`;
  }
  return REFUSAL_REASONS[r.heuristic] ?? `refused (heuristic ${r.heuristic})`;
}
