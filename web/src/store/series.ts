/**
 * Live throughput series built from the worker's polls.
 *
 * Each poll carries the executed count of the run in progress and the time
 * since the scenario started; throughput between two polls of the same run
 * is the executed delta over the time delta. One series per run index (a
 * scenario runs its schedulers one after the other). A run's clock starts
 * at the previous poll (the last moment it was known not to have started),
 * so its first point is an average over at most one poll interval.
 */
import type { PollSnapshot } from '../engine/protocol';

export interface LivePoint {
  /** Time since the run started, in milliseconds. */
  t_ms: number;
  ops_s: number;
}

export interface LiveSeries {
  runIndex: number;
  scheduler: string;
  threads: number;
  /** Scenario time at which this run was first seen (the engine's
   * `elapsed_ms` counts from the scenario's start, not the run's). */
  startMs: number;
  /** Last poll seen (baseline for the next delta). */
  lastExecuted: number;
  lastElapsedMs: number;
  points: LivePoint[];
}

/** Most points kept per series (oldest dropped first). */
export const MAX_LIVE_POINTS = 2000;

/**
 * The series after one more poll. Pure: returns a new array when something
 * changed, the same one otherwise. Polls of a run are expected in time
 * order; a poll that does not move time forward adds no point.
 */
export function addPoll(series: readonly LiveSeries[], poll: PollSnapshot): LiveSeries[] {
  const s = poll.snapshot;
  // No run yet (the engine is still generating the stream and computing
  // the sequential reference): nothing to plot.
  if (!s || s.runs_total === 0 || s.scheduler === '') return series as LiveSeries[];
  const i = series.findIndex((x) => x.runIndex === s.run_index);
  if (i < 0) {
    // First sight of a run: its baseline is 0 executed at the previous
    // poll's time, so a first poll already gives a point.
    const before = series.reduce((m, x) => Math.max(m, x.lastElapsedMs), 0);
    const fresh: LiveSeries = {
      runIndex: s.run_index,
      scheduler: s.scheduler,
      threads: s.threads,
      startMs: Math.min(before, s.elapsed_ms),
      lastExecuted: 0,
      lastElapsedMs: Math.min(before, s.elapsed_ms),
      points: [],
    };
    return addPoll([...series, fresh], poll);
  }
  const cur = series[i];
  const dtMs = s.elapsed_ms - cur.lastElapsedMs;
  if (dtMs <= 0) return series as LiveSeries[];
  const ops = Math.max(0, s.executed - cur.lastExecuted);
  const point = { t_ms: s.elapsed_ms - cur.startMs, ops_s: (ops * 1000) / dtMs };
  const points = [...cur.points, point];
  if (points.length > MAX_LIVE_POINTS) points.splice(0, points.length - MAX_LIVE_POINTS);
  const next = [...series];
  next[i] = { ...cur, lastExecuted: s.executed, lastElapsedMs: s.elapsed_ms, points };
  return next;
}
