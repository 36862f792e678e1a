import { useRun } from '../store';

/** Located errors from the engine: `file:line:col  path  message`. */
export function Diagnostics() {
  const diagnostics = useRun((s) => s.diagnostics);
  const error = useRun((s) => s.error);
  if (diagnostics.length === 0 && !error) return null;
  return (
    <div className="diagnostics" data-testid="diagnostics" role="alert">
      {error && <div className="diag diag-engine">engine error: {error}</div>}
      {diagnostics.length > 0 && (
        <>
          <div className="diag-title">
            The scenario has {diagnostics.length} problem{diagnostics.length === 1 ? '' : 's'}:
          </div>
          <ul>
            {diagnostics.map((d, i) => (
              <li key={i} className="diag" data-testid="diagnostic">
                <code className="diag-loc">
                  {d.file}:{d.line}:{d.col}
                </code>{' '}
                {d.path && <code className="diag-path">{d.path}</code>} {d.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
