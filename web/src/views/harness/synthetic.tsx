/**
 * The classroom views on synthetic traces, for load tests and frame
 * benchmarks only (the harness page, never the app):
 * `src/views/harness/index.html?synthetic=ws&threads=16&events=1000000`
 * (also `synthetic=early,busy-wait` to compare). The trace comes from the
 * simulator in `trace/synth.ts`, generated and indexed on the page's thread
 * before the views show it, and every label says "synthetic": it is never
 * presented as a run.
 */
import { useEffect, useState } from 'react';
import type { RunReport } from '../../engine/protocol';
import { replayStore, type Track } from '../../replay/store';
import { loadTraceHere } from '../../trace/load';
import { synthesize, type SynthOptions } from '../../trace/synth';
import { ClassroomView } from '../ClassroomView';

type Mode = SynthOptions['mode'];
const MODES: readonly Mode[] = ['early', 'busy-wait', 'ws'];
const schedulerOf: Record<Mode, string> = { early: 'early', 'busy-wait': 'busy-wait', ws: 'ws-conservative' };

export function syntheticModes(q: URLSearchParams): Mode[] | null {
  const v = q.get('synthetic');
  if (!v) return null;
  const modes = v.split(',').filter((m): m is Mode => (MODES as readonly string[]).includes(m));
  return modes.length > 0 ? modes.slice(0, 4) : null;
}

export function synthOptions(mode: Mode, q: URLSearchParams): SynthOptions {
  const num = (k: string, d: number) => (q.has(k) ? Number(q.get(k)) : d);
  return {
    mode,
    threads: num('threads', 4),
    requests: num('requests', q.has('events') ? 1e9 : 400),
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

export function SyntheticClassroom({ modes, q }: { modes: Mode[]; q: URLSearchParams }) {
  const [status, setStatus] = useState('Generating a synthetic trace…');
  const [runs, setRuns] = useState<RunReport[]>([]);
  useEffect(() => {
    const t0 = performance.now();
    // After a first paint of the status: generating a 1M-event trace takes a few seconds.
    const made = new Promise<{ model: Track['model']; mapping: Track['mapping'] }[]>((resolve) =>
      setTimeout(() =>
        resolve(
          modes.map((m) => {
            const s = synthesize(synthOptions(m, q));
            return { model: loadTraceHere(s.buffer), mapping: s.mapping };
          }),
        ),
      ),
    );
    made.then(
      (loaded) => {
        const tracks: Track[] = loaded.map((l, i) => ({
          key: `synth-${i}`,
          label: `${schedulerOf[modes[i]]} (synthetic)`,
          scheduler: schedulerOf[modes[i]],
          model: l.model,
          classNames: (l.mapping ?? []).map((m) => m.class),
          mapping: l.mapping ?? [],
        }));
        // Simulated runs: only what the views read of a report run.
        setRuns(
          tracks.map(
            (t) => ({ scheduler: t.scheduler, label: t.label, threads: t.model.index.threads }) as unknown as RunReport,
          ),
        );
        replayStore.getState().setTracks(tracks);
        const n = tracks.map((t) => t.model.length.toLocaleString()).join(' + ');
        setStatus(
          `Synthetic trace (simulator, not the engine): ${n} events, ready in ${Math.round(performance.now() - t0)} ms.`,
        );
      },
      (e: unknown) => setStatus(`Synthetic trace failed: ${e instanceof Error ? e.message : String(e)}`),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div className="classroom-panel">
      <div className="run-choice">
        <span data-testid="synthetic-status">{status}</span>
      </div>
      <ClassroomView allRuns={runs} runs={runs} />
    </div>
  );
}
