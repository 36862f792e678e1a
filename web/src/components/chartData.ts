import { runLabel, type LabReport } from '../engine/virtualCores';
import type { LiveSeries } from '../store';

export interface ChartSeries {
  key: string;
  /** Scheduler id (its color on every tab). */
  scheduler: string;
  label: string;
  points: { t_ms: number; ops_s: number }[];
}

/**
 * What the throughput chart draws: the engine's own series per run once a
 * report is in (computed from execution timestamps, exact), else the live
 * series from the polls (approximate, updated every poll).
 */
/** Most points drawn per line; denser series are averaged into buckets. */
export const MAX_CHART_POINTS = 50;

type Point = { t_ms: number; ops_s: number };

/**
 * Average `points` (sorted by time) into at most `max` equal time buckets,
 * each drawn at its middle. Sparse series are returned unchanged.
 */
export function resample(points: readonly Point[], max = MAX_CHART_POINTS): Point[] {
  if (points.length <= max) return [...points];
  const t0 = points[0].t_ms;
  const span = points[points.length - 1].t_ms - t0;
  if (span <= 0) return [points[points.length - 1]];
  const width = span / max;
  const sums = new Array<number>(max).fill(0);
  const counts = new Array<number>(max).fill(0);
  for (const p of points) {
    const b = Math.min(max - 1, Math.floor((p.t_ms - t0) / width));
    sums[b] += p.ops_s;
    counts[b] += 1;
  }
  const out: Point[] = [];
  for (let b = 0; b < max; b++) {
    if (counts[b] > 0) out.push({ t_ms: t0 + (b + 0.5) * width, ops_s: sums[b] / counts[b] });
  }
  return out;
}

/**
 * The series of one chart: the report's runs (all real, or all on virtual
 * cores and named so), else the live polls. A run on virtual cores
 * (`liveVirtualCores`) draws nothing live: its polls measure how fast this
 * machine simulates, not the model's throughput, which comes with the report.
 */
export function chartSeries(
  live: readonly LiveSeries[],
  report: LabReport | null,
  liveVirtualCores: number | null = null,
): ChartSeries[] {
  if (report) {
    const fromReport = report.runs.map((r, i) => ({
      key: `run-${i}`,
      scheduler: r.scheduler,
      label: runLabel(report, r),
      points: resample(r.metrics.throughput_series ?? []),
    }));
    if (fromReport.some((s) => s.points.length > 0)) return fromReport;
  }
  if (liveVirtualCores !== null) return [];
  return live.map((s) => ({
    key: `run-${s.runIndex}`,
    scheduler: s.scheduler,
    label: `${s.scheduler} × ${s.threads}`,
    points: s.points,
  }));
}
