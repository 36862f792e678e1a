/**
 * The repartitioning time strip (d3, SVG): the queue-length CV over time
 * with a tick at every map switch and Base's pauses shaded, and below it the
 * worker lanes with the syncs of a window around the replay time drawn
 * across the lanes they hold.
 */
import * as d3 from 'd3';
import { linearScale, linePath, niceDomain } from '../charts/scales';
import type { Palette } from '../display';
import { lanesOf } from './lanes';
import type { RepartTimeline } from './model';
import { partitionPoint } from '../../trace/search';

export interface StripOptions {
  w: number;
  workers: number;
  durationNs: number;
  tNs: number;
  p: Palette;
  font: number;
}

/** Syncs drawn around the cursor, at most. */
const MAX_SYNCS = 60;

export function drawStrip(svg: SVGSVGElement, tl: RepartTimeline, o: StripOptions): void {
  const laneH = Math.max(8, Math.min(18, 120 / Math.max(1, o.workers)));
  const cvH = 110;
  const M = { top: 8, right: 12, bottom: Math.round(o.font * 2.4), left: Math.round(o.font * 4.2) };
  const lanesTop = cvH + 14;
  const h = lanesTop + laneH * o.workers + M.top + M.bottom;
  const iw = Math.max(80, o.w - M.left - M.right);
  const root = d3.select(svg);
  root.selectAll('*').remove();
  root.attr('viewBox', `0 0 ${o.w} ${h}`).attr('width', o.w).attr('height', h).style('background', o.p.bg);
  const g = root.append('g').attr('transform', `translate(${M.left},${M.top})`);
  const x = linearScale([0, Math.max(1, o.durationNs) / 1e6], [0, iw]);
  const maxCv = d3.max(tl.cv, (d) => d.cv) ?? 100;
  const y = linearScale(niceDomain([0, Math.max(10, maxCv)]), [cvH, 0]);
  // Base's pauses.
  g.selectAll('rect.pause')
    .data(tl.pauses)
    .join('rect')
    .attr('class', 'pause')
    .attr('data-testid', 'repart-pause')
    .attr('x', (d) => x(d.start_ns / 1e6))
    .attr('width', (d) => Math.max(1, x(d.end_ns / 1e6) - x(d.start_ns / 1e6)))
    .attr('y', 0)
    .attr('height', lanesTop + laneH * o.workers)
    .attr('fill', o.p.wait)
    .attr('opacity', 0.18);
  // Map switches.
  g.selectAll('line.switch')
    .data(tl.switches)
    .join('line')
    .attr('class', 'switch')
    .attr('x1', (d) => x(d.t_ns / 1e6))
    .attr('x2', (d) => x(d.t_ns / 1e6))
    .attr('y1', 0)
    .attr('y2', cvH)
    .attr('stroke', o.p.steal)
    .attr('stroke-width', 1)
    .attr('opacity', 0.6);
  // CV line.
  const line = (cv: typeof tl.cv) =>
    linePath(
      cv,
      (d) => x(d.t_ns / 1e6),
      (d) => y(d.cv),
    );
  g.append('path').datum(tl.cv).attr('d', line).attr('fill', 'none').attr('stroke', o.p.fg).attr('stroke-width', 1.5);
  const axisStyle = (a: d3.Selection<SVGGElement, unknown, null, undefined>) => {
    a.selectAll('text').attr('fill', o.p.dim).attr('font-size', o.font);
    a.selectAll('line,path').attr('stroke', o.p.grid);
  };
  axisStyle(g.append('g').call(d3.axisLeft(y).ticks(4)));
  g.append('text').attr('x', 4).attr('y', 10).attr('fill', o.p.dim).attr('font-size', o.font).text('queue CV (%)');
  // Lanes.
  const laneY = (w: number) => lanesTop + w * laneH + laneH / 2;
  for (let w = 0; w < o.workers; w++) {
    g.append('line').attr('x1', 0).attr('x2', iw).attr('y1', laneY(w)).attr('y2', laneY(w)).attr('stroke', o.p.grid);
    g.append('text')
      .attr('x', -4)
      .attr('y', laneY(w) + o.font / 3)
      .attr('text-anchor', 'end')
      .attr('fill', o.p.dim)
      .attr('font-size', o.font)
      .text(`T${w}`);
  }
  // Syncs nearest the cursor, drawn across the lanes they hold.
  const near = nearestSyncs(tl, o.tNs, MAX_SYNCS);
  const syncs = g.append('g').attr('data-testid', 'repart-syncs');
  for (const s of near) {
    const ls = lanesOf(s.lanes).filter((l) => l < o.workers);
    if (ls.length < 2) continue;
    const sx = x(s.t_ns / 1e6);
    syncs
      .append('line')
      .attr('x1', sx)
      .attr('x2', sx)
      .attr('y1', laneY(ls[0]))
      .attr('y2', laneY(ls[ls.length - 1]))
      .attr('stroke', o.p.spin)
      .attr('stroke-width', 1);
    for (const l of ls)
      syncs
        .append('circle')
        .attr('cx', sx)
        .attr('cy', laneY(l))
        .attr('r', l === s.executor ? 3 : 2)
        .attr('fill', l === s.executor ? o.p.spin : o.p.bg)
        .attr('stroke', o.p.spin);
  }
  const bottom = lanesTop + laneH * o.workers;
  axisStyle(g.append('g').attr('transform', `translate(0,${bottom})`).call(d3.axisBottom(x).ticks(6)));
  g.append('text')
    .attr('x', iw)
    .attr('y', bottom + M.bottom - 4)
    .attr('text-anchor', 'end')
    .attr('fill', o.p.dim)
    .attr('font-size', o.font)
    .text('time (ms)');
  // Replay position.
  g.append('line')
    .attr('x1', x(o.tNs / 1e6))
    .attr('x2', x(o.tNs / 1e6))
    .attr('y1', 0)
    .attr('y2', bottom)
    .attr('stroke', o.p.focus)
    .attr('stroke-dasharray', '4 3');
}

/** The `k` syncs queued closest in time to `tNs` (binary search, syncs are in time order). */
export function nearestSyncs(tl: RepartTimeline, tNs: number, k: number): RepartTimeline['syncs'] {
  const s = tl.syncs;
  const lo = partitionPoint(s.length, (i) => s[i].t_ns < tNs);
  const a = Math.max(0, Math.min(lo - Math.ceil(k / 2), s.length - k));
  return s.slice(a, Math.min(s.length, a + k));
}
