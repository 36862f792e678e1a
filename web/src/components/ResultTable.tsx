import { useRun } from '../store';
import type { RunReport } from '../engine/protocol';
import { modelLabel, threadsLabel, virtualOf } from '../engine/virtualCores';
import { runViolation } from './verdict';

const fmt = (x: number, digits = 0) =>
  Number.isFinite(x) ? x.toLocaleString(undefined, { maximumFractionDigits: digits }) : '–';

/** What a result row says of its run to tests and tooltips (the trace digest of a virtual run). */
function rowAttributes(r: RunReport, digest: string | undefined) {
  return {
    'data-testid': 'result-row',
    'data-scheduler': r.scheduler,
    'data-label': r.label,
    'data-correct': String(r.correct),
    'data-trace-digest': digest,
    title: digest ? `trace digest ${digest}` : undefined,
  };
}

/**
 * One row per run of the last report. A report of a run on virtual cores
 * says so in its caption and in every row's threads cell, and gives each
 * run's trace digest (the same natively: `psmr run --virtual-cores N --digest`).
 */
export function ResultTable() {
  const report = useRun((s) => s.report);
  if (!report) return null;
  const model = virtualOf(report);
  return (
    <table className="results" data-testid="results" data-virtual-cores={model?.cores}>
      {model && (
        <caption className="model-caption" data-testid="results-model">
          {modelLabel(model)}: times, throughput, speedup and latencies are virtual time under the {model.cost_table}{' '}
          cost table, a model's numbers, not measured on this machine. The same scenario, seed and core count give the
          same trace (its digest is in each row's tooltip).
        </caption>
      )}
      <thead>
        <tr>
          <th>#</th>
          <th>scheduler</th>
          <th>threads</th>
          <th>requests</th>
          <th>{model ? 'virtual time (ms)' : 'time (ms)'}</th>
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
            <tr key={i} {...rowAttributes(r, model?.trace_digests[i])}>
              <td>{i + 1}</td>
              <td>{r.label === r.scheduler ? r.scheduler : `${r.label} (${r.scheduler})`}</td>
              <td className={model ? 'model' : 'num'} data-testid="threads">
                {threadsLabel(report, r)}
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
