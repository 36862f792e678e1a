import { useRun } from '../store';
import { overallVerdict } from './verdict';

/** Green "correct" when the oracle accepted every run, red with the first violation otherwise. */
export function VerdictBadge() {
  const report = useRun((s) => s.report);
  const phase = useRun((s) => s.phase);
  if (!report) return null;
  if (report.runs.length === 0) {
    return (
      <div className="verdict verdict-none" data-testid="verdict" data-correct="none" role="status">
        cancelled before any run finished: nothing to judge
      </div>
    );
  }
  const v = overallVerdict(report);
  const note = phase === 'cancelled' ? ' (cancelled: checked the delivered prefix)' : '';
  if (v.correct) {
    return (
      <div className="verdict verdict-ok" data-testid="verdict" data-correct="true" role="status">
        <span className="verdict-mark">✓</span> correct
        <span className="verdict-detail">
          {' '}
          all {report.runs.length} run{report.runs.length === 1 ? '' : 's'} match sequential execution{note}
        </span>
      </div>
    );
  }
  return (
    <div className="verdict verdict-bad" data-testid="verdict" data-correct="false" role="alert">
      <span className="verdict-mark">✗</span> incorrect
      <span className="verdict-detail">
        {' '}
        {v.message}
        {v.incorrectRuns > 1 ? ` (and ${v.incorrectRuns - 1} more run${v.incorrectRuns > 2 ? 's' : ''})` : ''}
        {note}
      </span>
    </div>
  );
}
