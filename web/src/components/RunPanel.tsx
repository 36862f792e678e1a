import { useRun } from '../store';
import { Diagnostics } from './Diagnostics';
import { ResultTable } from './ResultTable';
import { ThroughputChart } from './ThroughputChart';
import { VerdictBadge } from './VerdictBadge';
import { virtualOf } from '../engine/virtualCores';

/**
 * Runs with more worker threads + 1 (the delivering thread) than cores
 * time-share the cores: their speeds (and their ranking) say more about the
 * machine than about the schedulers. Said next to the results, as the Sweep
 * tab marks such points. Not for runs on virtual cores: there one thread
 * runs at a time by design, and the numbers are the model's.
 */
export function OversubscribedWarning() {
  const report = useRun((s) => s.report);
  if (!report || virtualOf(report)) return null;
  const parallel = report.runs.filter((r) => r.scheduler !== 'sequential');
  const threads = Math.max(0, ...parallel.map((r) => r.threads));
  if (parallel.length === 0 || !report.cores || threads + 1 <= report.cores) return null;
  return (
    <p className="warn" data-testid="oversubscribed-warning">
      This machine has {report.cores} cores; these runs used {threads} worker threads plus the delivering thread, so
      threads took turns on the cores. Their throughput, speedup and ranking here say more about the machine than about
      the schedulers, and may change from run to run. Compare speeds on a machine with at least {threads + 1} cores (the
      Sweep tab marks such points; docs/benchmarks/ has measurements).
    </p>
  );
}

/** The built-in "Run" tab: verdict, problems, live chart, results. */
export function RunPanel() {
  return (
    <div className="run-panel">
      <VerdictBadge />
      <Diagnostics />
      <ThroughputChart />
      <OversubscribedWarning />
      <ResultTable />
    </div>
  );
}
