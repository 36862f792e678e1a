/**
 * The classroom while a run goes on: the real worker threads, live. Every
 * poll (100 ms) the engine's snapshot gives each worker's executed count,
 * queue length and state (`RunSnapshot.workers`); the lanes show them, with
 * the executed rate since the last poll. Below, the live throughput of
 * each run so far. The replay opens when the run finishes.
 */
import type { LiveSample, RunSnapshot } from '../../engine/protocol';
import { useRun } from '../../store';
import { RunPhase } from '../../components/RunControls';
import { usePalette } from '../display';
import { schedulerColor } from '../families';
import { fmtInt } from '../status';
import { ChartsView } from '../charts/ChartsView';

const TONE: Record<LiveSample['state'], 'idle' | 'exec' | 'wait' | 'steal'> = {
  idle: 'idle',
  executing: 'exec',
  waiting: 'wait',
  stealing: 'steal',
};

/** Executed per second of each worker between two polls of the same run. */
export function workerRates(prev: RunSnapshot | null, cur: RunSnapshot): number[] {
  const w = cur.workers ?? [];
  if (!prev || prev.run_index !== cur.run_index || !prev.workers) return w.map(() => 0);
  const dt = (cur.elapsed_ms - prev.elapsed_ms) / 1000;
  if (dt <= 0) return w.map(() => 0);
  return w.map((x, t) => Math.max(0, (x.executed - (prev.workers?.[t]?.executed ?? 0)) / dt));
}

function WorkerLanes({ snap, rates }: { snap: RunSnapshot; rates: number[] }) {
  const pal = usePalette();
  const workers = snap.workers ?? [];
  const most = Math.max(1, ...workers.map((w) => w.executed));
  const deepest = Math.max(1, ...workers.map((w) => w.queue_len));
  return (
    <ul className="live-lanes" data-testid="live-lanes">
      {workers.map((w, t) => (
        <li key={t} data-thread={t} data-state={w.state} data-executed={w.executed} data-queue={w.queue_len}>
          <b>T{t}</b>
          <span className="live-state" style={{ color: pal[TONE[w.state]] }}>
            {w.state}
          </span>
          <span className="live-bar" title={`${fmtInt(w.executed)} executed`}>
            <span style={{ width: `${(100 * w.executed) / most}%`, background: pal.exec }} />
          </span>
          <span className="live-num">{fmtInt(w.executed)} done</span>
          <span className="live-bar queue" title={`${w.queue_len} queued`}>
            <span style={{ width: `${(100 * w.queue_len) / deepest}%`, background: pal.wait }} />
          </span>
          <span className="live-num">{fmtInt(w.queue_len)} queued</span>
          <span className="live-num muted">{fmtInt(Math.round(rates[t] ?? 0))}/s</span>
        </li>
      ))}
    </ul>
  );
}

export function LiveThreads() {
  const snap = useRun((s) => s.progress);
  const prev = useRun((s) => s.prevProgress);
  const hc = usePalette().bg === '#000000';
  const rates = snap ? workerRates(prev, snap) : [];
  const engineUp = useRun((s) => s.engine.state === 'ready');
  return (
    <div className="classroom-live" data-testid="classroom-running">
      <div className="live-head">
        {!engineUp ? (
          // The page's first run: the engine is being fetched and started.
          <p data-testid="live-starting">
            <RunPhase />
          </p>
        ) : !snap || snap.runs_total === 0 ? (
          <p>Generating the request stream and the sequential reference…</p>
        ) : (
          <p data-testid="live-progress">
            Live: run {snap.run_index + 1} of {snap.runs_total},{' '}
            <b style={{ color: schedulerColor(snap.scheduler, hc) }}>{snap.scheduler}</b> on {snap.threads} threads ·{' '}
            {fmtInt(snap.delivered)} delivered · {fmtInt(snap.executed)} of {fmtInt(snap.requests)} executed
            {snap.paused && ' · paused'}. The replay opens when the run ends.
          </p>
        )}
        {snap && snap.runs_total > 0 && !snap.workers && (
          <p className="muted" data-testid="live-no-workers">
            This engine build does not report per-thread figures while running; the replay shows every thread once the
            run ends.
          </p>
        )}
      </div>
      {snap?.workers && <WorkerLanes snap={snap} rates={rates} />}
      <div className="view-box">
        <ChartsView tracks={[]} positions={[]} states={[]} statuses={[]} runs={[]} allRuns={[]} />
      </div>
    </div>
  );
}
