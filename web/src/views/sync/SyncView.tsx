/**
 * Synchronization: what the threads of a class do around a sequential
 * request. For each open or just-released barrier (early) or busy-wait
 * cycle: which threads of the class have arrived, who executes the
 * request, who waits at the barrier or spins in the cycle. For work
 * stealing: each thread's ready flag, the markers stealers hold on their
 * victims, and every steal in progress as an arrow from victim to stealer
 * carrying the stolen requests.
 *
 * Every phrase about a thread comes from its derived status
 * (`views/status.ts`), the same one the lanes and captions show.
 */
import { useRef } from 'react';
import type { ReplayState } from '../../trace/state';
import type { Track } from '../../replay/store';
import { inkOn, usePalette, type Palette } from '../display';
import { profileOf } from '../profiles';
import type { ViewProps } from '../registry';
import { groupCard, statusContext, type GroupCard, type ThreadStatus } from '../status';
import { useWholeRows } from '../wholeRows';

/** The view's rows of text, each shown whole or not at all (`useWholeRows`). */
const ROWS = '.track-title, .sync-track h4, .sync-head, .sync-thread, .sync-track p, .lane-list > li';

function GroupBox({ card, justReleased, pal }: { card: GroupCard; justReleased: boolean; pal: Palette }) {
  const released = card.phase === 'released';
  return (
    <div
      className={`sync-group ${released ? 'released' : 'open'} phase-${card.phase}`}
      data-testid="sync-group"
      data-class={card.name}
      data-req={card.req}
      data-kind={card.kind.startsWith('cycle') ? 'cycle' : 'barrier'}
      data-phase={card.phase}
      data-executor={released ? card.executor : ''}
      data-arrived={card.arrived.join(',')}
      data-members={card.members.join(',')}
      data-just-released={justReleased ? 'true' : undefined}
      style={{ borderColor: pal.classColor(card.cls) }}
    >
      <div className="sync-head">
        <span className="chip" style={{ background: pal.classColor(card.cls) }}>
          {card.name}
        </span>{' '}
        <b>r{card.req}</b> · {card.kind} ·{' '}
        <span data-testid={released ? 'sync-executor' : 'sync-headline'}>{card.headline}</span>
      </div>
      <div className="sync-threads">
        {card.roles.map((r) => (
          <span
            key={r.thread}
            className={`sync-thread role-${r.role.replace(/\s+/g, '-')} tone-${r.status.tone}`}
            data-thread={r.thread}
            data-role={r.role}
            data-activity={r.status.activity}
            data-status-req={r.status.req}
            title={`T${r.thread}: ${r.status.text}`}
          >
            T{r.thread} <small>{r.role}</small>
          </span>
        ))}
      </div>
    </div>
  );
}

/**
 * A thread's work-stealing ready flag in words: "flag up" (a sequential
 * request is queued) or "flag down". It is a flag, not a count: "ready=0"
 * beside "queue 6" read as a contradiction. Empty when never set.
 */
export function flagText(ready: number): string {
  return ready < 0 ? '' : ready === 1 ? 'flag up' : 'flag down';
}

/** A thread's node in the steal graph: a circle this wide (radius, px) with its name inside. */
export const NODE_R = 14;

/** The arrowhead of a steal (px, whatever the arc's stroke width): its tip touches the stealer's node. */
export const HEAD = 10;

/**
 * The arc of a steal from the victim's node (x0) to the stealer's (x1), nodes' centers at height y.
 * Left-to-right steals arc high, right-to-left ones low: two opposite steals between the same two
 * threads (A from B, B from A) never share one arc. The arc leaves and enters each node at its edge,
 * on the line to the arc's control point, so its arrowhead stays outside the stealer's circle and
 * never covers its name ("T1"). Returns the path and where its label goes.
 */
export function stealArc(x0: number, x1: number, y: number): { d: string; labelY: number } {
  const rise = x1 >= x0 ? 70 : 34;
  const mid = (x0 + x1) / 2;
  const cy = y - rise;
  // The point of the circle around (x, y) that faces the control point, a pixel out.
  const edge = (x: number) => {
    const len = Math.hypot(mid - x, cy - y) || 1;
    const k = (NODE_R + 1) / len;
    return `${round(x + (mid - x) * k)},${round(y + (cy - y) * k)}`;
  };
  return { d: `M${edge(x0)} Q${mid},${cy} ${edge(x1)}`, labelY: y - 14 - (rise - 14) / 2 - 4 };
}

const round = (v: number) => Math.round(v * 10) / 10;

/** Steals as arrows between thread nodes in a row (SVG); nodes colored by status. */
export function StealArrows({ s, statuses, pal }: { s: ReplayState; statuses: ThreadStatus[]; pal: Palette }) {
  const n = s.lanes.length;
  const w = Math.max(320, n * 64);
  // Side margins wide enough for a node's flag label ("flag down") centered under the outer nodes.
  const x = (t: number) => 48 + t * ((w - 96) / Math.max(1, n - 1));
  const y = 70;
  const steals = s.lanes.map((l, t) => ({ t, l })).filter(({ l }) => l.stealVictim >= 0);
  return (
    <svg
      className="steal-svg"
      viewBox={`0 0 ${w} 110`}
      width="100%"
      style={{ maxWidth: w }}
      role="img"
      aria-label="steals"
    >
      <defs>
        {/* Sized in px (not in stroke widths, which made it 24 px wide over the stealer's name), its tip at the arc's end. */}
        <marker
          id="steal-head"
          viewBox="0 0 10 10"
          markerUnits="userSpaceOnUse"
          markerWidth={HEAD}
          markerHeight={HEAD}
          refX="10"
          refY="5"
          orient="auto"
        >
          <path d="M0,0 L10,5 L0,10 z" fill={pal.steal} />
        </marker>
      </defs>
      {steals.map(({ t, l }) => {
        const x0 = x(l.stealVictim);
        const x1 = x(t);
        const mid = (x0 + x1) / 2;
        const arc = stealArc(x0, x1, y);
        return (
          <g
            key={t}
            data-testid="steal-arrow"
            data-victim={l.stealVictim}
            data-stealer={t}
            data-stolen={l.stolenAll.join(',')}
          >
            <path d={arc.d} fill="none" stroke={pal.steal} strokeWidth={3} markerEnd="url(#steal-head)" />
            <text x={mid} y={arc.labelY} textAnchor="middle" fill={pal.steal} fontSize="0.85em">
              {l.stolenAll.length <= 4 ? l.stolenAll.map((r) => `r${r}`).join(' ') : `${l.stolenAll.length} requests`}
            </text>
          </g>
        );
      })}
      {s.lanes.map((l, t) => (
        <g key={t} data-testid="steal-node" data-thread={t} data-activity={statuses[t]?.activity}>
          <circle cx={x(t)} cy={y} r={NODE_R} fill={pal[statuses[t]?.tone ?? 'idle']} />
          {/* The ink that reads best on the node's state color (the page's background did not: black on grey in high contrast). */}
          <text
            x={x(t)}
            y={y + 4}
            textAnchor="middle"
            fill={inkOn(pal[statuses[t]?.tone ?? 'idle'])}
            fontSize="0.8em"
            fontWeight="bold"
          >
            T{t}
          </text>
          {l.ready >= 0 && (
            <text x={x(t)} y={y + 32} textAnchor="middle" fill={pal.dim} fontSize="0.75em">
              {flagText(l.ready)}
            </text>
          )}
        </g>
      ))}
    </svg>
  );
}

/** The thread list: one line per worker, its derived status. */
export function ThreadList({ s, statuses }: { s: ReplayState; statuses: ThreadStatus[] }) {
  return (
    <ul className="lane-list" data-testid="thread-list">
      {statuses.map((st) => {
        const l = s.lanes[st.thread];
        return (
          <li
            key={st.thread}
            data-thread={st.thread}
            data-activity={st.activity}
            data-req={st.req}
            data-queue={l.queue.length}
            className={`tone-${st.tone}`}
          >
            <b>T{st.thread}</b> {st.text} · queue {l.queue.length}
            {l.spins > 0 && <> · {l.spins} spins so far</>}
            {l.ready >= 0 && <> · {flagText(l.ready)}</>}
          </li>
        );
      })}
    </ul>
  );
}

function TrackSync({ track, s, statuses }: { track: Track; s: ReplayState; statuses: ThreadStatus[] }) {
  const pal = usePalette();
  const profile = profileOf(track.scheduler);
  const ctx = statusContext(track);
  const markers = s.lanes.map((l, t) => ({ t, v: l.stealVictim })).filter((m) => m.v >= 0);
  const cards = s.syncs.map((g) => ({
    card: groupCard(g, statuses, ctx, track.mapping[g.cls]?.threads),
    justReleased: g.releasedAt >= 0 && g.releasedAt === s.position - 1,
  }));
  return (
    <div className="sync-track">
      <section>
        <h4>{profile.sync?.kind === 'cycle' ? 'Cycles' : 'Barriers'}</h4>
        {cards.length === 0 ? (
          <p className="muted">No sequential request is being synchronized at this point.</p>
        ) : (
          cards.map(({ card, justReleased }) => (
            <GroupBox key={`${card.cls}-${card.req}`} card={card} justReleased={justReleased} pal={pal} />
          ))
        )}
      </section>
      {profile.steals && (
        <section data-testid="steal-section">
          <h4>Stealing</h4>
          <StealArrows s={s} statuses={statuses} pal={pal} />
          <p className="muted">
            Markers:{' '}
            {markers.length === 0 ? 'none set' : markers.map((m) => `T${m.t} holds T${m.v}'s marker`).join(' · ')}
          </p>
        </section>
      )}
      <section>
        <h4>Threads</h4>
        <ThreadList s={s} statuses={statuses} />
      </section>
    </div>
  );
}

export function SyncView({ tracks, states, statuses }: ViewProps) {
  const view = useRef<HTMLDivElement>(null);
  useWholeRows(view, ROWS);
  return (
    <div className="track-grid" data-count={tracks.length} data-testid="sync-view" ref={view}>
      {tracks.map((t, i) => (
        <div key={t.key} className="track-cell" data-track={t.key}>
          {tracks.length > 1 && <h3 className="track-title">{t.label}</h3>}
          <TrackSync track={t} s={states[i]} statuses={statuses[i]} />
        </div>
      ))}
    </div>
  );
}
