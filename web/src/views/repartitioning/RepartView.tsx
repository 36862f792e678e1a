/**
 * The repartitioning view (paper 001): for each repartitioning run, the
 * workload graph (keys on a ring in key order, scan co-access as edges)
 * colored by the partition map at the replay time, recolored at each map
 * switch with the moved keys enlarged and the cut edges marked; the queue
 * CV over time with a tick per map switch and Base's pauses shaded; and the
 * syncs around the replay time drawn across the worker lanes they hold.
 * Two runs side by side (Base and Async) show Base's pauses beside Async's
 * uninterrupted scheduling.
 *
 * The graph comes from the engine (`workloadGraph()`: the last report's
 * stream); sigma.js and graphology are loaded only when a graph is drawn.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { engineHost, runStore } from '../../store';
import { fontPx, useDisplay, usePalette, type Palette } from '../display';
import type { ViewProps } from '../registry';
import type { Track } from '../../replay/store';
import { familyOf } from '../registry';
import { useSize } from '../useSize';
import { useWholeRows } from '../wholeRows';
import { drawStrip } from './chart';
import type { GraphCanvas } from './graphCanvas';
import { cutOf, ownersAt, pausedAt, seenAt, timeline, type GraphView, type RepartTimeline } from './model';
import './repartitioning.css';

type GraphState = { graph: GraphView } | { error: string } | null;

/** The view's rows of text, each shown whole or not at all (`useWholeRows`). */
const ROWS = '.repart-track > h4, .repart-stats, .repart-graph figcaption, .repart-graph > p';

export function RepartView({ tracks, states }: ViewProps) {
  const [g, setG] = useState<GraphState>(null);
  const view = useRef<HTMLDivElement>(null);
  useWholeRows(view, ROWS);
  const keys = tracks.map((t) => t.key).join(',');
  useEffect(() => {
    let live = true;
    // Asked of the worker that ran the report on screen (null: no report, the engine says why).
    engineHost
      .workloadGraph(runStore.getState().reportRan?.generation ?? engineHost.loaded?.generation ?? -1)
      .then((graph) => live && setG({ graph: graph as GraphView }))
      .catch((e: unknown) => live && setG({ error: e instanceof Error ? e.message : String(e) }));
    return () => {
      live = false;
    };
  }, [keys]);
  const mine = tracks
    .map((track, i) => ({ track, i }))
    .filter(({ track }) => (track.family ?? familyOf(track.scheduler)) === 'repartitioning');
  if (mine.length === 0)
    return <p>Load a repartitioning run (repart-rr, -sw, -base or -async) to see its partitions.</p>;
  return (
    <div className="repart-view" data-testid="repart-view" ref={view}>
      {mine.map(({ track, i }) => (
        <RepartTrack key={track.key} track={track} tNs={states[i]?.tNs ?? 0} g={g} />
      ))}
    </div>
  );
}

function RepartTrack({ track, tNs, g }: { track: Track; tNs: number; g: GraphState }) {
  const pal = usePalette();
  const large = useDisplay((s) => s.large);
  const font = fontPx(large) - 1;
  const tl = useMemo(() => timeline(track.model.trace), [track]);
  const workers = track.model.index.threads;
  const durationNs = track.model.index.durationNs;
  const svg = useRef<SVGSVGElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const { width } = useSize(box, { width: 600, height: 0 });
  // Redraw when the replay time moves by 10 µs or more.
  const tStep = Math.round(tNs / 1e4);
  useEffect(() => {
    if (svg.current) drawStrip(svg.current, tl, { w: Math.max(320, width), workers, durationNs, tNs, p: pal, font });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tl, width, workers, durationNs, tStep, pal, font]);
  const epochNow = tl.switches.filter((s) => s.t_ns <= tNs).length;
  const sw = epochNow > 0 ? tl.switches[epochNow - 1] : null;
  const part = tl.partitions.filter((p) => p.end_ns <= tNs).at(-1);
  return (
    <section className="repart-track" data-testid="repart-track">
      <h4>
        {track.label}: map {sw?.epoch ?? 0}
        {sw ? ` (switched at ${(sw.t_ns / 1e6).toFixed(1)} ms, ${sw.moved} keys moved)` : ' (round-robin placement)'}
        {pausedAt(tl, tNs) ? ' · scheduler stopped to repartition' : ''}
      </h4>
      <p className="repart-stats" data-testid="repart-stats">
        {tl.switches.length} map switches, {tl.partitions.length} partitions computed
        {part ? `; last partition: cut ${part.cut}, ${part.vertices} keys, ${(part.time_us / 1000).toFixed(1)} ms` : ''}
        {tl.pauses.length
          ? `; ${tl.pauses.length} pauses, ${(tl.pauses.reduce((a, p) => a + p.end_ns - p.start_ns, 0) / 1e6).toFixed(1)} ms stopped`
          : ''}
        ; {tl.syncs.length} syncs across lanes
      </p>
      {/* The time strip (queue balance, Base's pauses shaded, the syncs) first: the lesson's chart stays in view. */}
      <div ref={box} className="repart-strip">
        <svg ref={svg} data-testid="repart-strip" />
      </div>
      <GraphPanel g={g} tl={tl} tNs={tNs} epoch={epochNow} pal={pal} />
    </section>
  );
}

/** The graph, drawn lazily with sigma; restyled when the map (or the set of seen keys) changes. */
function GraphPanel({
  g,
  tl,
  tNs,
  epoch,
  pal,
}: {
  g: GraphState;
  tl: RepartTimeline;
  tNs: number;
  epoch: number;
  pal: Palette;
}) {
  const host = useRef<HTMLDivElement>(null);
  const canvas = useRef<GraphCanvas | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [mounted, setMounted] = useState(0);
  const graph = g && 'graph' in g ? g.graph : null;
  useEffect(() => {
    if (!graph || !host.current) return;
    let live = true;
    const el = host.current;
    import('./graphCanvas')
      .then((m) => {
        if (!live) return;
        canvas.current = m.mountGraph(el, graph);
        setMounted((k) => k + 1);
      })
      .catch((e: unknown) => live && setFailed(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
      canvas.current?.destroy();
      canvas.current = null;
    };
  }, [graph]);
  // Restyle at each map switch, and as new keys get placed (in 50 steps over the run).
  const seenStep = Math.round((tNs / Math.max(1, tl.cv.at(-1)?.t_ns ?? tNs)) * 50);
  const info = useMemo(() => {
    if (!graph) return null;
    const { owner, lastMoved } = ownersAt(graph, tl, tNs);
    const seen = seenAt(graph, tl, tNs);
    return { owner, lastMoved, seen, cut: cutOf(graph, owner, seen) };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [graph, tl, epoch, seenStep]);
  useEffect(() => {
    const c = canvas.current;
    if (!c || !graph || !info) return;
    const maxW = Math.max(1, ...graph.weight);
    c.restyle(
      graph.keys.map((_, v) => ({
        color: info.seen[v] ? pal.classColor(info.owner[v]) : pal.grid,
        size: (info.lastMoved.has(v) ? 5 : 1.5) + (3 * Math.log2(1 + graph.weight[v])) / Math.log2(1 + maxW),
      })),
      (u, v) => (info.owner[u] !== info.owner[v] && info.seen[u] && info.seen[v] ? pal.spin : pal.grid),
    );
  }, [info, mounted, pal, graph]);
  if (!g) return <p>Loading the workload graph…</p>;
  if ('error' in g) return <p data-testid="repart-graph-error">Workload graph not available: {g.error}</p>;
  return (
    <figure className="repart-graph">
      <figcaption>
        Workload graph of the stream: {g.graph.keys.length} keys on a ring in key order, {g.graph.edges_total} co-access
        edges{g.graph.edges.length < g.graph.edges_total ? ` (the ${g.graph.edges.length} heaviest drawn)` : ''}; color
        = owner, enlarged = moved at the last switch, red edges = cut ({info?.cut ?? 0} co-accesses cross workers)
      </figcaption>
      {failed ? <p>The graph needs WebGL: {failed}</p> : null}
      <div ref={host} className="repart-canvas" data-testid="repart-canvas" />
    </figure>
  );
}
