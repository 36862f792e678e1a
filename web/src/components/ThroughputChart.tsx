import { useEffect, useMemo, useRef } from 'react';
import * as d3 from 'd3';
import { useRun } from '../store';
import { chartSeries } from './chartData';
import { modelLabel, virtualOf } from '../engine/virtualCores';
import { useDisplay } from '../views/display';
import { runKeys, schedulerIdOf } from '../views/charts/keys';

const WIDTH = 640;
const HEIGHT = 260;
const M = { top: 12, right: 16, bottom: 32, left: 64 };

/** Throughput over time, one line per run; live while running. */
export function ThroughputChart() {
  const live = useRun((s) => s.live);
  const report = useRun((s) => s.report);
  const liveVirtual = useRun((s) => (s.phase === 'running' ? s.runVirtualCores : null));
  const series = useMemo(() => chartSeries(live, report, liveVirtual), [live, report, liveVirtual]);
  // A model's run says so on its axis and above its legend (its clock is virtual).
  const model = virtualOf(report);
  const xAxis = useRef<SVGGElement>(null);
  const yAxis = useRef<SVGGElement>(null);

  const all = series.flatMap((s) => s.points);
  const x = d3
    .scaleLinear()
    .domain([0, d3.max(all, (p) => p.t_ms) ?? 1])
    .nice()
    .range([M.left, WIDTH - M.right]);
  const y = d3
    .scaleLinear()
    .domain([0, d3.max(all, (p) => p.ops_s) ?? 1])
    .nice()
    .range([HEIGHT - M.bottom, M.top]);
  const hc = useDisplay((s) => s.highContrast);
  // One color per scheduler, the same on every tab (views/families.ts); repeats get dashes.
  const text = useRun((s) => s.text);
  const keys = runKeys(
    series.map((s) => ({ scheduler: schedulerIdOf(s.scheduler, text), label: s.label })),
    hc,
  );
  const color = (key: string) => keys[series.findIndex((s) => s.key === key)]?.color ?? '#667085';
  const dash = (key: string) => keys[series.findIndex((s) => s.key === key)]?.dash;
  const line = d3
    .line<{ t_ms: number; ops_s: number }>()
    .x((p) => x(p.t_ms))
    .y((p) => y(p.ops_s));

  useEffect(() => {
    if (xAxis.current) d3.select(xAxis.current).call(d3.axisBottom(x).ticks(6));
    if (yAxis.current) d3.select(yAxis.current).call(d3.axisLeft(y).ticks(5, '~s'));
  });

  const maxOps = d3.max(all, (p) => p.ops_s) ?? 0;
  return (
    <figure
      className="chart"
      data-testid="throughput-chart"
      data-points={all.length}
      data-max-ops={maxOps}
      data-virtual-cores={model?.cores}
    >
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label="throughput over time">
        <g ref={xAxis} transform={`translate(0,${HEIGHT - M.bottom})`} />
        <g ref={yAxis} transform={`translate(${M.left},0)`} />
        <text x={WIDTH - M.right} y={HEIGHT - 2} textAnchor="end" className="axis-label">
          {model ? 'virtual time since run start (ms, model)' : 'time since run start (ms)'}
        </text>
        <text x={4} y={M.top} className="axis-label" transform={`rotate(-90 4 ${M.top}) translate(-150 10)`}>
          ops/s
        </text>
        {series.map((s) =>
          s.points.length === 1 ? (
            <circle key={s.key} cx={x(s.points[0].t_ms)} cy={y(s.points[0].ops_s)} r={3} fill={color(s.key)} />
          ) : (
            <path
              key={s.key}
              d={line(s.points) ?? ''}
              fill="none"
              stroke={color(s.key)}
              strokeDasharray={dash(s.key)}
              strokeWidth={2.2}
            />
          ),
        )}
        {all.length === 0 && (
          <text x={WIDTH / 2} y={HEIGHT / 2} textAnchor="middle" className="chart-empty">
            {liveVirtual !== null
              ? 'a run on virtual cores: its throughput, in virtual time, comes with the report'
              : 'run a scenario to see its throughput'}
          </text>
        )}
      </svg>
      <figcaption className="legend">
        {model && (
          <span className="legend-model" data-testid="chart-model">
            {modelLabel(model)}: a model's numbers, not measured on this machine
          </span>
        )}
        {series.map((s) => (
          <span key={s.key} className="legend-item">
            <span className="swatch" style={{ background: color(s.key) }} /> {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
