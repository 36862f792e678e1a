/**
 * The dependency-graph view of late scheduling (CBASE) and ePaxos/PePaxos,
 * loaded lazily with its own chunk (`index.tsx`). Every track of those
 * families gets its graph at the track's replay position, derived from the
 * trace by `model.ts` (seek anywhere = replay from the start):
 *
 * - ePaxos / PePaxos: committed instances as nodes with their seq, their
 *   dependency edges, SCCs boxed with the number of their turn in the
 *   execution order (SCCs are handed out in a reverse topological order,
 *   dependencies first), colored by the worker that runs them; cross-SCC
 *   dependencies and the waits in progress drawn; instances not ordered yet
 *   (waiting for a commit) in their own column.
 * - Late: the requests in the graph, layered by their longest chain of
 *   dependencies, ready ones marked, the bound as slots, the scheduler
 *   blocked when the graph is full, and the queue on the graph's one lock.
 */
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { fontPx, useDisplay, usePalette, type Palette } from '../display';
import { familyOf, type ViewProps } from '../registry';
import type { Track } from '../../replay/store';
import type { ReplayState } from '../../trace/state';
import type { ThreadStatus } from '../status';
import { graphWait } from './status';
import { ThreadList } from '../sync/SyncView';
import { useSize } from '../useSize';
import { ArrowMarker } from '../../components/ArrowMarker';
import { SCHEDULER, sccName } from '../../trace/codec';
import {
  crossSccEdges,
  epaxosGraph,
  eventsOf,
  lateGraph,
  lateLayers,
  sccLayers,
  type EpaxosGraph,
  type LateGraph,
} from './model';
import './graphs.css';

/** At most this many SCCs are drawn (the latest found); older ones are counted. */
export const MAX_SCCS = 18;
/** At most this many late-graph nodes are drawn. */
export const MAX_NODES = 64;

/** At most this many runs' graphs stand side by side; more are shown a pair at a time. */
export const GRAPHS_AT_ONCE = 2;

export default function GraphsView({ tracks, positions, states, statuses }: ViewProps) {
  const mine = tracks
    .map((track, i) => ({ track, i, family: track.family ?? familyOf(track.scheduler) }))
    .filter(({ family }) => family === 'epaxos' || family === 'late');
  const pairs = chunks(mine, GRAPHS_AT_ONCE);
  const [chosen, choose] = useState(0);
  if (mine.length === 0)
    return <p>Load a late, epaxos or pepaxos run to see its dependency graph (scenario classroom-epaxos.json).</p>;
  // Three or four runs (a what-if of a two-run lesson: each run beside its run before the change): two graphs
  // at a time, as tall as one pair's, instead of the second pair below a 1280x720 projector's fold.
  const shown = pairs[Math.min(chosen, pairs.length - 1)];
  return (
    <div className="graphs-pages">
      {pairs.length > 1 && (
        <div className="graphs-pairs" role="group" aria-label="runs shown" data-testid="graphs-pairs">
          {pairs.map((p, k) => (
            <button
              key={p.map((m) => m.track.key).join()}
              type="button"
              className={p === shown ? 'view-tab active' : 'view-tab'}
              aria-pressed={p === shown}
              data-testid="graphs-pair"
              onClick={() => choose(k)}
            >
              {p.map((m) => m.track.label).join(' · ')}
            </button>
          ))}
        </div>
      )}
      <div className="graphs-view" data-testid="graphs-view" data-count={shown.length}>
        {shown.map(({ track, i, family }, k) =>
          family === 'epaxos' ? (
            <EpaxosTrack
              key={track.key}
              legend={shown.findIndex((m) => m.family === 'epaxos') === k}
              track={track}
              position={positions[i] ?? 0}
              state={states[i]}
              statuses={statuses[i] ?? []}
            />
          ) : (
            <LateTrack
              key={track.key}
              track={track}
              position={positions[i] ?? 0}
              state={states[i]}
              statuses={statuses[i] ?? []}
            />
          ),
        )}
      </div>
    </div>
  );
}

/** `xs` cut into runs of `n` (the last may be shorter). */
function chunks<T>(xs: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let k = 0; k < xs.length; k += n) out.push(xs.slice(k, k + n));
  return out;
}

const threadName = (t: number) => (t === SCHEDULER ? 'scheduler' : t >= 0xff00 ? 'builder' : `T${t}`);

function useLook() {
  const pal = usePalette();
  const large = useDisplay((s) => s.large);
  return { pal, font: fontPx(large) };
}

/**
 * A graph node's fill in both graphs: done is greyed out, running takes the color of the worker
 * running it (`runner`, undefined when not running or not known), else the background.
 */
function nodeFill(pal: Palette, done: boolean, runner: number | undefined): string {
  if (done) return pal.grid;
  return runner !== undefined ? pal.classColor(runner) : pal.bg;
}

interface Placed {
  x: number;
  y: number;
}

/** A node of either graph: its id, its state (the `data-state` e2e tests read), done or the worker running it. */
interface GraphNode {
  id: number;
  state: string;
  done: boolean;
  /** The worker that runs it: the fill's color while its state is `running`. */
  runner: number | undefined;
  testId: string;
  /** The attribute its id is read from: `data-id` (an ePaxos instance) or `data-req` (a late request). */
  idAttr: 'data-id' | 'data-req';
}

/** Node `n` of either graph at its place (nothing while it has none), its shapes drawn by `draw` with its fill. */
function graphNode(
  pal: Palette,
  at: ReadonlyMap<number, Placed>,
  n: GraphNode,
  draw: (p: Placed, fill: string) => ReactNode,
): ReactNode {
  const p = at.get(n.id);
  if (!p) return null;
  const fill = nodeFill(pal, n.done, n.state === 'running' ? n.runner : undefined);
  const attrs = { 'data-testid': n.testId, [n.idAttr]: n.id, 'data-state': n.state };
  return (
    <g key={n.id} {...attrs}>
      {draw(p, fill)}
    </g>
  );
}

// ---------------------------------------------------------------------------
// ePaxos

interface TrackProps {
  track: Track;
  position: number;
  /** The replay state and the thread statuses every view shows (views/status.ts). */
  state: ReplayState | undefined;
  statuses: ThreadStatus[];
}

/** The workers in words: the same list, phrases and attributes as the Synchronization view's. */
function Workers({ state, statuses }: { state: ReplayState | undefined; statuses: ThreadStatus[] }) {
  return state && statuses.length > 0 ? <ThreadList s={state} statuses={statuses} /> : null;
}

function EpaxosTrack({ track, position, state, statuses, legend }: TrackProps & { legend: boolean }) {
  const { pal, font } = useLook();
  const box = useRef<HTMLDivElement>(null);
  const { width } = useSize(box, { width: 800, height: 0 });
  const events = eventsOf(track.model.trace);
  const g = useMemo(() => epaxosGraph(events, position), [events, position]);
  const layout = useMemo(() => layoutEpaxos(g, font, width), [g, font, width]);
  const running = g.sccs.filter((s) => s.state === 'running');
  return (
    <section className="graphs-track" data-testid="epaxos-track" data-scheduler={track.scheduler}>
      <h4>
        {track.label}: {g.instances.length} instances committed, {g.sccs.length} SCCs found, {g.executed} executed
        {/* Narrow (side by side): the boxes say which SCC runs where; the heading keeps its lines for the graph. */}
        {running.length > 0 && !layout.narrow
          ? ` · running: ${running.map((s) => `${sccName(s.group)} on ${threadName(s.worker ?? 0)}`).join(', ')}`
          : ''}
        {/* No room to draw the instances not in an SCC yet (narrow): counted here. */}
        {layout.pendingX === null && layout.pendingHidden > 0
          ? ` · ${layout.pendingHidden} not in an SCC yet (not drawn)`
          : ''}
        {g.builderBlocked ? ' · builder waits for a credit (every worker busy)' : ''}
      </h4>
      {/* The legend once (side by side, the runs share it), folded: the boxes keep the height. */}
      {legend && (
        <details className="graphs-legend">
          <summary>How to read the graph</summary>
          Boxes are SCCs, numbered in execution order (dependencies first); inside, instances in seq order, colored by
          the worker that runs them (epaxos: its one executor). Arrows point to what an instance depends on; red dashed
          = a worker waiting for another SCC.
        </details>
      )}
      {layout.hidden > 0 && <p className="graphs-legend">{layout.hidden} older SCCs not drawn.</p>}
      <div ref={box} className="graphs-canvas">
        <svg
          data-testid="epaxos-svg"
          width={Math.max(layout.w, Math.min(width, 200))}
          height={layout.h}
          role="img"
          aria-label={`ePaxos instance graph of ${track.label}`}
        >
          <defs>
            <ArrowMarker id={`arr-${track.key}`} refX="10" size="7" fill={pal.dim} />
            <ArrowMarker id={`warr-${track.key}`} refX="10" size="8" fill={pal.spin} />
          </defs>
          {layout.boxes.map((b) => {
            const s = b.scc;
            const color = s.worker !== undefined && s.state !== 'found' ? pal.classColor(s.worker) : pal.dim;
            return (
              <g
                key={s.group}
                data-testid="scc-box"
                data-order={s.group + 1}
                data-state={s.state}
                data-worker={s.worker ?? ''}
                data-members={s.members.join(',')}
                opacity={s.state === 'done' ? 0.55 : 1}
              >
                <rect
                  x={b.x}
                  y={b.y}
                  width={b.w}
                  height={b.h}
                  rx={6}
                  fill={s.state === 'running' ? color + '33' : 'none'}
                  stroke={color}
                  strokeWidth={s.state === 'running' ? 3 : 1.5}
                  strokeDasharray={s.state === 'found' ? '5 3' : undefined}
                />
                <text x={b.x + 6} y={b.y + font + 2} fontSize={font} fontWeight={700} fill={pal.fg}>
                  {sccName(s.group)}
                  {/* Narrow: the state on a line of its own, so the box stays narrow. */}
                  <tspan fontWeight={400} fill={pal.dim} {...(layout.narrow ? { x: b.x + 6, dy: font + 2 } : {})}>
                    {layout.narrow ? '' : ' '}
                    {s.state === 'found'
                      ? 'waiting'
                      : s.state === 'running'
                        ? `on ${threadName(s.worker ?? 0)}`
                        : `ran on ${threadName(s.worker ?? 0)}`}
                  </tspan>
                </text>
              </g>
            );
          })}
          {layout.edges.map(([from, to], k) => {
            const a = layout.at.get(from);
            const b = layout.at.get(to);
            if (!a || !b) return null;
            return (
              <line
                key={`e${k}`}
                x1={a.x - NODE_R}
                y1={a.y}
                x2={b.x + NODE_R}
                y2={b.y}
                stroke={pal.dim}
                strokeWidth={1}
                markerEnd={`url(#arr-${track.key})`}
              />
            );
          })}
          {g.waits.map((w, k) => {
            const a = layout.at.get(w.instance);
            const b = layout.at.get(w.on);
            if (!a || !b) return null;
            return (
              <g key={`w${k}`} data-testid="scc-wait" data-worker={w.worker}>
                <line
                  x1={a.x}
                  y1={a.y - NODE_R}
                  x2={b.x}
                  y2={b.y - NODE_R}
                  stroke={pal.spin}
                  strokeWidth={3}
                  strokeDasharray="6 4"
                  markerEnd={`url(#warr-${track.key})`}
                />
                {/* Beside the arrow's middle, haloed: above the higher node it wrote over that SCC's header. */}
                <text
                  x={(a.x + b.x) / 2 + 6}
                  y={(a.y + b.y) / 2}
                  fontSize={font - 1}
                  fill={pal.spin}
                  stroke={pal.bg}
                  strokeWidth={4}
                  paintOrder="stroke"
                >
                  {threadName(w.worker)} waits
                </text>
              </g>
            );
          })}
          {g.instances.map((inst) => {
            const s = inst.group !== undefined ? g.sccs.find((x) => x.group === inst.group) : undefined;
            const node = { id: inst.id, state: inst.state, done: inst.state === 'executed', runner: s?.worker };
            return graphNode(pal, layout.at, { ...node, testId: 'instance', idAttr: 'data-id' }, (p, fill) => (
              <>
                <circle
                  cx={p.x}
                  cy={p.y}
                  r={NODE_R}
                  fill={fill}
                  stroke={inst.state === 'waiting-commit' ? pal.wait : pal.fg}
                  strokeWidth={inst.state === 'waiting-commit' ? 3 : 1}
                  strokeDasharray={inst.state === 'waiting-commit' ? '4 2' : undefined}
                >
                  <title>
                    {inst.state === 'waiting-commit'
                      ? `instance ${inst.id} waits for the commit of instance ${inst.waitsForCommit ?? '?'}`
                      : `instance ${inst.id}: ${inst.state}, seq ${inst.seq}, depends on ${inst.deps.join(', ') || 'nothing'}`}
                  </title>
                </circle>
                <text x={p.x} y={p.y + font / 3} fontSize={font - 1} textAnchor="middle" fill={pal.fg}>
                  {inst.id}
                </text>
                <text x={p.x} y={p.y + NODE_R + font} fontSize={font - 2} textAnchor="middle" fill={pal.dim}>
                  seq {inst.seq}
                </text>
              </>
            ));
          })}
          {layout.pendingX !== null ? (
            // Wrapped to the room right of the boxes: the label never passes the canvas's right side.
            <text
              data-testid="pending-label"
              data-hidden={layout.pendingHidden}
              x={layout.pendingX - NODE_R}
              y={font + 2}
              fontSize={font - 1}
              fill={pal.dim}
            >
              {layout.pendingLabel.map((line, k) => (
                <tspan key={k} x={(layout.pendingX as number) - NODE_R} dy={k === 0 ? 0 : font}>
                  {line}
                </tspan>
              ))}
            </text>
          ) : null}
        </svg>
      </div>
      <Workers state={state} statuses={statuses} />
    </section>
  );
}

const NODE_R = 13;
/** Rows of the column of instances not ordered yet. */
const PENDING_ROWS = 4;

interface EpaxosLayout {
  boxes: { scc: EpaxosGraph['sccs'][number]; x: number; y: number; w: number; h: number }[];
  at: Map<number, Placed>;
  edges: [number, number][];
  pendingX: number | null;
  hidden: number;
  /** Instances not in an SCC yet that found no column within the width. */
  pendingHidden: number;
  /** The grid's label, wrapped to the room right of the boxes (one string a line). */
  pendingLabel: string[];
  /** The boxes' labels on two lines (name, then state): a narrow canvas (side by side). */
  narrow: boolean;
  w: number;
  h: number;
}

/**
 * Columns by SCC layer (dependencies left), boxes stacked in each column;
 * pending instances in a grid after them, with as many columns as fit in
 * `width` (at least one): the grid's last column is never cut, the
 * instances beyond it are counted in `pendingHidden`.
 */
function layoutEpaxos(g: EpaxosGraph, font: number, width: number): EpaxosLayout {
  const shown = [...g.sccs].sort((a, b) => a.group - b.group).slice(-MAX_SCCS);
  const hidden = g.sccs.length - shown.length;
  const layers = sccLayers(g);
  const minLayer = Math.min(...shown.map((s) => layers.get(s.group) ?? 0), Number.POSITIVE_INFINITY);
  const cols = new Map<number, typeof shown>();
  for (const s of shown) {
    const l = (layers.get(s.group) ?? 0) - (Number.isFinite(minLayer) ? minLayer : 0);
    cols.set(l, [...(cols.get(l) ?? []), s]);
  }
  // Room for an instance and its "seq 12" label (about 0.55 em a character), so labels never overlap.
  const slot = Math.max(NODE_R * 2 + 14, Math.ceil(3.6 * font));
  // Side by side at a projector's size a run's canvas is narrow: the box
  // labels take two lines and the columns close up, so two layers of SCCs
  // and a column of pending instances fit its width.
  const narrow = width < NARROW_EMS * font;
  const head = narrow ? 2 * font + 8 : font + 8;
  const boxH = head + NODE_R * 2 + font + 10;
  const gapX = narrow ? 30 : 46;
  const boxes: EpaxosLayout['boxes'] = [];
  const at = new Map<number, Placed>();
  let x = 10;
  let h = 0;
  // Layers past the canvas's right edge (many workers, a narrow column) start a band under the ones before,
  // so no box is cut at the side; the view scrolls down to them.
  let bandTop = 0;
  let firstBandRight: number | null = null;
  for (const l of [...cols.keys()].sort((a, b) => a - b)) {
    const col = cols.get(l) ?? [];
    // Room for the label "SCC #12 ran on T0" (about 0.55 em a character), or its longer line "ran on T0" when narrow.
    const w = Math.max(...col.map((s) => s.members.length * slot + 12), (narrow ? 5.5 : 10.5) * font);
    if (x > 10 && x + w > width - 10) {
      firstBandRight ??= x;
      bandTop = h + 8;
      x = 10;
    }
    // Narrow: the boxes start at the top (the pending grid's label has a column of its own).
    let y = bandTop + (narrow ? 4 : head + 4);
    for (const s of col) {
      boxes.push({ scc: s, x, y, w, h: boxH });
      s.members.forEach((m, k) => at.set(m, { x: x + 6 + slot / 2 + k * slot, y: y + head + NODE_R }));
      y += boxH + (narrow ? 8 : 12);
    }
    h = Math.max(h, y);
    x += w + gapX;
  }
  const right = Math.max(x, firstBandRight ?? 0);
  // The pending grid stands beside the first band, at the top.
  x = firstBandRight ?? x;
  // Instances not in an SCC yet: a grid of PENDING_ROWS rows, filled column by column.
  const waiting = g.instances.filter((i) => i.group === undefined);
  let pendingX: number | null = null;
  let pendingHidden = 0;
  let pendingLabel: string[] = [];
  if (waiting.length > 0 && width - 10 - x < MIN_PENDING_EMS * font) {
    // No room for a column and its label beside the boxes: counted in the heading, not drawn.
    pendingHidden = waiting.length;
  } else if (waiting.length > 0) {
    pendingX = x + NODE_R;
    const rowH = NODE_R * 2 + font + 8;
    const colW = NODE_R * 2 + 3 * font;
    // A column takes colW (its node and its "seq N" centered in it); the last one half of it, plus the margin.
    const fit = Math.max(1, Math.floor((width - 10 - pendingX - colW / 2) / colW) + 1);
    const pending = waiting.slice(0, fit * PENDING_ROWS);
    pendingHidden = waiting.length - pending.length;
    // Room for the grid's label where the width allows: the grid's columns alone never pass the width.
    const label = Math.min(14 * font, width - 10 - x);
    const room = Math.max(label, Math.ceil(pending.length / PENDING_ROWS) * colW + NODE_R);
    const text =
      'committed, not in an SCC yet' +
      // Those beyond the columns that fit the width: counted, not drawn.
      (pendingHidden > 0 ? `, +${pendingHidden} more` : '') +
      (g.instances.some((i) => i.state === 'waiting-commit') ? ' (dashed: waits for a commit)' : '');
    pendingLabel = wrapWords(text, Math.max(8, Math.floor(room / (CHAR_EM * (font - 1)))));
    // The grid starts under the label's last line.
    const top = Math.max(head, pendingLabel.length * font + 8) + 14;
    pending.forEach((inst, k) =>
      at.set(inst.id, {
        x: (pendingX as number) + Math.floor(k / PENDING_ROWS) * colW,
        y: top + NODE_R + (k % PENDING_ROWS) * rowH,
      }),
    );
    h = Math.max(h, top + Math.min(pending.length, PENDING_ROWS) * rowH);
    x += room;
  }
  // Inside an SCC the order is seq, not the edges; pending instances' edges
  // would hide the boxes: draw the dependencies between boxes only.
  const edges = crossSccEdges(g).filter(([a, b]) => at.has(a) && at.has(b));
  return {
    boxes,
    at,
    edges,
    pendingX,
    hidden,
    pendingHidden,
    pendingLabel,
    narrow,
    w: Math.max(x, right) + 10,
    h: h + 10,
  };
}

/** The least room (ems) right of the boxes for the grid of pending instances and its label's words. */
const MIN_PENDING_EMS = 6.5;
/** Below this many ems of width, a canvas lays its SCC boxes out narrow (see `layoutEpaxos`). */
const NARROW_EMS = 36;
/** A character's width in ems, about, in the app's sans-serif font (a slight overestimate: labels never pass their room). */
const CHAR_EM = 0.58;

/** `text` in lines of at most `max` characters, broken between words (a longer word keeps a line of its own). */
export function wrapWords(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

// ---------------------------------------------------------------------------
// Late scheduling (CBASE)

function LateTrack({ track, position, state, statuses }: TrackProps) {
  const { pal, font } = useLook();
  const events = eventsOf(track.model.trace);
  const g = useMemo(() => lateGraph(events, position), [events, position]);
  // Full and blocked as the scheduler's status says them: from the same replay
  // state (its own replay of the graph agrees on the size: consistency.test.ts).
  const wait = state
    ? graphWait(state)
    : { full: g.bound > 0 && g.size >= g.bound, schedulerWaits: g.schedulerBlocked };
  const size = state ? state.graphSize : g.size;
  const bound = state ? state.graphBound : g.bound;
  // Idle workers as every view says it (the shared statuses), not recomputed here.
  const idle = statuses.filter((st) => st.activity === 'idle').map((st) => st.thread);
  return (
    <section className="graphs-track" data-testid="late-track" data-scheduler={track.scheduler}>
      <h4>
        {track.label}: graph holds {size} of {bound || '?'} · {g.inserted} inserted, {g.removed} removed
      </h4>
      <div className="late-status">
        <span className="late-slots" data-testid="late-slots" aria-label={`graph bound ${bound}`}>
          {Array.from({ length: Math.min(bound, 64) }, (_, k) => (
            <span key={k} className={k < size ? 'slot used' : 'slot'} />
          ))}
        </span>
        {wait.full ? (
          <strong data-testid="graph-full" style={{ color: pal.spin }}>
            {wait.schedulerWaits ? 'graph full: scheduler blocked' : 'graph full'}
          </strong>
        ) : wait.schedulerWaits ? (
          <strong data-testid="graph-room">room again: the scheduler wakes to insert</strong>
        ) : null}
        <span data-testid="lock-queue" className="late-lock" data-threads={g.lockQueue.join(',')}>
          graph lock: {g.lockQueue.length === 0 ? 'nobody queued' : `${g.lockQueue.map(threadName).join(' → ')} queued`}
        </span>
        {idle.length > 0 ? (
          <span data-testid="late-idle" data-threads={idle.join(',')}>
            asleep until a request is ready: {idle.map(threadName).join(', ')}
          </span>
        ) : null}
      </div>
      <LateGraphSvg g={g} pal={pal} font={font} id={track.key} />
      <Workers state={state} statuses={statuses} />
    </section>
  );
}

/**
 * Where each request of the late graph stands: layer `l` (its depth in the
 * graph) is a column of boxes `w` x `h`, columns left to right; the layers
 * that would pass `room` (the canvas's width) start a band under the ones
 * before, so no box is cut at the side (a long chain of conflicts on a
 * narrow canvas). Returns the boxes' corners and the drawing's size.
 */
export function placeLateLayers(
  cols: Map<number, number[]>,
  w: number,
  h: number,
  room: number,
): { at: Map<number, Placed>; width: number; height: number } {
  // A band of k columns is 10 + (k - 1) * step + w + 10 wide: margins on both sides, no gap after the last.
  const step = w + 40;
  const perBand = Math.max(1, Math.floor((room - 20 - w) / step) + 1);
  const at = new Map<number, Placed>();
  const layers = [...cols.keys()].sort((a, b) => a - b);
  let top = 0;
  let width = 20 + w;
  for (let first = 0; first < layers.length; first += perBand) {
    const band = layers.slice(first, first + perBand);
    let rows = 1;
    band.forEach((l, c) => {
      const reqs = cols.get(l) ?? [];
      reqs.forEach((r, k) => at.set(r, { x: 10 + c * step, y: top + 10 + k * (h + 10) }));
      rows = Math.max(rows, reqs.length);
    });
    width = Math.max(width, 20 + (band.length - 1) * step + w);
    top += 10 + rows * (h + 10);
  }
  return { at, width, height: Math.max(top, h + 20) };
}

function LateGraphSvg({ g, pal, font, id }: { g: LateGraph; pal: Palette; font: number; id: string }) {
  const box = useRef<HTMLDivElement>(null);
  const { width: room } = useSize(box, { width: 800, height: 0 });
  const nodes = g.nodes.slice(0, MAX_NODES);
  const layers = lateLayers(g);
  const cols = new Map<number, number[]>();
  for (const n of nodes) {
    const l = layers.get(n.req) ?? 0;
    cols.set(l, [...(cols.get(l) ?? []), n.req]);
  }
  const w = 4 * font + 8;
  const h = font * 2 + 8;
  const { at, width, height } = placeLateLayers(cols, w, h, room);
  return (
    <div ref={box} className="graphs-canvas">
      <svg data-testid="late-svg" width={width} height={height} role="img" aria-label="CBASE dependency graph">
        <defs>
          <ArrowMarker id={`larr-${id}`} refX="10" size="7" fill={pal.dim} />
        </defs>
        {g.edges.map(([from, to], k) => {
          const a = at.get(from);
          const b = at.get(to);
          return a && b ? (
            <line
              key={k}
              x1={a.x}
              y1={a.y + h / 2}
              x2={b.x + w}
              y2={b.y + h / 2}
              stroke={pal.dim}
              markerEnd={`url(#larr-${id})`}
            />
          ) : null;
        })}
        {nodes.map((n) => {
          const node = { id: n.req, state: n.state, done: n.state === 'done', runner: n.worker };
          return graphNode(pal, at, { ...node, testId: 'late-node', idAttr: 'data-req' }, (p, fill) => (
            <>
              <rect
                x={p.x}
                y={p.y}
                width={w}
                height={h}
                rx={5}
                fill={fill}
                stroke={n.state === 'ready' ? pal.focus : pal.fg}
                strokeWidth={n.state === 'ready' ? 3 : 1}
              />
              <text x={p.x + 6} y={p.y + font + 1} fontSize={font} fill={pal.fg}>
                r{n.req}
              </text>
              <text x={p.x + 6} y={p.y + 2 * font + 2} fontSize={font - 2} fill={pal.dim}>
                {n.state === 'running' ? `on ${threadName(n.worker ?? 0)}` : n.state}
              </text>
            </>
          ));
        })}
      </svg>
    </div>
  );
}
