/**
 * Synchronization: what the threads of a class do around a sequential
 * request. For each open or just-released barrier (early) or busy-wait
 * cycle: which threads of the class have arrived, who executes the
 * request, who waits at the barrier or spins in the cycle. For work
 * stealing: each thread's ready flag, the markers stealers hold on their
 * victims, and every steal in progress as an arrow from victim to stealer
 * carrying the stolen requests.
 */
import { NO_REQUEST, REASON, REASON_NAMES } from '../../trace/codec';
import type { ReplayState, SyncGroup } from '../../trace/state';
import type { Track } from '../../replay/store';
import { usePalette, type Palette } from '../display';
import { familyOf, type ViewProps } from '../registry';

function threadRole(s: ReplayState, g: SyncGroup, t: number): { role: string; cls: string } {
  const lane = s.lanes[t];
  const arrived = g.arrived.includes(t);
  if (lane?.exec === g.req) return { role: 'executes', cls: 'executes' };
  if (g.executor === t && g.releasedAt >= 0) return { role: 'executed it', cls: 'executes' };
  if (lane && lane.waitReq === g.req && lane.waitReason === REASON.Cycle) return { role: 'spins', cls: 'spins' };
  if (lane && lane.waitReq === g.req && lane.waitReason >= 0) return { role: 'waits', cls: 'waits' };
  if (arrived) return { role: g.releasedAt >= 0 ? 'released' : 'arrived', cls: 'arrived' };
  return { role: 'not yet', cls: 'pending' };
}

function GroupCard({ track, s, g, pal }: { track: Track; s: ReplayState; g: SyncGroup; pal: Palette }) {
  const name = track.classNames[g.cls] ?? `C${g.cls}`;
  const members = track.mapping[g.cls]?.threads ?? g.arrived;
  const need = members.length || g.arrived.length;
  const busyWait = track.scheduler === 'busy-wait';
  const kind = busyWait ? `cycle ${g.cycle}` : 'barrier';
  const released = g.releasedAt >= 0;
  // The engine records the release once the executor ran the request; in
  // between, the executor is the member executing it.
  const runner = members.find((t) => s.lanes[t]?.exec === g.req);
  return (
    <div
      className={`sync-group ${released ? 'released' : 'open'}`}
      data-testid="sync-group"
      data-class={name}
      data-req={g.req}
      data-kind={busyWait ? 'cycle' : 'barrier'}
      data-executor={released ? g.executor : ''}
      data-arrived={g.arrived.join(',')}
      data-members={members.join(',')}
      data-just-released={g.releasedAt >= 0 && g.releasedAt === s.position - 1 ? 'true' : undefined}
      style={{ borderColor: pal.classColor(g.cls) }}
    >
      <div className="sync-head">
        <span className="chip" style={{ background: pal.classColor(g.cls) }}>
          {name}
        </span>{' '}
        <b>r{g.req}</b> · {kind} ·{' '}
        {released ? (
          <span data-testid="sync-executor">
            released: <b>T{g.executor}</b> executed it
          </span>
        ) : runner !== undefined ? (
          <span>
            all arrived, <b>T{runner}</b> executes
          </span>
        ) : (
          <span>
            {g.arrived.length} of {need} arrived
          </span>
        )}
      </div>
      <div className="sync-threads">
        {members.map((t) => {
          const r = threadRole(s, g, t);
          return (
            <span key={t} className={`sync-thread ${r.cls}`} data-thread={t} data-role={r.role}>
              T{t} <small>{r.role}</small>
            </span>
          );
        })}
      </div>
    </div>
  );
}

function laneText(s: ReplayState, t: number): string {
  const l = s.lanes[t];
  if (l.exec >= 0) return `executing r${l.exec}`;
  if (l.waitReason >= 0) {
    const why = REASON_NAMES[l.waitReason] ?? String(l.waitReason);
    if (l.waitReason === REASON.EmptyQueue) return 'idle (empty queue)';
    return l.waitReq === NO_REQUEST ? `waiting: ${why}` : `waiting: ${why} (r${l.waitReq})`;
  }
  return l.queue.length > 0 ? 'taking from queue' : 'running';
}

/** Steals as arrows between thread nodes in a row (SVG). */
function StealArrows({ s, pal }: { s: ReplayState; pal: Palette }) {
  const n = s.lanes.length;
  const w = Math.max(320, n * 64);
  const x = (t: number) => 32 + t * ((w - 64) / Math.max(1, n - 1));
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
        <marker id="steal-head" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto">
          <path d="M0,0 L8,4 L0,8 z" fill={pal.steal} />
        </marker>
      </defs>
      {steals.map(({ t, l }) => {
        const x0 = x(l.stealVictim);
        const x1 = x(t);
        const mid = (x0 + x1) / 2;
        return (
          <g
            key={t}
            data-testid="steal-arrow"
            data-victim={l.stealVictim}
            data-stealer={t}
            data-stolen={l.stolenAll.join(',')}
          >
            <path
              d={`M${x0},${y - 14} Q${mid},${y - 70} ${x1},${y - 14}`}
              fill="none"
              stroke={pal.steal}
              strokeWidth={3}
              markerEnd="url(#steal-head)"
            />
            <text x={mid} y={y - 46} textAnchor="middle" fill={pal.steal} fontSize={12}>
              {l.stolenAll.length <= 4 ? l.stolenAll.map((r) => `r${r}`).join(' ') : `${l.stolenAll.length} requests`}
            </text>
          </g>
        );
      })}
      {s.lanes.map((l, t) => (
        <g key={t}>
          <circle cx={x(t)} cy={y} r={14} fill={l.exec >= 0 ? pal.exec : l.waitReason > 0 ? pal.wait : pal.idle} />
          <text x={x(t)} y={y + 4} textAnchor="middle" fill="#fff" fontSize={12} fontWeight="bold">
            T{t}
          </text>
          {l.ready >= 0 && (
            <text x={x(t)} y={y + 32} textAnchor="middle" fill={pal.dim} fontSize={11}>
              ready={l.ready}
            </text>
          )}
        </g>
      ))}
    </svg>
  );
}

function TrackSync({ track, s }: { track: Track; s: ReplayState }) {
  const pal = usePalette();
  const fam = familyOf(track.scheduler);
  const markers = s.lanes.map((l, t) => ({ t, v: l.stealVictim })).filter((m) => m.v >= 0);
  return (
    <div className="sync-track">
      <section>
        <h4>Barriers and cycles</h4>
        {s.syncs.length === 0 ? (
          <p className="muted">No sequential request is being synchronized at this point.</p>
        ) : (
          s.syncs.map((g) => <GroupCard key={`${g.cls}-${g.req}`} track={track} s={s} g={g} pal={pal} />)
        )}
      </section>
      {fam === 'work-stealing' && (
        <section data-testid="steal-section">
          <h4>Stealing</h4>
          <StealArrows s={s} pal={pal} />
          <p className="muted">
            Markers:{' '}
            {markers.length === 0 ? 'none set' : markers.map((m) => `T${m.t} holds T${m.v}'s marker`).join(' · ')}
          </p>
        </section>
      )}
      <section>
        <h4>Threads</h4>
        <ul className="lane-list">
          {s.lanes.map((l, t) => (
            <li key={t} data-thread={t}>
              <b>T{t}</b> {laneText(s, t)} · queue {l.queue.length}
              {l.spins > 0 && <> · {l.spins} spins so far</>}
              {l.ready >= 0 && <> · ready flag {l.ready}</>}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

export function SyncView({ tracks, states }: ViewProps) {
  return (
    <div className="track-grid" data-count={tracks.length} data-testid="sync-view">
      {tracks.map((t, i) => (
        <div key={t.key} className="track-cell">
          {tracks.length > 1 && <h3 className="track-title">{t.label}</h3>}
          <TrackSync track={t} s={states[i]} />
        </div>
      ))}
    </div>
  );
}
