import { useEffect, useRef, type ReactNode, type RefObject, type SVGProps } from 'react';
import * as d3 from 'd3';
import type { SweepPoint } from './model';
import type { SweepSeries } from './model';
import { schedulerColor } from '../views/families';

export const CHART_WIDTH = 780;
export const CHART_HEIGHT = 340;
/** The legend sits inside the SVG (right column) so an exported file carries it. */
const LEGEND_WIDTH = 220;
const M = { top: 40, right: 16 + LEGEND_WIDTH, bottom: 40, left: 70 };

export interface SweepChartProps {
  series: SweepSeries[];
  /** Sequential on the same stream, drawn as a dashed level. */
  baseline?: SweepPoint;
  /** Cores the points were judged against (`navigator.hardwareConcurrency`). */
  cores: number;
  title: string;
  subtitle: string;
  svgRef: RefObject<SVGSVGElement | null>;
  /**
   * The points are a model's (virtual cores): the x axis counts virtual
   * cores, every line is dashed, and each legend entry says "virtual
   * (model)", so the chart never reads as a measurement.
   */
  virtual?: boolean;
}

/** The scheduler's colour, the same on every tab (views/families.ts). */
export function executorColor(scheduler: string): string {
  return schedulerColor(scheduler);
}

/**
 * Throughput against worker threads, one line per executor, as in the
 * papers' scalability figures. Thread counts are evenly spaced categories
 * (1, 2, 4, 8 like the papers). A hollow marker is a point where the
 * workers and the delivering thread outnumber the cores (they time-share,
 * so the point says little about the scheduler); a red ring is a point the
 * oracle rejected.
 */
export function SweepChart({ series, baseline, cores, title, subtitle, svgRef, virtual = false }: SweepChartProps) {
  const dash = virtual ? '6 3' : undefined;
  const xName = virtual ? 'virtual cores (model: each runs one worker thread)' : 'worker threads';
  const xAxis = useRef<SVGGElement>(null);
  const yAxis = useRef<SVGGElement>(null);
  const all = series.flatMap((s) => s.points);
  const threads = [...new Set(all.map((p) => p.threads))].sort((a, b) => a - b);
  const x = d3
    .scalePoint<number>()
    .domain(threads)
    .range([M.left, CHART_WIDTH - M.right])
    .padding(0.5);
  const yMax = Math.max(
    d3.max(all, (p) => p.spread?.max ?? p.throughput_ops_s) ?? 0,
    baseline?.spread?.max ?? baseline?.throughput_ops_s ?? 0,
    1,
  );
  const y = d3
    .scaleLinear()
    .domain([0, yMax * 1.05])
    .nice()
    .range([CHART_HEIGHT - M.bottom, M.top]);
  const line = d3
    .line<SweepPoint>()
    .x((p) => x(p.threads) ?? 0)
    .y((p) => y(p.throughput_ops_s));
  const anyOver = all.some((p) => p.oversubscribed);
  const anyWrong = all.some((p) => !p.correct);

  useEffect(() => {
    if (xAxis.current) d3.select(xAxis.current).call(d3.axisBottom(x).tickSizeOuter(0));
    if (yAxis.current) d3.select(yAxis.current).call(d3.axisLeft(y).ticks(6, '~s'));
  });

  const legendX = CHART_WIDTH - LEGEND_WIDTH + 4;
  let row = 0;
  const nextRow = () => M.top + 6 + 18 * row++;
  return (
    <figure className="chart sweep-chart" data-testid="sweep-chart" data-points={all.length}>
      <svg
        ref={svgRef}
        viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
        role="img"
        aria-label={`${title}: throughput against ${xName}`}
        data-kind={virtual ? 'virtual' : 'real'}
        fontFamily="system-ui, sans-serif"
      >
        <text x={M.left} y={16} fontSize={14} fontWeight={600} fill="#1d2330">
          {title}
        </text>
        <text x={M.left} y={31} fontSize={11} fill="#5b6475">
          {subtitle}
        </text>
        <g ref={xAxis} transform={`translate(0,${CHART_HEIGHT - M.bottom})`} />
        <g ref={yAxis} transform={`translate(${M.left},0)`} />
        <text
          x={(M.left + CHART_WIDTH - M.right) / 2}
          y={CHART_HEIGHT - 6}
          textAnchor="middle"
          fontSize={11}
          fill="#5b6475"
        >
          {xName}
        </text>
        <text
          transform={`translate(16 ${(M.top + CHART_HEIGHT - M.bottom) / 2}) rotate(-90)`}
          textAnchor="middle"
          fontSize={11}
          fill="#5b6475"
        >
          throughput (requests/s)
        </text>
        {baseline && (
          <line
            data-testid="sweep-baseline"
            x1={M.left}
            x2={CHART_WIDTH - M.right}
            y1={y(baseline.throughput_ops_s)}
            y2={y(baseline.throughput_ops_s)}
            stroke="#5b6475"
            strokeDasharray="5 4"
            strokeWidth={1.2}
          />
        )}
        {series.map((s) => (
          <g key={s.label} data-executor={s.label}>
            {s.points.length > 1 && (
              <path
                d={line(s.points) ?? ''}
                fill="none"
                stroke={executorColor(s.scheduler)}
                strokeWidth={2}
                strokeDasharray={dash}
              />
            )}
            {s.points.map((p) => (
              <g key={p.threads}>
                {p.spread && p.spread.runs > 1 && (
                  <line
                    data-testid="sweep-spread"
                    data-min={p.spread.min}
                    data-max={p.spread.max}
                    x1={x(p.threads)}
                    x2={x(p.threads)}
                    y1={y(p.spread.min)}
                    y2={y(p.spread.max)}
                    stroke={executorColor(s.scheduler)}
                    strokeWidth={6}
                    strokeOpacity={0.35}
                    strokeLinecap="round"
                  />
                )}
                <circle
                  data-testid="sweep-point"
                  data-executor={s.label}
                  data-threads={p.threads}
                  data-virtual={String(virtual)}
                  data-writes={p.writes}
                  data-throughput={p.throughput_ops_s}
                  data-oversubscribed={String(p.oversubscribed)}
                  data-correct={String(p.correct)}
                  cx={x(p.threads)}
                  cy={y(p.throughput_ops_s)}
                  r={4.5}
                  fill={p.oversubscribed ? '#ffffff' : executorColor(s.scheduler)}
                  stroke={executorColor(s.scheduler)}
                  strokeWidth={2}
                >
                  <title>
                    {`${s.label} × ${p.mode_label ?? p.threads}: ${Math.round(p.throughput_ops_s).toLocaleString()} req/s` +
                      (p.spread && p.spread.runs > 1
                        ? ` (${Math.round(p.spread.min).toLocaleString()}-${Math.round(p.spread.max).toLocaleString()} over ${p.spread.runs})`
                        : '') +
                      ', ' +
                      `${p.speedup_vs_sequential.toFixed(2)}× sequential` +
                      (p.oversubscribed ? ' (oversubscribed)' : '') +
                      (p.correct ? '' : ` — WRONG: ${p.violation ?? 'oracle rejected'}`)}
                  </title>
                </circle>
                {!p.correct && (
                  <circle
                    cx={x(p.threads)}
                    cy={y(p.throughput_ops_s)}
                    r={8}
                    fill="none"
                    stroke="#c0392b"
                    strokeWidth={2}
                  />
                )}
              </g>
            ))}
          </g>
        ))}
        {all.length === 0 && (
          <text x={(M.left + CHART_WIDTH - M.right) / 2} y={CHART_HEIGHT / 2} textAnchor="middle" fill="#5b6475">
            run a sweep to see throughput against threads
          </text>
        )}
        <g className="sweep-legend" fontSize={11} fill="#1d2330">
          {series.map((s) => (
            <LegendRow
              key={s.label}
              x={legendX}
              y={nextRow()}
              label={virtual ? `${s.label}, virtual (model)` : s.label}
              line={{ stroke: executorColor(s.scheduler), strokeWidth: 2, strokeDasharray: dash }}
            >
              {(ly) => <circle cx={legendX + 11} cy={ly} r={4} fill={executorColor(s.scheduler)} />}
            </LegendRow>
          ))}
          {baseline && (
            <LegendRow
              x={legendX}
              y={nextRow()}
              label="sequential (same stream)"
              line={{ stroke: '#5b6475', strokeDasharray: '5 4', strokeWidth: 1.2 }}
            />
          )}
          {anyOver && (
            <LegendRow
              x={legendX}
              y={nextRow() + 6}
              label={<>hollow: threads + 1 &gt; {cores} cores</>}
              more="(oversubscribed, time-shared)"
              testId="sweep-legend-oversubscribed"
            >
              {(ly) => <circle cx={legendX + 11} cy={ly} r={4} fill="#ffffff" stroke="#5b6475" strokeWidth={2} />}
            </LegendRow>
          )}
          {anyWrong && (
            <LegendRow x={legendX} y={nextRow() + 24} label="rejected by the oracle" fill="#c0392b">
              {(ly) => <circle cx={legendX + 11} cy={ly} r={7} fill="none" stroke="#c0392b" strokeWidth={2} />}
            </LegendRow>
          )}
        </g>
      </svg>
    </figure>
  );
}

/**
 * One row of the legend at height `y`: its mark (a short `line` in the series' style, and what `children`
 * draw at that height), its label to the right, and an optional grey second line under the label.
 */
function LegendRow({
  x,
  y,
  label,
  fill,
  more,
  testId,
  line,
  children,
}: {
  x: number;
  y: number;
  label: ReactNode;
  fill?: string;
  more?: string;
  testId?: string;
  line?: Pick<SVGProps<SVGLineElement>, 'stroke' | 'strokeWidth' | 'strokeDasharray'>;
  children?: (y: number) => ReactNode;
}) {
  return (
    <g data-testid={testId}>
      {line && <line x1={x} x2={x + 22} y1={y} y2={y} {...line} />}
      {children?.(y)}
      <text x={x + 30} y={y + 4} fill={fill}>
        {label}
      </text>
      {more && (
        <text x={x + 30} y={y + 18} fill="#5b6475">
          {more}
        </text>
      )}
    </g>
  );
}
