import { useRun } from '../store';

const PHASE_TEXT = {
  idle: 'ready to run',
  running: 'running…',
  done: 'done',
  cancelled: 'cancelled',
  refused: 'scenario refused: see the problems below',
  failed: 'engine error',
} as const;

/** Run / Cancel, and the state of the run. */
export function RunControls() {
  const phase = useRun((s) => s.phase);
  const engineReady = useRun((s) => s.engine.state === 'ready');
  const progress = useRun((s) => s.progress);
  const run = useRun((s) => s.run);
  const cancel = useRun((s) => s.cancel);
  const running = phase === 'running';
  const cancelling = useRun((s) => s.cancelRequested) && running;
  return (
    <section className="controls">
      <button type="button" data-testid="run" disabled={!engineReady || running} onClick={() => void run()}>
        Run
      </button>
      <button type="button" data-testid="cancel" disabled={!running || cancelling} onClick={() => void cancel()}>
        {cancelling ? 'Cancelling…' : 'Cancel'}
      </button>
      <span className="phase" data-testid="phase" data-phase={phase}>
        {PHASE_TEXT[phase]}
        {running && (!progress || progress.runs_total === 0) && (
          <> generating the request stream and the sequential reference</>
        )}
        {running && progress && progress.runs_total > 0 && (
          <>
            {' '}
            run {progress.run_index + 1}/{progress.runs_total}: {progress.scheduler} × {progress.threads} ·{' '}
            {progress.executed.toLocaleString()}/{progress.requests.toLocaleString()} executed
          </>
        )}
      </span>
    </section>
  );
}
