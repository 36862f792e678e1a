import { streamLines, type SweepReport } from './model';
import { executorColor } from './SweepChart';

const fmt = (x: number, digits = 0) =>
  Number.isFinite(x) ? x.toLocaleString(undefined, { maximumFractionDigits: digits }) : '–';

/** Every point of the sweep: sequential baseline first, then each executor by threads. */
export function SweepTable({ report, virtual = false }: { report: SweepReport; virtual?: boolean }) {
  const rows = [...report.points].sort(
    (a, b) => a.writes - b.writes || Number(b.scheduler === 'sequential') - Number(a.scheduler === 'sequential') || 0,
  );
  const vsEpaxos = report.points.some((p) => p.speedup_vs_epaxos !== undefined);
  const streams = streamLines(report);
  return (
    <>
      <table
        className="results sweep-table"
        data-testid={virtual ? 'sweep-virtual-table' : 'sweep-table'}
        data-kind={virtual ? 'virtual' : 'real'}
      >
        <thead>
          <tr>
            <th>executor</th>
            <th>writes</th>
            <th>{virtual ? 'virtual cores (model)' : 'threads'}</th>
            <th>throughput (req/s)</th>
            <th>least – most</th>
            <th>speedup vs sequential</th>
            {vsEpaxos && <th>speedup vs epaxos</th>}
            <th>scheduler ns / request</th>
            <th>verdict</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p, i) => (
            <tr
              key={i}
              data-testid="sweep-row"
              data-executor={p.label}
              data-threads={p.threads}
              data-oversubscribed={String(p.oversubscribed)}
              className={p.oversubscribed ? 'over' : undefined}
            >
              <td>
                {p.scheduler !== 'sequential' && (
                  <span className="swatch" style={{ background: executorColor(p.scheduler) }} />
                )}{' '}
                {p.label === p.scheduler ? p.label : `${p.label} (${p.scheduler})`}
              </td>
              <td className="num">{+(p.writes * 100).toFixed(2)}%</td>
              <td className="num">
                {p.threads}
                {p.oversubscribed && (
                  <span className="over-flag" title={`threads + 1 > ${report.cores} cores`}>
                    {' '}
                    ○ oversubscribed
                  </span>
                )}
              </td>
              <td className="num">{fmt(p.throughput_ops_s)}</td>
              <td className="num" data-testid="sweep-row-spread">
                {p.spread && p.spread.runs > 1 ? `${fmt(p.spread.min)} – ${fmt(p.spread.max)}` : '–'}
              </td>
              <td className="num">{fmt(p.speedup_vs_sequential, 2)}×</td>
              {vsEpaxos && (
                <td className="num" data-testid="vs-epaxos">
                  {p.speedup_vs_epaxos === undefined ? '–' : `${fmt(p.speedup_vs_epaxos, 2)}×`}
                </td>
              )}
              <td className="num">{fmt(p.scheduler_ns_per_request, 0)}</td>
              <td className={p.correct ? 'ok' : 'bad'} title={p.violation ?? undefined}>
                {p.correct ? '✓' : `✗ ${p.violation ?? 'rejected'}`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {streams.length > 0 && (
        <ul className="sweep-streams" data-testid="sweep-streams">
          {streams.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      )}
    </>
  );
}
