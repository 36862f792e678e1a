/**
 * Replay controls (after raftscope): a scrubber over the leading track's
 * events with an activity strip, step back / play / step forward by
 * algorithm step, Home/End, the pace (class, brisk, fast steps, or run time
 * over a log-scale slowdown), and where the run is in requests: delivered
 * and completed of the stream. Everything here only moves the replay store.
 */
import { useEffect, useRef } from 'react';
import { completedAt } from '../replay/progress';
import { MAX_SLOWDOWN, MIN_SLOWDOWN, replayStore, STEP_PACES_MS, useLeadTrack, useReplay } from '../replay/store';
import { usePalette } from './display';
import { fmtInt, progressWords } from './status';
import { JumpButtons } from './jumps';

function fmtNs(ns: number): string {
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(3)} s`;
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(3)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(1)} µs`;
  return `${Math.round(ns)} ns`;
}

function fmtSlowdown(s: number): string {
  if (s >= 1e6) return `${(s / 1e6).toFixed(s >= 1e7 ? 0 : 1)}M×`;
  if (s >= 1e3) return `${(s / 1e3).toFixed(s >= 1e4 ? 0 : 1)}k×`;
  return `${s.toFixed(s >= 10 ? 0 : 1)}×`;
}

const PACE_NAMES: Record<number, string> = { 1600: 'class', 700: 'brisk', 250: 'fast', 80: 'very fast' };

function ActivityStrip() {
  const pal = usePalette();
  const ref = useRef<HTMLCanvasElement>(null);
  const model = useLeadTrack()?.model;
  useEffect(() => {
    const c = ref.current;
    if (!c || !model) return;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    const a = model.index.activity;
    const w = (c.width = a.length);
    const h = (c.height = 24);
    ctx.fillStyle = pal.laneBg;
    ctx.fillRect(0, 0, w, h);
    let max = 1;
    for (const v of a) max = Math.max(max, v);
    ctx.fillStyle = pal.exec;
    a.forEach((v, i) => {
      const bh = (v / max) * h;
      ctx.fillRect(i, h - bh, 1, bh);
    });
  }, [model, pal]);
  return <canvas ref={ref} className="activity" aria-hidden="true" />;
}

/** Play pace: steps at a class pace (default), or run time over a slowdown. */
function PaceControl() {
  const mode = useReplay((s) => s.mode);
  const stepMs = useReplay((s) => s.stepMs);
  const slowdown = useReplay((s) => s.slowdown);
  const st = replayStore.getState();
  const value = mode === 'time' ? 'time' : String(stepMs);
  return (
    <label className="speed">
      pace
      <select
        value={value}
        onChange={(e) => {
          if (e.target.value === 'time') st.setMode('time');
          else {
            st.setMode('steps');
            st.setStepMs(Number(e.target.value));
          }
        }}
        data-testid="pace"
        aria-label="play pace"
      >
        {STEP_PACES_MS.map((ms) => (
          <option key={ms} value={ms}>
            {PACE_NAMES[ms] ?? `${ms} ms`}: 1 step / {(ms / 1000).toFixed(ms < 1000 ? 2 : 1)} s
          </option>
        ))}
        <option value="time">run time, slowed down</option>
      </select>
      {mode === 'time' && (
        <>
          <input
            type="range"
            min={Math.log10(MIN_SLOWDOWN)}
            max={Math.log10(MAX_SLOWDOWN)}
            step={0.05}
            value={Math.log10(slowdown)}
            onChange={(e) => st.setSlowdown(10 ** Number(e.target.value))}
            data-testid="slowdown"
            aria-label="slowdown, log scale"
          />
          <span className="speed-val">{fmtSlowdown(slowdown)}</span>
        </>
      )}
    </label>
  );
}

export function Timeline() {
  const tracks = useReplay((s) => s.tracks);
  const leader = useReplay((s) => s.leader);
  const position = useReplay((s) => s.position);
  const timeNs = useReplay((s) => s.timeNs);
  const playing = useReplay((s) => s.playing);
  const st = replayStore.getState();
  const track = useLeadTrack();
  const model = track?.model;
  if (!model) return null;
  const n = model.length;
  const state = model.stateAt(position);
  const done = completedAt(model, position);
  const words = progressWords(model.index, state.scheduler.delivered, done);
  return (
    <div className="timeline" data-testid="timeline">
      <div className="timeline-row">
        <button type="button" onClick={() => st.home()} title="Home: start of the run" aria-label="to start">
          |◀
        </button>
        <button
          type="button"
          onClick={() => st.stepAlgo(-1)}
          title="← one step back (shift: one trace event)"
          aria-label="step back"
          data-testid="step-back"
        >
          ◀ step
        </button>
        <button
          type="button"
          onClick={() => st.toggle()}
          title="space: play / pause"
          data-testid="play"
          className="play"
        >
          {playing ? '❚❚ pause' : '▶ play'}
        </button>
        <button
          type="button"
          onClick={() => st.stepAlgo(1)}
          title="→ one step forward (shift: one trace event)"
          aria-label="step forward"
          data-testid="step-forward"
        >
          step ▶
        </button>
        <button type="button" onClick={() => st.end()} title="End: end of the run" aria-label="to end">
          ▶|
        </button>
        <span
          className="timeline-pos"
          data-testid="position"
          data-position={position}
          data-events={n}
          data-delivered={state.scheduler.delivered}
          data-completed={done}
        >
          <b>{words.delivered}</b>
          {words.of}
          <b>{words.completed}</b>
          {words.done}
          {tracks.length > 1 && <> ({track.label} leads)</>}
          <span className="muted">
            {' '}
            · {fmtNs(timeNs)} · event {fmtInt(position)}/{fmtInt(n)}
          </span>
        </span>
        <PaceControl />
      </div>
      <div className="scrub">
        <ActivityStrip />
        <input
          type="range"
          min={0}
          max={n}
          step={1}
          value={position}
          onChange={(e) => {
            st.pause();
            st.seek(Number(e.target.value));
          }}
          data-testid="scrubber"
          aria-label="replay position"
        />
      </div>
      <div className="timeline-row jumps">
        <JumpButtons i={leader} />
        <span className="muted keys">space play · ←/→ step (shift: one event) · Home/End</span>
      </div>
    </div>
  );
}
