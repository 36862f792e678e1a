/**
 * d3 chart helpers: each draws into an <svg> element it is given, from
 * plain numbers, so the React side only supplies data and a ref.
 */
import * as d3 from 'd3';
import type { Palette } from '../display';

export interface Series {
  name: string;
  color: string;
  points: { x: number; y: number }[];
}

/** Margins that make room for axis labels of `font` px. */
function margins(font: number) {
  return { top: Math.round(font * 0.9), right: 12, bottom: Math.round(font * 2.6), left: Math.round(font * 4.6) };
}

function frame(svg: SVGSVGElement, w: number, h: number, p: Palette, M: ReturnType<typeof margins>) {
  const root = d3.select(svg);
  root.selectAll('*').remove();
  root.attr('viewBox', `0 0 ${w} ${h}`).attr('width', w).attr('height', h).style('background', p.bg);
  return root.append('g').attr('transform', `translate(${M.left},${M.top})`);
}

function styleAxis(g: d3.Selection<SVGGElement, unknown, null, undefined>, p: Palette, font: number) {
  g.selectAll('text').attr('fill', p.dim).attr('font-size', font);
  g.selectAll('line,path').attr('stroke', p.grid);
}

/** Lines over a shared x axis; `cursorX` draws the replay position. */
export function lineChart(
  svg: SVGSVGElement,
  series: Series[],
  o: { w: number; h: number; xLabel: string; yLabel: string; p: Palette; font: number; cursorX?: number },
) {
  const M = margins(o.font);
  const g = frame(svg, o.w, o.h, o.p, M);
  const iw = o.w - M.left - M.right;
  const ih = o.h - M.top - M.bottom;
  const all = series.flatMap((s) => s.points);
  const x = d3
    .scaleLinear()
    .domain([0, d3.max(all, (d) => d.x) ?? 1])
    .range([0, iw]);
  const y = d3
    .scaleLinear()
    .domain([0, (d3.max(all, (d) => d.y) ?? 1) * 1.05 || 1])
    .nice()
    .range([ih, 0]);
  styleAxis(g.append('g').attr('transform', `translate(0,${ih})`).call(d3.axisBottom(x).ticks(6)), o.p, o.font);
  styleAxis(g.append('g').call(d3.axisLeft(y).ticks(5, 's')), o.p, o.font);
  g.append('text')
    .attr('x', iw)
    .attr('y', ih + M.bottom - 4)
    .attr('text-anchor', 'end')
    .attr('fill', o.p.dim)
    .attr('font-size', o.font)
    .text(o.xLabel);
  g.append('text').attr('x', 4).attr('y', 8).attr('fill', o.p.dim).attr('font-size', o.font).text(o.yLabel);
  const line = d3
    .line<{ x: number; y: number }>()
    .x((d) => x(d.x))
    .y((d) => y(d.y));
  for (const s of series) {
    g.append('path')
      .datum(s.points)
      .attr('fill', 'none')
      .attr('stroke', s.color)
      .attr('stroke-width', 2)
      .attr('d', line);
  }
  if (o.cursorX !== undefined) {
    g.append('line')
      .attr('x1', x(o.cursorX))
      .attr('x2', x(o.cursorX))
      .attr('y1', 0)
      .attr('y2', ih)
      .attr('stroke', o.p.focus)
      .attr('stroke-dasharray', '4 3');
  }
  legend(g, series, iw, o.p, o.font);
}

function legend(
  g: d3.Selection<SVGGElement, unknown, null, undefined>,
  series: { name: string; color: string }[],
  iw: number,
  p: Palette,
  font: number,
) {
  if (series.length < 2) return;
  const items = g.append('g').attr('transform', `translate(${iw - 150},4)`);
  series.slice(0, 8).forEach((s, i) => {
    items
      .append('rect')
      .attr('x', 0)
      .attr('y', i * (font + 4))
      .attr('width', 10)
      .attr('height', 10)
      .attr('fill', s.color);
    items
      .append('text')
      .attr('x', 14)
      .attr('y', i * (font + 4) + 9)
      .attr('fill', p.fg)
      .attr('font-size', font)
      .text(s.name);
  });
}

/** Grouped bars: one group per category, one bar per key. */
export function groupedBars(
  svg: SVGSVGElement,
  groups: { name: string; values: number[] }[],
  keys: { name: string; color: string }[],
  o: { w: number; h: number; yLabel: string; p: Palette; font: number; stacked?: boolean },
) {
  const M = margins(o.font);
  const g = frame(svg, o.w, o.h, o.p, M);
  const iw = o.w - M.left - M.right;
  const ih = o.h - M.top - M.bottom;
  const x0 = d3
    .scaleBand()
    .domain(groups.map((d) => d.name))
    .range([0, iw])
    .padding(0.2);
  const maxV = o.stacked ? d3.max(groups, (d) => d3.sum(d.values)) : d3.max(groups, (d) => d3.max(d.values));
  const y = d3
    .scaleLinear()
    .domain([0, (maxV ?? 1) || 1])
    .nice()
    .range([ih, 0]);
  styleAxis(g.append('g').attr('transform', `translate(0,${ih})`).call(d3.axisBottom(x0)), o.p, o.font);
  styleAxis(g.append('g').call(d3.axisLeft(y).ticks(5, 's')), o.p, o.font);
  g.append('text').attr('x', 4).attr('y', 8).attr('fill', o.p.dim).attr('font-size', o.font).text(o.yLabel);
  const x1 = d3
    .scaleBand()
    .domain(keys.map((k) => k.name))
    .range([0, x0.bandwidth()])
    .padding(0.05);
  for (const grp of groups) {
    let acc = 0;
    grp.values.forEach((v, k) => {
      const bx = (x0(grp.name) ?? 0) + (o.stacked ? 0 : (x1(keys[k].name) ?? 0));
      const bw = o.stacked ? x0.bandwidth() : x1.bandwidth();
      const top = o.stacked ? y(acc + v) : y(v);
      const bottom = o.stacked ? y(acc) : ih;
      g.append('rect')
        .attr('x', bx)
        .attr('y', top)
        .attr('width', bw)
        .attr('height', Math.max(0, bottom - top))
        .attr('fill', keys[k].color)
        .append('title')
        .text(`${grp.name} ${keys[k].name}: ${d3.format('.3s')(v)}`);
      acc += v;
    });
  }
  legend(g, keys, iw, o.p, o.font);
}
