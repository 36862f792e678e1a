/**
 * Replay controls (after raftscope): a scrubber over the primary track's
 * events with an activity strip, step back / play / step forward, Home/End,
 * a log-scale slowdown slider, and jumps to the next synchronization or
 * steal. Everything here only moves the replay store.
 */
import { useEffect, useRef } from 'react';
import { MAX_SLOWDOWN, MIN_SLOWDOWN, replayStore, useReplay } from '../replay/store';
import { usePalette } from './display';

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

/** First index in sorted `xs` greater than `p - 1` (the next mark at or after position p). */
function nextMark(xs: Int32Array, p: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < p) lo = mid + 1;
    else hi = mid;
  }
  return lo < xs.length ? xs[lo] + 1 : -1;
}

function ActivityStrip() {
  const tracks = useReplay((s) => s.tracks);
  const pal = usePalette();
  const ref = useRef<HTMLCanvasElement>(null);
  const model = tracks[0]?.model;
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

export function Timeline() {
  const tracks = useReplay((s) => s.tracks);
  const position = useReplay((s) => s.position);
  const timeNs = useReplay((s) => s.timeNs);
  const playing = useReplay((s) => s.playing);
  const slowdown = useReplay((s) => s.slowdown);
  const st = replayStore.getState();
  const model = tracks[0]?.model;
  if (!model) return null;
  const n = model.length;
  const idx = model.index;
  const jump = (marks: Int32Array) => {
    const p = nextMark(marks, position + 1);
    if (p > 0) {
      st.pause();
      st.seek(p);
    }
  };
  return (
    <div className="timeline" data-testid="timeline">
      <div className="timeline-row">
        <button type="button" onClick={() => st.home()} title="Home" aria-label="to start">
          |◀
        </button>
        <button
          type="button"
          onClick={() => st.step(-1)}
          title="← one event back"
          aria-label="step back"
          data-testid="step-back"
        >
          ◀
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
          onClick={() => st.step(1)}
          title="→ one event forward"
          aria-label="step forward"
          data-testid="step-forward"
        >
          ▶
        </button>
        <button type="button" onClick={() => st.end()} title="End" aria-label="to end">
          ▶|
        </button>
        <span className="timeline-pos" data-testid="position" data-position={position} data-events={n}>
          event {position.toLocaleString()} / {n.toLocaleString()} · {fmtNs(timeNs)}
        </span>
        <label className="speed">
          slowdown
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
        </label>
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
        <span className="muted">jump to next:</span>
        <button
          type="button"
          disabled={idx.arrivals.length === 0}
          onClick={() => jump(idx.arrivals)}
          data-testid="next-arrive"
        >
          arrival ({idx.arrivals.length})
        </button>
        <button
          type="button"
          disabled={idx.releases.length === 0}
          onClick={() => jump(idx.releases)}
          data-testid="next-release"
        >
          sync release ({idx.releases.length})
        </button>
        <button
          type="button"
          disabled={idx.steals.length === 0}
          onClick={() => jump(idx.steals)}
          data-testid="next-steal"
        >
          steal ({idx.steals.length})
        </button>
        <span className="muted keys">keys: space play/pause · ←/→ step (shift ×10) · Home/End</span>
      </div>
    </div>
  );
}
