import { useState } from 'react';
import { useRun, warmEngine } from '../store';
import { navStore } from './nav';
import { maxVirtualCores } from '../engine/virtualCores';
import {
  checkOverrides,
  NO_OVERRIDES,
  schedulerNames,
  toRunOptions,
  type OverrideProblem,
  type Overrides,
} from './overrides';

const PHASE_TEXT = {
  idle: 'ready to run',
  running: 'running…',
  done: 'done',
  cancelled: 'cancelled',
  refused: 'scenario refused: see the problems below',
  failed: 'engine error',
} as const;

/**
 * The engine's worker limit, its pool, and the virtual cores that pool can
 * host (before the engine starts: the worker limit only).
 */
function useVirtualLimits() {
  const maxThreads = useRun((s) => (s.engine.state === 'ready' ? s.engine.info.limits.max_threads : 16));
  const poolThreads = useRun((s) => (s.engine.state === 'ready' ? s.engine.info.poolThreads : null));
  const limits = useRun((s) => (s.engine.state === 'ready' ? s.engine.info.limits : null));
  const maxVirtual = poolThreads !== null && limits ? maxVirtualCores(poolThreads, limits) : maxThreads;
  return { maxThreads, maxVirtual, poolThreads };
}

/** Optional overrides of the scenario for the next run. */
function OverridePicker({
  value,
  onChange,
  disabled,
  problems,
}: {
  value: Overrides;
  onChange: (o: Overrides) => void;
  disabled: boolean;
  problems: OverrideProblem[];
}) {
  const text = useRun((s) => s.text);
  const { maxVirtual } = useVirtualLimits();
  const virtual = value.virtualCores != null;
  const names = schedulerNames(text);
  const number = (raw: string): number | null =>
    raw.trim() === '' || !Number.isFinite(Number(raw)) ? null : Number(raw);
  return (
    <fieldset className="overrides" disabled={disabled} data-testid="overrides">
      <legend>This run</legend>
      <div className="override-schedulers">
        {names.map((n) => (
          <label key={n}>
            <input
              type="checkbox"
              data-testid={`run-scheduler-${n}`}
              checked={!value.skipped.includes(n)}
              onChange={(e) =>
                onChange({
                  ...value,
                  skipped: e.target.checked ? value.skipped.filter((x) => x !== n) : [...value.skipped, n],
                })
              }
            />
            {n}
          </label>
        ))}
      </div>
      <label>
        threads{' '}
        <input
          type="number"
          min={1}
          data-testid="run-threads"
          placeholder="scenario"
          disabled={virtual}
          title={virtual ? 'a run on virtual cores has one worker thread per virtual core' : undefined}
          value={virtual ? '' : (value.threads ?? '')}
          onChange={(e) => onChange({ ...value, threads: number(e.target.value) })}
        />
      </label>
      <label>
        pace µs/request{' '}
        <input
          type="number"
          min={0}
          step="any"
          data-testid="run-pace"
          placeholder="scenario"
          value={value.paceUs ?? ''}
          onChange={(e) => onChange({ ...value, paceUs: number(e.target.value) })}
        />
      </label>
      <label title="Run the same scheduler code on simulated cores, one thread at a time in virtual time under the reference cost table: deterministic, a model's numbers, never mixed with measured ones">
        <input
          type="checkbox"
          data-testid="run-virtual"
          checked={virtual}
          onChange={(e) => onChange({ ...value, virtualCores: e.target.checked ? Math.min(4, maxVirtual) : null })}
        />
        virtual cores{' '}
        <input
          type="number"
          min={1}
          max={maxVirtual}
          data-testid="run-virtual-cores"
          placeholder="off"
          disabled={!virtual}
          value={value.virtualCores ?? ''}
          onChange={(e) => onChange({ ...value, virtualCores: number(e.target.value) ?? 1 })}
        />
      </label>
      {virtual && (
        <p className="override-note" data-testid="run-virtual-note">
          virtual {value.virtualCores} {value.virtualCores === 1 ? 'core' : 'cores'} (model, reference cost table):
          times and speeds are a model's, not this machine's; 1 to {maxVirtual} here.
        </p>
      )}
      {problems.map((p) => (
        <p key={p.field} className="override-error" role="alert" data-testid={`override-error-${p.field}`}>
          {p.message}
        </p>
      ))}
    </fieldset>
  );
}

/**
 * The state of the current run in one line (phase, then which run of how
 * many and its executed count). Shown beside every control that starts a
 * run: the sidebar's Run and the Author tab's "Run this", and in the
 * Classroom while a lesson's run goes on. The first run of a page starts
 * the engine first: the line says so (`data-starting`).
 */
export function RunPhase() {
  const phase = useRun((s) => s.phase);
  const progress = useRun((s) => s.progress);
  const paused = useRun((s) => s.paused);
  const engineUp = useRun((s) => s.engine.state === 'ready');
  const error = useRun((s) => s.error);
  const running = phase === 'running';
  if (running && !engineUp) {
    return (
      <span className="phase" data-testid="phase" data-phase={phase} data-starting="true">
        starting the engine… (fetching the WebAssembly engine and starting its threads, once per page)
      </span>
    );
  }
  return (
    <span
      className="phase"
      data-testid="phase"
      data-phase={phase}
      title={phase === 'failed' && error ? error : undefined}
    >
      {running && paused ? 'paused' : PHASE_TEXT[phase]}
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
  );
}

/** Run / Cancel, and the state of the run. */
export function RunControls() {
  const phase = useRun((s) => s.phase);
  const engineReady = useRun((s) => s.engine.state === 'ready');
  const run = useRun((s) => s.run);
  const cancel = useRun((s) => s.cancel);
  const paused = useRun((s) => s.paused);
  const setPaused = useRun((s) => s.setPaused);
  const text = useRun((s) => s.text);
  const [overrides, setOverrides] = useState<Overrides>(NO_OVERRIDES);
  const { maxThreads, maxVirtual, poolThreads } = useVirtualLimits();
  const problems = checkOverrides(overrides, maxThreads, { maxVirtualCores: maxVirtual, poolThreads });
  const running = phase === 'running';
  const cancelling = useRun((s) => s.cancelRequested) && running;
  return (
    <section className="controls">
      <button
        type="button"
        data-testid="run"
        disabled={running || problems.length > 0}
        // Intent: the pointer on Run starts the engine (not started before: see EngineInfo).
        onPointerEnter={warmEngine}
        onFocus={warmEngine}
        onClick={() => {
          // From the first screen, a run's results are on the Run tab.
          const nav = navStore.getState();
          if (nav.tab === 'lessons' || nav.tab === 'guide') nav.setTab('run');
          void run(toRunOptions(overrides, text));
        }}
      >
        Run
      </button>
      <button
        type="button"
        data-testid="pause"
        data-paused={String(paused)}
        disabled={!running || cancelling || !engineReady}
        onClick={() => void setPaused(!paused)}
        title="Hold the next requests back; the threads finish what is queued (Resume goes on)"
      >
        {paused ? 'Resume' : 'Pause'}
      </button>
      <button type="button" data-testid="cancel" disabled={!running || cancelling} onClick={() => void cancel()}>
        {cancelling ? 'Cancelling…' : 'Cancel'}
      </button>
      <OverridePicker value={overrides} onChange={setOverrides} disabled={running} problems={problems} />
      <RunPhase />
    </section>
  );
}
