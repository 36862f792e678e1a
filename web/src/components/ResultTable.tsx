import { useRun } from '../store';
import { runViolation } from './verdict';

const fmt = (x: number, digits = 0) =>
  Number.isFinite(x) ? x.toLocaleString(undefined, { maximumFractionDigits: digits }) : '–';

/** One row per run of the last report. */
export function ResultTable() {
  const report = useRun((s) => s.report);
  if (!report) return null;
  return (
    <table className="results" data-testid="results">
      <thead>
        <tr>
          <th>#</th>
          <th>scheduler</th>
          <th>threads</th>
          <th>requests</th>
          <th>time (ms)</th>
          <th>throughput (ops/s)</th>
          <th>speedup</th>
          <th>latency p50 / p99 (µs)</th>
          <th>verdict</th>
        </tr>
      </thead>
      <tbody>
        {report.runs.map((r, i) => {
          const violation = runViolation(r);
          return (
            <tr key={i} data-testid="result-row" data-scheduler={r.scheduler} data-correct={String(r.correct)}>
              <td>{i + 1}</td>
              <td>{r.label === r.scheduler ? r.scheduler : `${r.label} (${r.scheduler})`}</td>
              <td className="num" data-testid="threads">
                {r.threads}
              </td>
              <td className="num">{fmt(r.metrics.requests)}</td>
              <td className="num">{fmt(r.metrics.duration_ms, 1)}</td>
              <td className="num" data-testid="throughput" data-value={r.throughput_ops_s}>
                {fmt(r.throughput_ops_s)}
              </td>
              <td className="num">
                {r.speedup_vs_sequential === undefined ? '–' : `${fmt(r.speedup_vs_sequential, 2)}×`}
              </td>
              <td className="num">
                {fmt(r.latency_us.p50, 1)} / {fmt(r.latency_us.p99, 1)}
              </td>
              <td className={violation ? 'bad' : 'ok'} title={violation ?? undefined}>
                {violation ? '✗ ' + violation : r.cancelled ? '✓ (prefix)' : '✓'}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
