/**
 * The event-coloring view (paper 002: Libasync-smp and Mely): for each
 * coloring run, at the replay position,
 * - every core with the event it runs and its queued events, grouped in
 *   color-queues (Mely's own order; Libasync-smp's one FIFO grouped by
 *   color), each event a chip in its color, with live counts;
 * - Mely's stealing queue per core: the colors worth stealing, in
 *   intervals of time left, the one a stealer would look at first marked;
 * - the last steal drawn victim -> stealer with the whole color moving;
 * - the last refused steal with its reason ("time left 3 µs < steal cost
 *   8 µs");
 * - one color's executions on a time strip, where they never overlap.
 * model.ts reads the trace once and replays the queues from checkpoints.
 */
import { useMemo, useRef } from 'react';
import { replayStore } from '../../replay/store';
import type { Track } from '../../replay/store';
import { fontPx, useDisplay, usePalette, type Palette } from '../display';
import { familyOf, type ViewProps } from '../registry';
import { useSize } from '../useSize';
import { useWholeRows } from '../wholeRows';
import { ArrowMarker } from '../../components/ArrowMarker';
import {
  colorRuns,
  INTERVALS,
  overlaps,
  stateAt,
  timeline,
  type ColorTimeline,
  type CoreNow,
  type Steal,
} from './model';
import { measuredUs, refusalText, us } from './words';
import './coloring.css';

/** Event chips drawn per core; the rest are counted. */
const MAX_CHIPS = 48;
/** Offers listed per interval of a stealing queue. */
const MAX_OFFERS = 6;

/**
 * The view's rows: a color's chip, a core's name, its running event and
 * count, a stealing queue's line. Each is shown whole or not at all.
 */
const ROWS =
  '.coloring-chip, .coloring-core-name, .coloring-running, .coloring-queued, .coloring-more, .coloring-sq-core';

export function ColoringView(props: ViewProps) {
  const view = useRef<HTMLDivElement>(null);
  useWholeRows(view, ROWS);
  return (
    <div className="coloring-view" data-testid="coloring-view" ref={view}>
      <ColoringTracks {...props} />
    </div>
  );
}

function ColoringTracks({ tracks, states, positions }: ViewProps) {
  const mine = tracks
    .map((track, i) => ({ track, i }))
    .filter(({ track }) => (track.family ?? familyOf(track.scheduler)) === 'coloring');
  if (mine.length === 0) return <p>Load an event-coloring run (libasync or mely) to see its cores and colors.</p>;
  return (
    <>
      {mine.map(({ track, i }) => (
        <ColoringTrack key={track.key} i={i} track={track} tNs={states[i]?.tNs ?? 0} pos={positions[i] ?? 0} />
      ))}
    </>
  );
}

/** Last element with `i < pos`, by trace index. */
function lastBefore<T extends { i: number }>(xs: readonly T[], pos: number): { at: number; x?: T } {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid].i < pos) lo = mid + 1;
    else hi = mid;
  }
  return { at: lo, x: lo > 0 ? xs[lo - 1] : undefined };
}

/**
 * A button that leads the replay of track `track` to just after the first of
 * `marks` at or after `pos` (disabled when none is left).
 */
function NextMark(p: { marks: readonly { i: number }[]; track: number; pos: number; testId: string; what: string }) {
  const next = p.marks.find((m) => m.i >= p.pos);
  const jump = () => {
    if (!next) return;
    const st = replayStore.getState();
    st.pause();
    st.lead(p.track, next.i + 1);
  };
  return (
    <button type="button" disabled={!next} onClick={jump} data-testid={p.testId}>
      next {p.what} ({p.marks.length})
    </button>
  );
}

function ColoringTrack({ i, track, tNs, pos }: { i: number; track: Track; tNs: number; pos: number }) {
  const pal = usePalette();
  const cores = track.model.index.threads;
  const tl = useMemo(() => timeline(track.model.trace, cores), [track, cores]);
  const now = useMemo(() => stateAt(tl, pos), [tl, pos]);
  const steal = lastBefore(tl.steals, pos);
  const refusal = lastBefore(tl.refusals, pos);
  const justStole = steal.x !== undefined && steal.x.i === pos - 1;
  const mely = track.scheduler === 'mely';
  // The color to follow: the last one stolen, else one that runs now.
  const focus = steal.x?.color ?? now.cores.find((c) => c.running?.color !== undefined)?.running?.color;
  const queued = now.cores.reduce((n, c) => n + c.queued, 0);
  return (
    <section className="coloring-track" data-testid="coloring-track">
      <h4>
        {track.label}: {steal.at} color steals, {refusal.at} refused so far
        <span className="coloring-jumps">
          <NextMark marks={tl.steals} track={i} pos={pos} testId="next-color-steal" what="steal" />
          <NextMark marks={tl.refusals} track={i} pos={pos} testId="next-refusal" what="refusal" />
        </span>
      </h4>
      <p className="coloring-legend">
        {mely
          ? 'Each core runs its color-queues in order, a batch of one color at a time.'
          : 'Each core runs one FIFO of events (drawn here grouped by color).'}{' '}
        One chip per queued event, in its color; {queued} queued in all.
      </p>
      <div className="coloring-cores">
        {now.cores.map((c) => (
          <CoreRow key={c.core} c={c} pal={pal} steal={justStole ? steal.x : undefined} />
        ))}
      </div>
      {mely ? <StealingQueues cores={now.cores} on={tl.stealQueue} pal={pal} /> : null}
      {steal.x ? (
        <StealArrow s={steal.x} cores={cores} pal={pal} fresh={justStole} />
      ) : (
        <p className="coloring-none">No steal yet.</p>
      )}
      {refusal.x ? (
        <p className="coloring-refusal" data-testid="coloring-refusal" data-heuristic={refusal.x.heuristic}>
          <b>Refused:</b> T{refusal.x.stealer} did not steal color {refusal.x.color}
          {refusal.x.victim >= 0 ? ` from T${refusal.x.victim}` : ''}: {refusalText(refusal.x)}
        </p>
      ) : null}
      {focus !== undefined ? <ColorLane tl={tl} color={focus} tNs={tNs} cores={cores} pal={pal} /> : null}
    </section>
  );
}

function CoreRow({ c, pal, steal }: { c: CoreNow; pal: Palette; steal?: Steal }) {
  const running = c.running;
  // Draw event chips up to MAX_CHIPS; the color-queues beyond are counted, not drawn.
  let room = MAX_CHIPS;
  const drawn: { color: number; count: number; shown: number[] }[] = [];
  let hidden = 0;
  for (const q of c.colorQueues) {
    // A Mely color-queue stays, empty, until the trace says it left (model.ts): no chip for it, chips are queued events.
    if (q.events.length === 0) continue;
    if (room <= 0) {
      hidden += q.events.length;
      continue;
    }
    const shown = q.events.slice(0, room);
    room -= shown.length;
    hidden += q.events.length - shown.length;
    drawn.push({ color: q.color, count: q.events.length, shown });
  }
  return (
    <div
      className="coloring-core"
      data-testid="coloring-core"
      data-core={c.core}
      data-queued={c.queued}
      data-hidden={hidden}
    >
      <span className="coloring-core-name">T{c.core}</span>
      <span className="coloring-running">
        {running ? (
          <>
            runs{' '}
            <span
              className="coloring-event running"
              style={{ background: running.color !== undefined ? pal.classColor(running.color) : pal.dim }}
            />{' '}
            e{running.req}
            {running.color !== undefined ? ` (color ${running.color})` : ''}
          </>
        ) : (
          'not running an event'
        )}
      </span>
      <span className="coloring-queued" data-testid="core-queued">
        {c.queued} queued
      </span>
      <span className="coloring-chips" title="color-queues in this core's order; one chip per queued event">
        {drawn.map((q) => {
          const isRunning = running?.color === q.color;
          const stolenHere = steal?.stealer === c.core && steal.color === q.color;
          const offered = c.nextOffer?.color === q.color;
          return (
            <span
              key={q.color}
              className="coloring-chip"
              data-testid="color-chip"
              data-color={q.color}
              data-count={q.shown.length}
              title={`color ${q.color}: ${q.count} queued${isRunning ? ', running' : ''}${offered ? ', next offer to a stealer' : ''}`}
              style={{
                borderColor: stolenHere ? pal.steal : pal.classColor(q.color),
                borderWidth: stolenHere || isRunning ? 3 : 1,
                borderStyle: offered ? 'dashed' : 'solid',
              }}
            >
              {isRunning ? '▶ ' : ''}c{q.color}×{q.count}{' '}
              {q.shown.map((e) => (
                <span
                  key={e}
                  className="coloring-event"
                  data-testid="event-chip"
                  title={`e${e}, color ${q.color}`}
                  style={{ background: pal.classColor(q.color) }}
                />
              ))}
            </span>
          );
        })}
        {hidden > 0 ? <span className="coloring-more">+{hidden} more events</span> : null}
      </span>
    </div>
  );
}

/** Mely's stealing queue of each core: worthy colors by interval of time left, highest first. */
function StealingQueues({ cores, on, pal }: { cores: CoreNow[]; on: boolean; pal: Palette }) {
  if (!on) {
    return (
      <p className="coloring-none" data-testid="stealing-queue-off">
        This run keeps no stealing queue (time-left and penalty-aware off): a stealer picks like Libasync-smp.
      </p>
    );
  }
  return (
    <div className="coloring-sq" data-testid="stealing-queue">
      <p>
        <b>Stealing queues</b> (colors a stealer may take, by time left in steal-cost units; with time-left on, a queued
        color whose time left is not above a steal&apos;s cost stays out; a stealer looks at the first of the highest
        non-empty interval):
      </p>
      {cores.map((c) => (
        <div key={c.core} className="coloring-sq-core" data-testid="stealing-queue-core" data-core={c.core}>
          <span className="coloring-core-name">T{c.core}</span>
          {[2, 1, 0].map((iv) => {
            const offers = c.offers[iv] ?? [];
            return (
              <span key={iv} className="coloring-sq-interval" data-interval={iv}>
                <span className="coloring-sq-label">{INTERVALS[iv]}:</span>{' '}
                {offers.length === 0 ? <span className="coloring-none">none</span> : null}
                {offers.slice(0, MAX_OFFERS).map((o) => {
                  const next = c.nextOffer === undefined ? false : c.nextOffer.color === o.color;
                  return (
                    <span
                      key={o.color}
                      className="coloring-offer"
                      data-testid={next ? 'next-offer' : 'offer'}
                      style={{ borderColor: pal.classColor(o.color), borderWidth: next ? 3 : 1 }}
                      title={next ? 'a stealer looks at this color first' : undefined}
                    >
                      {next ? '→ ' : ''}c{o.color} ({us(o.left_ns)})
                    </span>
                  );
                })}
                {offers.length > MAX_OFFERS ? <span> +{offers.length - MAX_OFFERS}</span> : null}
              </span>
            );
          })}
        </div>
      ))}
    </div>
  );
}

/** The last steal: cores as boxes in a row, an arrow from the victim to the stealer carrying the color's events. */
function StealArrow({ s, cores, pal, fresh }: { s: Steal; cores: number; pal: Palette; fresh: boolean }) {
  const large = useDisplay((st) => st.large);
  const font = fontPx(large);
  const box = useRef<HTMLDivElement>(null);
  const { width } = useSize(box, { width: 480, height: 0 });
  const w = Math.max(240, Math.min(width, 900));
  const h = font * 5;
  const x = (k: number) => ((k + 0.5) * w) / Math.max(1, cores);
  const y = h - font * 1.2;
  const x1 = x(s.victim);
  const x2 = x(s.stealer);
  const mid = (x1 + x2) / 2;
  const cost =
    s.steal_ns !== undefined
      ? `; the steal took ${measuredUs(s.steal_ns)}${s.left_ns !== undefined ? ` and moved ${us(s.left_ns)} of annotated work` : ''}`
      : '';
  const costly = s.steal_ns !== undefined && s.left_ns !== undefined && s.steal_ns > s.left_ns;
  const dots = Math.min(s.count, 12);
  const dot = font * 0.55;
  return (
    <div
      ref={box}
      className="coloring-steal"
      data-testid="coloring-steal"
      data-fresh={fresh}
      data-victim={s.victim}
      data-stealer={s.stealer}
      data-count={s.count}
    >
      <p>
        <b>{fresh ? 'Steal now' : 'Last steal'}:</b> T{s.stealer} steals color {s.color} from T{s.victim}, the whole
        color: {s.count} {s.count === 1 ? 'event' : 'events'}
        {cost}
        {costly ? ' (it cost more than it gained)' : ''}
      </p>
      <svg width={w} height={h} role="img" aria-label={`steal of color ${s.color} from T${s.victim} to T${s.stealer}`}>
        <defs>
          <ArrowMarker id="coloring-head" refX="9" size="6" fill={pal.steal} />
        </defs>
        {Array.from({ length: cores }, (_, k) => (
          <g key={k}>
            <rect
              x={x(k) - font * 1.5}
              y={y - font * 0.9}
              width={font * 3}
              height={font * 1.6}
              fill={pal.laneBg}
              stroke={k === s.stealer || k === s.victim ? pal.steal : pal.grid}
            />
            <text x={x(k)} y={y + font * 0.35} textAnchor="middle" fontSize={font} fill={pal.fg}>
              T{k}
            </text>
          </g>
        ))}
        <path
          d={`M${x1},${y - font} Q${mid},${font * 0.2} ${x2},${y - font}`}
          fill="none"
          stroke={pal.steal}
          strokeWidth={fresh ? 3 : 1.5}
          markerEnd="url(#coloring-head)"
        />
        {/* The color's events travel together along the arrow. */}
        <g className={fresh ? 'coloring-moving' : undefined} data-testid="moving-color">
          {Array.from({ length: dots }, (_, k) => (
            <rect
              key={k}
              x={mid - (dots * (dot + 2)) / 2 + k * (dot + 2)}
              y={font * 2}
              width={dot}
              height={dot}
              fill={pal.classColor(s.color)}
            />
          ))}
        </g>
        <text x={mid} y={font * 1.4} textAnchor="middle" fontSize={font} fill={pal.classColor(s.color)}>
          color {s.color} ×{s.count}
        </text>
      </svg>
    </div>
  );
}

/** One color's executions up to now on a time strip, one row per core: they never overlap. */
function ColorLane({
  tl,
  color,
  tNs,
  cores,
  pal,
}: {
  tl: ColorTimeline;
  color: number;
  tNs: number;
  cores: number;
  pal: Palette;
}) {
  const large = useDisplay((st) => st.large);
  const font = fontPx(large);
  const box = useRef<HTMLDivElement>(null);
  const { width } = useSize(box, { width: 480, height: 0 });
  const runs = colorRuns(tl, color, tNs, 40);
  const bad = overlaps(runs.map((r) => ({ ...r, end_ns: Math.min(r.end_ns, tNs) })));
  const w = Math.max(240, Math.min(width, 900));
  const rowH = font * 1.3;
  const h = rowH * cores + font * 0.5;
  const t0 = runs[0]?.start_ns ?? tNs;
  const span = Math.max(1, tNs - t0);
  const left = font * 2.5;
  const sx = (t: number) => left + ((Math.min(t, tNs) - t0) / span) * (w - left - 4);
  return (
    <div ref={box} className="coloring-lane" data-testid="coloring-lane" data-overlaps={bad.length}>
      <p>
        Color {color}: {runs.length === 0 ? 'none of its events has run yet' : `its last ${runs.length} events to run`}
        {runs.length > 1
          ? bad.length === 0
            ? ', one at a time, even across cores'
            : `, ${bad.length} overlapping (the oracle flags this run)`
          : ''}
      </p>
      <svg width={w} height={h} role="img" aria-label={`executions of color ${color}`}>
        {Array.from({ length: cores }, (_, k) => (
          <text key={k} x={0} y={rowH * (k + 1) - font * 0.3} fontSize={font} fill={pal.dim}>
            T{k}
          </text>
        ))}
        {runs.map((r) => (
          <rect
            key={r.req}
            x={sx(r.start_ns)}
            y={rowH * r.thread + 2}
            width={Math.max(2, sx(r.end_ns) - sx(r.start_ns))}
            height={rowH - 4}
            fill={pal.classColor(color)}
            stroke={pal.fg}
            strokeWidth={0.5}
          />
        ))}
      </svg>
    </div>
  );
}
