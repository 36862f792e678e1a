/**
 * d3 chart helpers: each draws into an <svg> element it is given, from
 * plain numbers, so the React side only supplies data and a ref.
 *
 * Every chart carries its title inside the SVG (so an exported SVG or PNG
 * has it) and its legend below the plot, never on the data. Sizes are CSS
 * pixels: the type is exactly `font` px, large type included.
 */
import * as d3 from 'd3';
import { bandScale, linearScale, linePath, niceDomain } from './scales';
import type { Palette } from '../display';

export interface Series {
  name: string;
  color: string;
  /** Stroke dash pattern, e.g. "6 3" (two runs of one scheduler share a color). */
  dash?: string;
  /** y = NaN leaves a gap (no sample there). */
  points: { x: number; y: number }[];
}

export interface Key {
  name: string;
  color: string;
  dash?: string;
}

/** The smallest plot (axes included) a chart shrinks to in a short view. */
export const MIN_PLOT_PX = 120;

interface Frame {
  g: d3.Selection<SVGGElement, unknown, null, undefined>;
  iw: number;
  ih: number;
  M: { top: number; right: number; bottom: number; left: number };
}

/** Rows the legend needs for `keys` at width `w`. */
function legendRows(keys: readonly Key[], w: number, font: number): number {
  if (keys.length < 2) return 0;
  let rows = 1;
  let x = 0;
  for (const k of keys) {
    const kw = itemWidth(k, font);
    if (x > 0 && x + kw > w) {
      rows++;
      x = 0;
    }
    x += kw;
  }
  return rows;
}

function itemWidth(k: Key, font: number): number {
  return font * 2 + k.name.length * font * 0.58 + font;
}

/**
 * The frame: background, title band, plot area, legend band below. `h` is
 * the plot's own height; the SVG grows by the title and legend bands.
 */
function frame(svg: SVGSVGElement, o: ChartOptions, keys: readonly Key[]): Frame {
  const font = o.font;
  const rows = legendRows(keys, o.w - 16, font);
  const titleH = o.title ? Math.round(font * 1.9) : 0;
  const legendH = rows > 0 ? rows * Math.round(font * 1.5) + 6 : 0;
  const M = {
    top: titleH + Math.round(font * 1.6),
    // Room for half of the last x tick label, centred on the plot's right edge.
    right: Math.round(font * 1.8),
    bottom: Math.round(font * 2.6) + legendH,
    left: Math.round(font * 4.6),
  };
  // A plot no taller than the SVG may be (the view's height), never below a readable minimum.
  const plotH = o.maxTotal ? Math.max(MIN_PLOT_PX, Math.min(o.h, o.maxTotal - titleH - legendH)) : o.h;
  const total = plotH + titleH + legendH;
  const root = d3.select(svg);
  root.selectAll('*').remove();
  root
    .attr('viewBox', `0 0 ${o.w} ${total}`)
    .attr('width', o.w)
    .attr('height', total)
    .attr('font-family', 'system-ui, sans-serif')
    .style('background', o.p.bg);
  root.append('rect').attr('width', o.w).attr('height', total).attr('fill', o.p.bg);
  if (o.title) {
    root
      .append('text')
      .attr('x', 8)
      .attr('y', Math.round(font * 1.3))
      .attr('font-size', Math.round(font * 1.1))
      .attr('font-weight', 600)
      .attr('fill', o.p.fg)
      .text(o.title);
  }
  const iw = o.w - M.left - M.right;
  const ih = total - M.top - M.bottom;
  const g = root.append('g').attr('transform', `translate(${M.left},${M.top})`);
  if (rows > 0) legend(root, keys, 8, total - legendH + 4, o.w - 16, o.p, font);
  return { g, iw, ih, M };
}

function styleAxis(g: d3.Selection<SVGGElement, unknown, null, undefined>, p: Palette, font: number) {
  g.selectAll('text').attr('fill', p.dim).attr('font-size', font);
  g.selectAll('line,path').attr('stroke', p.grid);
}

/** The y axis' name, above the axis at the frame's left edge. */
function yAxisLabel({ g, M }: Pick<Frame, 'g' | 'M'>, o: ChartOptions, text: string) {
  g.append('text')
    .attr('x', -M.left + 8)
    .attr('y', -Math.round(o.font * 0.6))
    .attr('fill', o.p.dim)
    .attr('font-size', o.font)
    .text(text);
}

export interface ChartOptions {
  w: number;
  /** Height of the plot itself (title and legend add to it). */
  h: number;
  /**
   * The most the whole SVG (title, plot, axis labels, legend) may take: the
   * plot shrinks to it (not below MIN_PLOT_PX), so the x axis and the legend
   * stay inside the box that shows the chart.
   */
  maxTotal?: number;
  p: Palette;
  font: number;
  title?: string;
}

/** Lines over a shared x axis; `cursorX` draws the replay position; NaN y values are gaps. */
export function lineChart(
  svg: SVGSVGElement,
  series: Series[],
  o: ChartOptions & { xLabel: string; yLabel: string; cursorX?: number; onPickX?: (x: number) => void },
) {
  const { g, iw, ih, M } = frame(svg, o, series);
  const all = series.flatMap((s) => s.points).filter((d) => Number.isFinite(d.y));
  const x = linearScale([0, d3.max(all, (d) => d.x) ?? 1], [0, iw]);
  const y = linearScale(niceDomain([0, (d3.max(all, (d) => d.y) ?? 1) * 1.05 || 1]), [ih, 0]);
  styleAxis(
    g.append('g').attr('class', 'x-axis').attr('transform', `translate(0,${ih})`).call(d3.axisBottom(x).ticks(6)),
    o.p,
    o.font,
  );
  styleAxis(g.append('g').call(d3.axisLeft(y).ticks(5, 's')), o.p, o.font);
  g.append('text')
    .attr('class', 'x-label')
    .attr('x', iw)
    .attr('y', ih + Math.round(o.font * 2.4))
    .attr('text-anchor', 'end')
    .attr('fill', o.p.dim)
    .attr('font-size', o.font)
    .text(o.xLabel);
  yAxisLabel({ g, M }, o, o.yLabel);
  const line = (points: Series['points']) =>
    linePath(
      points,
      (d) => x(d.x),
      (d) => y(d.y),
      (d) => Number.isFinite(d.y),
    );
  for (const s of series) {
    g.append('path')
      .datum(s.points)
      .attr('fill', 'none')
      .attr('stroke', s.color)
      .attr('stroke-width', 2.5)
      .attr('stroke-dasharray', s.dash ?? null)
      .attr('d', line);
  }
  if (o.cursorX !== undefined) {
    g.append('line')
      .attr('x1', x(o.cursorX))
      .attr('x2', x(o.cursorX))
      .attr('y1', 0)
      .attr('y2', ih)
      .attr('stroke', o.p.focus)
      .attr('stroke-width', 2)
      .attr('stroke-dasharray', '5 4');
  }
  if (o.onPickX) {
    const pick = o.onPickX;
    g.append('rect')
      .attr('width', iw)
      .attr('height', ih)
      .attr('fill', 'transparent')
      .style('cursor', 'pointer')
      .attr('data-testid', 'chart-pick')
      .on('click', (ev: MouseEvent) => pick(x.invert(d3.pointer(ev)[0])));
  }
}

function legend(
  root: d3.Selection<SVGSVGElement, unknown, null, undefined>,
  keys: readonly Key[],
  x0: number,
  y0: number,
  width: number,
  p: Palette,
  font: number,
) {
  const items = root.append('g').attr('class', 'legend').attr('transform', `translate(${x0},${y0})`);
  let x = 0;
  let row = 0;
  const rowH = Math.round(font * 1.5);
  for (const k of keys) {
    const kw = itemWidth(k, font);
    if (x > 0 && x + kw > width) {
      row++;
      x = 0;
    }
    const it = items.append('g').attr('transform', `translate(${x},${row * rowH})`);
    it.append('line')
      .attr('x1', 0)
      .attr('x2', font * 1.5)
      .attr('y1', font * 0.55)
      .attr('y2', font * 0.55)
      .attr('stroke', k.color)
      .attr('stroke-width', Math.max(4, font * 0.5))
      .attr('stroke-dasharray', k.dash ?? null);
    it.append('text')
      .attr('x', font * 2)
      .attr('y', font * 0.9)
      .attr('fill', p.fg)
      .attr('font-size', font)
      .text(k.name);
    x += kw;
  }
}

/** Grouped (or stacked) bars: one group per category, one bar per key. */
export function groupedBars(
  svg: SVGSVGElement,
  groups: { name: string; values: number[] }[],
  keys: Key[],
  o: ChartOptions & { yLabel: string; stacked?: boolean },
) {
  const { g, iw, ih, M } = frame(svg, o, keys);
  const x0 = bandScale(
    groups.map((d) => d.name),
    [0, iw],
    0.2,
  );
  const maxV = o.stacked ? d3.max(groups, (d) => d3.sum(d.values)) : d3.max(groups, (d) => d3.max(d.values));
  const y = linearScale(niceDomain([0, (maxV ?? 1) || 1]), [ih, 0]);
  styleAxis(
    g.append('g').attr('class', 'x-axis').attr('transform', `translate(0,${ih})`).call(d3.axisBottom(x0)),
    o.p,
    o.font,
  );
  styleAxis(g.append('g').call(d3.axisLeft(y).ticks(5, 's')), o.p, o.font);
  yAxisLabel({ g, M }, o, o.yLabel);
  const x1 = bandScale(
    keys.map((k) => k.name),
    [0, x0.bandwidth()],
    0.05,
  );
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
        .attr('stroke', keys[k].dash ? o.p.fg : null)
        .attr('stroke-dasharray', keys[k].dash ?? null)
        .append('title')
        .text(`${grp.name} ${keys[k].name}: ${d3.format('.3s')(v)}`);
      acc += v;
    });
  }
}
