/**
 * Dev-only harness: the classroom views on SYNTHETIC traces from the
 * simulator in `trace/synth.ts` (not the engine), for load tests and frame
 * benchmarks without wasm. Served by `vite` at
 * `/src/views/harness/index.html?mode=ws&threads=16&requests=5000&events=1000000&compare=early,busy-wait`.
 * The page says "synthetic" everywhere it shows a run.
 */
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { replayStore, type Track } from '../../replay/store';
import { loadSynthetic } from '../../trace/load';
import type { SynthOptions } from '../../trace/synth';
import { ClassroomView, DisplayToggles } from '../ClassroomView';
import '../classroom.css';
import type { RunLike } from '../registry';

type Mode = SynthOptions['mode'];

function options(mode: Mode, q: URLSearchParams): SynthOptions {
  const num = (k: string, d: number) => (q.has(k) ? Number(q.get(k)) : d);
  return {
    mode,
    threads: num('threads', 4),
    requests: num('requests', 400),
    shards: num('shards', 2),
    writes: num('writes', 0.2),
    global: num('global', 0.05),
    seed: num('seed', 1),
    execTicks: num('exec', 4),
    maxEvents: q.has('events') ? num('events', 0) : undefined,
    queueBound: num('bound', 64),
    skew: q.has('skew') ? num('skew', 0) : undefined,
  };
}

const schedulerOf: Record<Mode, string> = { early: 'early', 'busy-wait': 'busy-wait', ws: 'ws-conservative' };

function Harness() {
  const q = new URLSearchParams(window.location.search);
  const modes = (q.get('compare') ?? q.get('mode') ?? 'early').split(',') as Mode[];
  const [status, setStatus] = useState('generating synthetic trace in the worker…');
  const [runs, setRuns] = useState<RunLike[]>([]);
  useEffect(() => {
    const t0 = performance.now();
    Promise.all(modes.map((m) => loadSynthetic(options(m, q)))).then((loaded) => {
      const tracks: Track[] = loaded.map((l, i) => ({
        key: `synth-${i}`,
        label: `${schedulerOf[modes[i]]} (synthetic)`,
        scheduler: schedulerOf[modes[i]],
        model: l.model,
        classNames: (l.mapping ?? []).map((m) => m.class),
        mapping: l.mapping ?? [],
      }));
      setRuns(tracks.map((t) => ({ scheduler: t.scheduler, label: t.label, threads: t.model.index.threads })));
      replayStore.getState().setTracks(tracks);
      const n = tracks.map((t) => t.model.length).join(' + ');
      setStatus(`synthetic trace ready: ${n} events in ${Math.round(performance.now() - t0)} ms`);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div>
      <p data-testid="harness-status">
        {status} <DisplayToggles />
      </p>
      <ClassroomView allRuns={runs} runs={runs} />
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Harness />
  </StrictMode>,
);
