/** Threads and queues: a canvas per track, redrawn on every replay move. */
import { useEffect, useRef, type RefObject } from 'react';
import { fontPx, useDisplay, usePalette } from '../display';
import type { ViewProps } from '../registry';
import type { Track } from '../../replay/store';
import { deliveryTotal, itemLetter, schedulerStatus, statusContext } from '../status';
import { useSize } from '../useSize';
import { replayStore, useReplay } from '../../replay/store';
import { drawLanes, heightFor, layoutFor, runFit, type Drawn } from './draw';
import { FLAG_COLORS, isEventStream, type PackedTrace } from '../../trace/codec';

/** Playing by run time: thousands of events a second, drawn without transitions. */
function racing(): boolean {
  const r = replayStore.getState();
  return r.playing && r.mode === 'time';
}

const reducedMotion = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * How long the chips take to move to a new replay position: a step or a
 * few events animate (dispatch, take, steal, gathering at a barrier); a
 * jump, a scrub or fast play redraws at once, so scrubbing stays cheap.
 */
function transitionMs(moved: number): number {
  const r = replayStore.getState();
  if (moved === 0 || reducedMotion || Math.abs(moved) > 400 || r.moved === 'jump') return 0;
  if (r.playing && (r.mode === 'time' || r.stepMs < 200)) return 0;
  return r.playing ? Math.min(600, r.stepMs * 0.5) : 450;
}

/**
 * An event-driven run (the coloring family): its requests are events, each
 * registered with a color. Told by a kind the vocabulary flags `event-stream`.
 */
export function isEventRun(track: Track): boolean {
  return isEventStream(track.model.index.kindCounts);
}

const eventColorTables = new WeakMap<PackedTrace, Int32Array>();

/**
 * Each event's color, indexed by event id (-1: never registered), in the
 * shape of the index's class table so the lanes draw a chip in its event's
 * color the way they draw a request in its class's. One pass, cached per trace.
 */
export function eventColors(trace: PackedTrace): Int32Array {
  let table = eventColorTables.get(trace);
  if (table) return table;
  // Kinds the vocabulary flags `colors` name an event and its color.
  let n = 0;
  for (let i = 0; i < trace.length; i++) {
    const c = FLAG_COLORS[trace.kind(i)];
    if (c) n = Math.max(n, trace.get(i, c.req) + 1);
  }
  table = new Int32Array(n).fill(-1);
  for (let i = 0; i < trace.length; i++) {
    const c = FLAG_COLORS[trace.kind(i)];
    if (c) table[trace.get(i, c.req)] = trace.get(i, c.color);
  }
  eventColorTables.set(trace, table);
  return table;
}

/**
 * What a chip's fill says in an event-driven run: its event's color (no
 * class, no read or write, no barrier: those belong to request runs).
 */
function ColorLegend({ box }: { box: RefObject<HTMLDivElement | null> }) {
  return (
    <div className="class-legend" data-testid="color-legend" ref={box}>
      <span className="muted">chip color = the event's color · framed: executing · purple outline: stolen</span>
    </div>
  );
}

/** Which color is which class (only the classes of this run). */
function ClassLegend({ track, box }: { track: Track; box: RefObject<HTMLDivElement | null> }) {
  const pal = usePalette();
  if (isEventRun(track)) return <ColorLegend box={box} />;
  const names = track.classNames.slice(0, track.model.index.classes);
  return (
    <div className="class-legend" data-testid="class-legend" ref={box}>
      {names.map((n, c) => (
        <span key={n} className="chip" style={{ background: pal.classColor(c) }}>
          {n}
        </span>
      ))}
      <span className="muted">
        {' '}
        R = read, W = write, g = global · framed: executing · hatched: held at a barrier or cycle · purple outline:
        stolen
      </span>
    </div>
  );
}

/** What a track's legend says: its event colors, or its classes' names (tracks with equal keys share one legend). */
function legendKey(track: Track): string {
  return isEventRun(track) ? 'events' : track.classNames.slice(0, track.model.index.classes).join('\u0000');
}

export function LaneCanvas(
  props: ViewProps & { i: number; width: number; fitHeight: number; ownLegend?: boolean; runName?: string },
) {
  const { tracks, states, positions, statuses, i, width, fitHeight, ownLegend = true, runName } = props;
  const track = tracks[i];
  const state = states[i];
  const canvas = useRef<HTMLCanvasElement>(null);
  const large = useDisplay((s) => s.large);
  const pal = usePalette();
  // The class legend sits under the lanes and is part of the picture: the
  // lanes get what is left after it (it wraps to two lines on a narrow view).
  const legend = useRef<HTMLDivElement>(null);
  const measured = useSize(legend, { width: 0, height: Math.round(fontPx(large) * 2.4) }).height + 8;
  const legendH = ownLegend ? measured : 0;
  const lanesFit = Math.max(0, fitHeight - legendH);
  const layout = layoutFor(width, fontPx(large), state.lanes.length, lanesFit);
  const height = heightFor(layout, state.lanes.length);
  // Room left under the lanes and the legend for one line per thread?
  // While racing, the hidden list (for screen readers and tests) is not kept up: no one reads it at that pace.
  const racingNow = useReplay((s) => s.playing && s.mode === 'time');
  const showText = lanesFit - height > (state.lanes.length + 1.5) * fontPx(large) * 1.6;
  // The last frame's chips and the transition in progress (see `Transition` in draw.ts).
  const drawnRef = useRef<Drawn | null>(null);
  const lastPos = useRef(positions[i]);
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
    const input = {
      state,
      statuses: statuses[i],
      event: track.model.eventBefore(positions[i]),
      // An event run's chips take their event's color, a request run's its class's.
      reqClass: isEventRun(track) ? eventColors(track.model.trace) : track.model.index.reqClass,
      classNames: track.classNames,
      schedulerText: schedulerStatus(state, statusContext(track), deliveryTotal(track.model.index)),
      item: itemLetter(statusContext(track)),
      run: runName,
    };
    const pos = positions[i];
    const moved = pos - lastPos.current;
    lastPos.current = pos;
    const dur = transitionMs(moved);
    const from = drawnRef.current;
    if (!from || dur === 0) {
      const drawn = drawLanes(ctx, layout, pal, input);
      // Playing by run time never animates: keeping each frame's chips would be wasted work.
      drawnRef.current = racing() ? null : drawn;
      return;
    }
    const start = performance.now();
    let raf = 0;
    const frame = () => {
      const t = (performance.now() - start) / dur;
      drawnRef.current = drawLanes(ctx, layout, pal, input, t < 1 ? { from, t } : undefined);
      if (t < 1) raf = requestAnimationFrame(frame);
    };
    frame();
    return () => cancelAnimationFrame(raf);
  });
  const queued = state.lanes.reduce((n, l) => n + l.queue.length, 0);
  return (
    <div className="lane-canvas" data-testid="threads-view">
      <canvas
        ref={canvas}
        style={{ width: '100%', height, display: 'block' }}
        role="img"
        title={runName}
        aria-label={`${track.label}: ${state.lanes.length} threads, ${queued} queued requests`}
        data-queued={queued}
        data-executing={state.lanes.filter((l) => l.exec >= 0).length}
        data-lane-h={layout.laneH}
        data-font={layout.font}
      />
      {ownLegend && <ClassLegend track={track} box={legend} />}
      {/* The lanes in words (the same statuses the canvas draws): shown when there is room, else for screen readers. */}
      <ul className={showText ? 'lane-status' : 'sr-only'} data-testid="lane-status">
        {(showText || !racingNow ? statuses[i] : []).map((st) => (
          <li
            key={st.thread}
            data-thread={st.thread}
            data-activity={st.activity}
            data-req={st.req}
            className={`tone-${st.tone}`}
          >
            <b>T{st.thread}</b> {st.text} · queue {st.queue}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The tracks stacked, each as wide as the view and an equal share of its height. */
export function ThreadsView(props: ViewProps) {
  const box = useRef<HTMLDivElement>(null);
  const { width, height } = useSize(box);
  const n = Math.max(1, props.tracks.length);
  // Runs whose legends say the same share one, under the last: side by side
  // at 1280 x 720 in large type, a legend per run did not fit under lanes
  // already at their smallest and was cut.
  const shared = n > 1 && props.tracks.every((t) => legendKey(t) === legendKey(props.tracks[0]));
  const legend = useRef<HTMLDivElement>(null);
  const sharedH = useSize(legend, { width: 0, height: 40 }).height;
  const fit = runFit(height, n, shared ? sharedH + 12 : 0);
  return (
    <div className="track-stack fill" data-count={props.tracks.length} ref={box}>
      {props.tracks.map((t, i) => (
        <div key={t.key} className="track-cell">
          {/* Stacked runs: the name is drawn in the scheduler's row; the heading is for screen readers. */}
          {n > 1 && <h3 className="track-title sr-only">{t.label}</h3>}
          <LaneCanvas
            {...props}
            i={i}
            width={Math.max(320, width)}
            fitHeight={fit}
            ownLegend={!shared}
            runName={n > 1 ? t.label : undefined}
          />
        </div>
      ))}
      {shared && <ClassLegend track={props.tracks[0]} box={legend} />}
    </div>
  );
}
