import { useRun } from '../store';

/** Engine status line: pool threads, cores, isolation. */
export function EngineInfo() {
  const engine = useRun((s) => s.engine);
  if (engine.state === 'starting') {
    return (
      <span className="engine-info" data-testid="engine-info" data-state="starting">
        starting engine…
      </span>
    );
  }
  if (engine.state === 'failed') {
    return (
      <span className="engine-info engine-failed" data-testid="engine-info" data-state="failed" role="alert">
        engine failed: {engine.error}
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
