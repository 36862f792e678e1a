import type { Report } from '../engine/protocol';
import type { LiveSeries } from '../store';

export interface ChartSeries {
  key: string;
  label: string;
  points: { t_ms: number; ops_s: number }[];
}

/**
 * What the throughput chart draws: the engine's own series per run once a
 * report is in (computed from execution timestamps, exact), else the live
 * series from the polls (approximate, updated every poll).
 */
export function chartSeries(live: readonly LiveSeries[], report: Report | null): ChartSeries[] {
  if (report) {
    const fromReport = report.runs.map((r, i) => ({
      key: `run-${i}`,
      label: `${r.label} × ${r.threads}`,
      points: r.metrics.throughput_series ?? [],
    }));
    if (fromReport.some((s) => s.points.length > 0)) return fromReport;
  }
  return live.map((s) => ({
    key: `run-${s.runIndex}`,
    label: `${s.scheduler} × ${s.threads}`,
    points: s.points,
  }));
}
