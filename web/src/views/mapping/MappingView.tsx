/**
 * Mapping: the class conflict graph and the classes-to-threads mapping
 * (CtoT) of each loaded run, side by side (e.g. "optimizer" next to
 * "naive"). The mapping is the report's `info.mapping` when present,
 * otherwise what the trace shows (marked "read from the trace").
 */
import type { Track } from '../../replay/store';
import { conflictGraph } from '../classes';
import { inkOn, usePalette } from '../display';
import type { RunReport } from '../../engine/protocol';
import type { ViewProps } from '../registry';

function ConflictGraph({ track }: { track: Track }) {
  const pal = usePalette();
  const names = track.mapping.map((m) => m.class);
  const n = names.length;
  const size = 240;
  const r = size / 2 - 30;
  const pos = names.map((_, i) => {
    const a = (2 * Math.PI * i) / Math.max(1, n) - Math.PI / 2;
    return { x: size / 2 + r * Math.cos(a), y: size / 2 + r * Math.sin(a) };
  });
  const { edges, selfLoops } = conflictGraph(track.classes ?? [], names);
  return (
    <svg
      viewBox={`0 0 ${size} ${size}`}
      width={size}
      height={size}
      role="img"
      aria-label="class conflict graph"
      data-testid="conflict-graph"
    >
      {edges.map(([i, j]) => (
        <line
          key={`${i}-${j}`}
          x1={pos[i].x}
          y1={pos[i].y}
          x2={pos[j].x}
          y2={pos[j].y}
          stroke={pal.grid}
          strokeWidth={1.5}
        />
      ))}
      {selfLoops.map((i) => (
        <circle key={`s${i}`} cx={pos[i].x} cy={pos[i].y - 16} r={9} fill="none" stroke={pal.grid} strokeWidth={1.5} />
      ))}
      {names.map((name, i) => (
        <g key={name}>
          <circle cx={pos[i].x} cy={pos[i].y} r={15} fill={pal.classColor(i)} />
          <text
            x={pos[i].x}
            y={pos[i].y + 4}
            textAnchor="middle"
            fontSize="0.8em"
            fontWeight="bold"
            fill={inkOn(pal.classColor(i))}
          >
            {name}
          </text>
        </g>
      ))}
    </svg>
  );
}

/** How a class is mapped, as one comparable string ("S:0,1"). */
function shape(m: { sequential: boolean; threads: number[] } | undefined): string {
  return m ? `${m.sequential ? 'S' : 'C'}:${m.threads.join(',')}` : '-';
}

/** Classes whose mapping differs between the tracks shown (by class name). */
export function differingClasses(tracks: readonly Track[]): Set<string> {
  const out = new Set<string>();
  if (tracks.length < 2) return out;
  const names = new Set(tracks.flatMap((t) => t.mapping.map((m) => m.class)));
  for (const n of names) {
    const shapes = new Set(tracks.map((t) => shape(t.mapping.find((m) => m.class === n))));
    if (shapes.size > 1) out.add(n);
  }
  return out;
}

function MappingTable({ track, differs }: { track: Track; differs: Set<string> }) {
  const pal = usePalette();
  const threads = track.model.index.threads;
  return (
    <table className="mapping-table" data-testid="mapping-table">
      <thead>
        <tr>
          <th>class</th>
          <th>mode</th>
          {Array.from({ length: threads }, (_, t) => (
            <th key={t}>T{t}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {track.mapping.map((m, c) => (
          <tr
            key={m.class}
            data-class={m.class}
            data-differs={differs.has(m.class) ? 'true' : undefined}
            className={differs.has(m.class) ? 'differs' : undefined}
          >
            <td>
              <span className="chip" style={{ background: pal.classColor(c) }}>
                {m.class}
              </span>
            </td>
            <td>
              {m.threads.length <= 1 ? 'one thread' : m.sequential ? 'sequential' : 'concurrent'}
              {differs.has(m.class) && <span className="differs-mark"> ≠</span>}
            </td>
            {Array.from({ length: threads }, (_, t) => (
              <td key={t} className={m.threads.includes(t) ? 'on' : 'off'}>
                {m.threads.includes(t) ? (m.sequential ? 'S' : 'C') : ''}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function how(run: RunReport | undefined, track: Track): string {
  if (run?.info?.mapping && run.info.mapping.length > 0) return run.info.mapping_how || 'from the run report';
  return track.mapping.length > 0 ? 'read from the trace (queues each class used)' : 'no mapping in this run';
}

export function MappingView({ tracks, runs }: ViewProps) {
  const differs = differingClasses(tracks);
  return (
    <div className="mapping-view" data-testid="mapping-view">
      <p className="mapping-key">
        How to read the table: a row per request class (R = read, W = write, a number = that shard, g = every shard). A
        column per thread. <b>S</b>: the class is <i>sequential</i> on that thread: every thread marked S gets each
        request of the class and they meet (barrier or cycle) before one of them runs it. <b>C</b>: the class is{' '}
        <i>concurrent</i>: one of the threads marked C gets each request, taking turns.
        {differs.size > 0 && (
          <>
            {' '}
            Rows marked <b className="differs-mark">≠</b> are mapped differently by the runs shown.
          </>
        )}
      </p>
      <div className="track-grid" data-count={tracks.length}>
        {tracks.map((t, i) => (
          <div key={t.key} className="track-cell">
            <h3 className="track-title">{t.label}</h3>
            <p className="muted">Classes-to-threads mapping {how(runs[i], t)}.</p>
            <div className="mapping-row">
              <ConflictGraph track={t} />
              <MappingTable track={t} differs={differs} />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}
