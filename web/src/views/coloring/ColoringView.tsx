/**
 * The event-coloring view (paper 002: Libasync-smp and Mely): for each
 * coloring run, every core with the event it runs and its queue (Mely: its
 * color-queues in order, the running color marked, the others being what
 * its stealing queue may offer), the last steal drawn victim -> stealer
 * with the whole color moving, the last refused steal with its reason, and
 * one color's executions on a time strip, where they never overlap.
 * Everything follows the replay position (model.ts reads the trace once).
 */
import { useMemo, useRef } from 'react';
import { replayStore } from '../../replay/store';
import type { Track } from '../../replay/store';
import { fontPx, useDisplay, usePalette, type Palette } from '../display';
import { familyOf, type ViewProps } from '../registry';
import { useSize } from '../useSize';
import {
  colorRuns,
  coresAt,
  overlaps,
  refusalText,
  timeline,
  us,
  type ColorTimeline,
  type CoreNow,
  type Steal,
} from './model';

/** Color-queues drawn per core; the rest are counted. */
const MAX_CHIPS = 16;

export function ColoringView({ tracks, states, positions }: ViewProps) {
  const mine = tracks
    .map((track, i) => ({ track, i }))
    .filter(({ track }) => (track.family ?? familyOf(track.scheduler)) === 'coloring');
  if (mine.length === 0) return <p>Load an event-coloring run (libasync or mely) to see its cores and colors.</p>;
  return (
    <div className="coloring-view" data-testid="coloring-view">
      {mine.map(({ track, i }) => (
        <ColoringTrack key={track.key} i={i} track={track} tNs={states[i]?.tNs ?? 0} pos={positions[i] ?? 0} />
      ))}
    </div>
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

function ColoringTrack({ i, track, tNs, pos }: { i: number; track: Track; tNs: number; pos: number }) {
  const pal = usePalette();
  const tl = useMemo(() => timeline(track.model.trace), [track]);
  const cores = track.model.index.threads;
  const now = coresAt(tl, cores, tNs);
  const steal = lastBefore(tl.steals, pos);
  const refusal = lastBefore(tl.refusals, pos);
  const justStole = steal.x !== undefined && steal.x.i === pos - 1;
  const jump = (marks: readonly { i: number }[]) => {
    const next = marks.find((m) => m.i >= pos);
    if (!next) return;
    const st = replayStore.getState();
    st.pause();
    st.lead(i, next.i + 1);
  };
  const mely = track.scheduler === 'mely';
  // The color to follow: the last one stolen, else the one core 0 runs.
  const focus = steal.x?.color ?? now.cores.find((c) => c.running?.color !== undefined)?.running?.color;
  return (
    <section className="coloring-track" data-testid="coloring-track">
      <h4>
        {track.label}: {steal.at} color steals, {refusal.at} refused so far
        <span className="coloring-jumps">
          <button
            type="button"
            disabled={!tl.steals.some((s) => s.i >= pos)}
            onClick={() => jump(tl.steals)}
            data-testid="next-color-steal"
          >
            next steal ({tl.steals.length})
          </button>
          <button
            type="button"
            disabled={!tl.refusals.some((s) => s.i >= pos)}
            onClick={() => jump(tl.refusals)}
            data-testid="next-refusal"
          >
            next refusal ({tl.refusals.length})
          </button>
        </span>
      </h4>
      <div className="coloring-cores">
        {now.cores.map((c) => (
          <CoreRow key={c.core} c={c} mely={mely} pal={pal} steal={steal.x} />
        ))}
      </div>
      {steal.x ? (
        <StealArrow s={steal.x} cores={cores} pal={pal} fresh={justStole} />
      ) : (
        <p className="coloring-none">No steal yet.</p>
      )}
      {refusal.x ? (
        <p className="coloring-refusal" data-testid="coloring-refusal">
          <b>Refused:</b> T{refusal.x.stealer} did not steal color {refusal.x.color}
          {refusal.x.victim >= 0 ? ` from T${refusal.x.victim}` : ''}: {refusalText(refusal.x)}
        </p>
      ) : null}
      {focus !== undefined ? <ColorLane tl={tl} color={focus} tNs={tNs} cores={cores} pal={pal} /> : null}
    </section>
  );
}

function CoreRow({ c, mely, pal, steal }: { c: CoreNow; mely: boolean; pal: Palette; steal?: Steal }) {
  const running = c.running;
  const shown = c.colorQueues.slice(0, MAX_CHIPS);
  return (
    <div className="coloring-core" data-testid="coloring-core" data-core={c.core}>
      <span className="coloring-core-name">T{c.core}</span>
      <span className="coloring-running">
        {running
          ? `runs #${running.req}${running.color !== undefined ? ` (color ${running.color})` : ''}`
          : 'not running an event'}
      </span>
      <span className="coloring-queued">{c.queued !== undefined ? `${c.queued} queued` : ''}</span>
      {mely ? (
        <span
          className="coloring-chips"
          title="color-queues in this core's order; the others than the running one may be stolen"
        >
          {shown.map((q) => {
            const isRunning = running?.color === q.color;
            const stolenHere = steal?.stealer === c.core && steal.color === q.color;
            return (
              <span
                key={q.color}
                className="coloring-chip"
                data-testid="color-chip"
                style={{
                  borderColor: stolenHere ? pal.steal : pal.classColor(q.color),
                  borderWidth: stolenHere || isRunning ? 3 : 1,
                  background: isRunning ? pal.laneBg : undefined,
                }}
              >
                {isRunning ? '▶ ' : ''}c{q.color}×{q.len}
              </span>
            );
          })}
          {c.colorQueues.length > MAX_CHIPS ? <span>+{c.colorQueues.length - MAX_CHIPS} colors</span> : null}
        </span>
      ) : (
        <span className="coloring-chips coloring-fifo">one FIFO of events, colors mixed</span>
      )}
    </div>
  );
}

/** The last steal: cores as boxes in a row, an arrow from the victim to the stealer carrying the color. */
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
      ? `; the steal took ${us(s.steal_ns)}${s.left_ns ? ` and moved ${us(s.left_ns)} of annotated work` : ''}`
      : '';
  return (
    <div ref={box} className="coloring-steal" data-testid="coloring-steal" data-fresh={fresh}>
      <p>
        <b>{fresh ? 'Steal now' : 'Last steal'}:</b> T{s.stealer} steals color {s.color} from T{s.victim}, the whole
        color: {s.count} {s.count === 1 ? 'event' : 'events'}
        {cost}
      </p>
      <svg width={w} height={h} role="img" aria-label={`steal of color ${s.color} from T${s.victim} to T${s.stealer}`}>
        <defs>
          <marker
            id="coloring-head"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="6"
            markerHeight="6"
            orient="auto"
          >
            <path d="M0,0 L10,5 L0,10 z" fill={pal.steal} />
          </marker>
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
        <text x={mid} y={font * 1.6} textAnchor="middle" fontSize={font} fill={pal.classColor(s.color)}>
          color {s.color} ×{s.count}
        </text>
      </svg>
    </div>
  );
}

/** One color's known executions up to now on a time strip, one row per core: they never overlap. */
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
        Color {color}:{' '}
        {runs.length === 0
          ? 'none of its events has run yet'
          : `${runs.length} of its events seen running (color known from their registration)`}
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
