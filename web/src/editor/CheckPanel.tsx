/** The Check button and its result: one pass / fail / skipped line per expectation, with the engine's message. */
import { useState } from 'react';
import { runCheck, statusOf, summarize, type CheckEngine, type CheckOutcome, type CheckProgress } from './check';

export interface CheckPanelProps {
  text: string;
  /** `null` while the engine is not ready. */
  engine: CheckEngine | null;
  /** Another run is going on: the engine runs one thing at a time. */
  busy: boolean;
  /** Told when a check starts and ends (the app may lock other run controls). */
  onBusyChange?: (busy: boolean) => void;
}

const LABEL = { pass: 'PASS', fail: 'FAIL', skipped: 'SKIP' } as const;

export function CheckPanel({ text, engine, busy, onBusyChange }: CheckPanelProps) {
  const [checking, setChecking] = useState(false);
  const [progress, setProgress] = useState<CheckProgress | null>(null);
  const [outcome, setOutcome] = useState<CheckOutcome | null>(null);
  /** The text the shown outcome judged. */
  const [checkedText, setCheckedText] = useState<string | null>(null);

  const check = async () => {
    if (!engine) return;
    setChecking(true);
    onBusyChange?.(true);
    setOutcome(null);
    setProgress(null);
    setCheckedText(text);
    try {
      setOutcome(await runCheck(engine, text, setProgress));
    } finally {
      setChecking(false);
      setProgress(null);
      onBusyChange?.(false);
    }
  };

  return (
    <section className="check-panel" aria-label="Check expectations">
      <button
        type="button"
        onClick={() => void check()}
        disabled={!engine || busy || checking}
        data-testid="check-button"
        title="Run the scenario as its expect block says and judge the expectations"
      >
        {checking ? 'Checking…' : 'Check'}
      </button>
      {checking && progress && (
        <span className="check-progress" data-testid="check-progress">
          run {progress.repetition} of {progress.repetitions}
          {progress.snapshot
            ? ` · ${progress.snapshot.scheduler} ${progress.snapshot.executed}/${progress.snapshot.requests}`
            : ''}
        </span>
      )}
      {outcome && checkedText !== text && (
        <span className="check-stale" data-testid="check-stale">
          (the text changed since this check)
        </span>
      )}
      {outcome && <CheckResult outcome={outcome} />}
    </section>
  );
}

function CheckResult({ outcome }: { outcome: CheckOutcome }) {
  switch (outcome.kind) {
    case 'refused':
      return (
        <div className="check-result" data-testid="check-result" data-verdict="refused" role="alert">
          The engine refused the scenario:
          <ul>
            {outcome.diagnostics.map((d, i) => (
              <li key={i}>
                <code>
                  {d.file}:{d.line}:{d.col}
                </code>{' '}
                {d.path && <code>{d.path}</code>} {d.message}
              </li>
            ))}
          </ul>
        </div>
      );
    case 'cancelled':
      return (
        <div className="check-result" data-testid="check-result" data-verdict="cancelled">
          Cancelled during run {outcome.repetition} of {outcome.repetitions}; nothing was judged.
        </div>
      );
    case 'failed':
      return (
        <div className="check-result" data-testid="check-result" data-verdict="error" role="alert">
          The check could not finish: {outcome.error}
        </div>
      );
    case 'checked': {
      const n = summarize(outcome.results);
      const verdict = n.fail > 0 ? 'fail' : 'pass';
      return (
        <div className="check-result" data-testid="check-result" data-verdict={verdict}>
          <p className="check-summary" data-testid="check-summary">
            {n.fail > 0 ? 'FAILED' : 'PASSED'}: {n.pass} passed, {n.fail} failed, {n.skipped} skipped (
            {outcome.repetitions} repetition{outcome.repetitions === 1 ? '' : 's'})
          </p>
          {outcome.results.length === 0 && <p>The scenario has no expectations to check.</p>}
          <ul className="expectations">
            {outcome.results.map((r, i) => {
              const s = statusOf(r);
              return (
                <li key={i} className={`expectation ${s}`} data-testid="expectation" data-status={s}>
                  <strong className="expectation-status">{LABEL[s]}</strong>{' '}
                  <span className="expectation-name">{r.name}</span>
                  {': '}
                  <span className="expectation-message">
                    {s === 'skipped' ? `skipped: ${r.skipped_reason}${r.message ? ` (${r.message})` : ''}` : r.message}
                  </span>
                </li>
              );
            })}
          </ul>
        </div>
      );
    }
  }
}
