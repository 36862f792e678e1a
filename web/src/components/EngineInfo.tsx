import { useRun, warmEngine } from '../store';

/**
 * Engine status line: pool threads, cores, isolation. Until something needs
 * the engine it is not fetched (the first screen stays light); the badge
 * then offers to start it now, e.g. before a class, so the first lesson
 * does not wait for the download.
 */
/** The loaded engine package (issue 30), and why it is full when a family's was asked for. */
function packageTitle(i: { package: string; asked: string }): string {
  if (i.package === 'full') return i.asked === 'full' ? 'full' : `full (the ${i.asked} package is not in this build)`;
  return `${i.package} (its family and sequential; another scenario loads another package)`;
}

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
      data-package={i.package}
      title={`engine ${i.version}, package ${packageTitle(i)}; pool started in ${i.initMs.toFixed(0)} ms; features: ${i.features.join(', ') || 'none'}`}
    >
      engine {i.version} ({i.package}) · pool {i.poolThreads} threads · {i.hardwareConcurrency} cores ·{' '}
      {i.crossOriginIsolated ? 'cross-origin isolated' : 'NOT isolated'}
      {i.features.length > 0 && <> · {i.features.join(', ')}</>}
    </span>
  );
}
