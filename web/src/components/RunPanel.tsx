import { Diagnostics } from './Diagnostics';
import { ResultTable } from './ResultTable';
import { ThroughputChart } from './ThroughputChart';
import { VerdictBadge } from './VerdictBadge';

/** The built-in "Run" tab: verdict, problems, live chart, results. */
export function RunPanel() {
  return (
    <div className="run-panel">
      <VerdictBadge />
      <Diagnostics />
      <ThroughputChart />
      <ResultTable />
    </div>
  );
}
