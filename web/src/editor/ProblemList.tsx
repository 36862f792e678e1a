/** The validation problems listed under the editor: line:col, field path, message; a click moves the cursor there. */
import type { Problem } from './lint';
import type { ValidationReport } from './validation';

export interface ProblemListProps {
  report: ValidationReport;
  onPick: (p: Problem) => void;
}

function engineNote(report: ValidationReport): string | null {
  switch (report.engine.state) {
    case 'off':
      return 'engine starting: schema checks only';
    case 'checking':
      return 'engine checking…';
    case 'failed':
      return `engine validation unavailable: ${report.engine.message}`;
    default:
      return null;
  }
}

export function ProblemList({ report, onPick }: ProblemListProps) {
  const note = engineNote(report);
  const n = report.problems.length;
  return (
    <div className="problems" data-testid="problems" data-count={n}>
      <p className="problems-summary">
        {n === 0 ? 'No problems found.' : `${n} problem${n === 1 ? '' : 's'}:`}
        {note && <span className="problems-engine"> ({note})</span>}
      </p>
      {n > 0 && (
        <ul>
          {report.problems.map((p, i) => (
            <li key={i} className={`problem ${p.source}`} data-testid="problem" data-source={p.source}>
              <button type="button" className="problem-loc" onClick={() => onPick(p)}>
                {p.line}:{p.col}
              </button>{' '}
              {p.path && <code className="problem-path">{p.path}</code>} {p.message}{' '}
              <span className="problem-source">[{p.source}]</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
