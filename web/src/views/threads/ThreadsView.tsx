/** Threads and queues: a canvas per track, redrawn on every replay move. */
import { useEffect, useRef, useState } from 'react';
import { fontPx, useDisplay, usePalette } from '../display';
import type { ViewProps } from '../registry';
import { schedulerStatus, statusContext } from '../status';
import { drawLanes, heightFor, layoutFor } from './draw';

function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [w, setW] = useState(800);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setW(Math.max(320, Math.floor(el.clientWidth))));
    ro.observe(el);
    setW(Math.max(320, Math.floor(el.clientWidth)));
    return () => ro.disconnect();
  }, [ref]);
  return w;
}

export function LaneCanvas(props: ViewProps & { i: number }) {
  const { tracks, states, positions, statuses, i } = props;
  const track = tracks[i];
  const state = states[i];
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useWidth(box);
  const large = useDisplay((s) => s.large);
  const pal = usePalette();
  const layout = layoutFor(width, fontPx(large));
  const height = heightFor(layout, state.lanes.length);
  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const dpr = window.devicePixelRatio || 1;
    // Resizing a canvas reallocates it: only when the size really changed.
    const w = Math.round(width * dpr);
    const h = Math.round(height * dpr);
    if (c.width !== w) c.width = w;
    if (c.height !== h) c.height = h;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawLanes(ctx, layout, pal, {
      state,
      statuses: statuses[i],
      event: track.model.eventBefore(positions[i]),
      reqClass: track.model.index.reqClass,
      classNames: track.classNames,
      schedulerText: schedulerStatus(state, statusContext(track), track.model.index.requests),
    });
  });
  const queued = state.lanes.reduce((n, l) => n + l.queue.length, 0);
  return (
    <div ref={box} className="lane-canvas" data-testid="threads-view">
      <canvas
        ref={canvas}
        style={{ width: '100%', height, display: 'block' }}
        role="img"
        aria-label={`${track.label}: ${state.lanes.length} threads, ${queued} queued requests`}
        data-queued={queued}
        data-executing={state.lanes.filter((l) => l.exec >= 0).length}
      />
      {/* The lanes in words, for screen readers and tests: the same statuses the canvas draws. */}
      <ul className="sr-only" data-testid="lane-status">
        {statuses[i].map((st) => (
          <li key={st.thread} data-thread={st.thread} data-activity={st.activity} data-req={st.req}>
            T{st.thread}: {st.text}; queue {st.queue}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ThreadsView(props: ViewProps) {
  return (
    <div className="track-grid" data-count={props.tracks.length}>
      {props.tracks.map((t, i) => (
        <div key={t.key} className="track-cell">
          {props.tracks.length > 1 && <h3 className="track-title">{t.label}</h3>}
          <LaneCanvas {...props} i={i} />
        </div>
      ))}
    </div>
  );
}
