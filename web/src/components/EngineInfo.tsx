import { useRun, warmEngine } from '../store';

/**
 * Engine status line: pool threads, cores, isolation. Until something needs
 * the engine it is not fetched (the first screen stays light); the badge
 * then offers to start it now, e.g. before a class, so the first lesson
 * does not wait for the download.
 */
export function EngineInfo() {
  const engine = useRun((s) => s.engine);
  if (engine.state === 'idle') {
    return (
      <button
        type="button"
        className="engine-info link"
        data-testid="engine-info"
        data-state="idle"
        onClick={warmEngine}
        title="The engine (WebAssembly, about 350 KB compressed, and its thread pool) starts with the first run or lesson; click to start it now"
      >
        engine starts on first run · start now
      </button>
    );
  }
  if (engine.state === 'starting') {
    return (
      <span className="engine-info" data-testid="engine-info" data-state="starting">
        starting the engine…
      </span>
    );
  }
  if (engine.state === 'failed') {
    return (
      <span className="engine-info engine-failed" data-testid="engine-info" data-state="failed" role="alert">
        the engine could not start: {engine.error}{' '}
        <button type="button" className="link" data-testid="engine-retry" onClick={warmEngine}>
          try again
        </button>
      </span>
    );
  }
  const i = engine.info;
  return (
    <span
      className="engine-info"
      data-testid="engine-info"
      data-state="ready"
      data-pool-threads={i.poolThreads}
      data-isolated={String(i.crossOriginIsolated)}
      title={`engine ${i.version}; pool started in ${i.initMs.toFixed(0)} ms; features: ${i.features.join(', ') || 'none'}`}
    >
      engine {i.version} · pool {i.poolThreads} threads · {i.hardwareConcurrency} cores ·{' '}
      {i.crossOriginIsolated ? 'cross-origin isolated' : 'NOT isolated'}
      {i.features.length > 0 && <> · {i.features.join(', ')}</>}
    </span>
  );
}
