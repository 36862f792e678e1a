/**
 * Charts: throughput over time (live from the engine's progress polls while
 * a run goes on, then each run's `metrics.throughput_series`), latency
 * percentiles per run, per-thread executing / waiting / idle time, and the
 * queue length of every lane over time with the replay position marked.
 */
import { useEffect, useRef, type RefObject } from 'react';
import { useRun } from '../../store';
import { fontPx, useDisplay, usePalette } from '../display';
import type { ViewProps } from '../registry';
import { ExportButtons, toCsv } from '../../export';
import { groupedBars, lineChart, type Series } from './charts';
import { useSize } from '../useSize';

/** Long-format CSV of line series: one row per point. */
function seriesCsv(series: Series[], x: string, y: string): string {
  const rows = series.flatMap((s) => s.points.map((p) => ({ series: s.name, x: p.x, y: p.y })));
  return toCsv(rows, [
    { header: 'series', value: (r) => r.series },
    { header: x, value: (r) => r.x },
    { header: y, value: (r) => r.y },
  ]);
}

/** CSV of grouped bars: one row per group, one column per bar. */
function barsCsv(groups: { name: string; values: number[] }[], first: string, bars: string[]): string {
  return toCsv(groups, [
    { header: first, value: (g) => g.name },
    ...bars.map((b, i) => ({ header: b, value: (g: { values: number[] }) => g.values[i] })),
  ]);
}

/**
 * Draw into an SVG sized to its box in CSS pixels (no viewBox scaling), so
 * the type is exactly the font size asked for, large type included.
 */
function useSvg(draw: (svg: SVGSVGElement, w: number, h: number) => void, deps: unknown[]) {
  const ref = useRef<SVGSVGElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const { width } = useSize(box, { width: 520, height: 0 });
  useEffect(() => {
    const w = Math.max(280, width);
    const h = Math.round(Math.max(200, Math.min(420, w * 0.5)));
    if (ref.current) draw(ref.current, w, h);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, width]);
  return [ref, box] as const;
}

export function ChartsView({ tracks, allRuns, states }: ViewProps) {
  const pal = usePalette();
  const large = useDisplay((s) => s.large);
  const font = fontPx(large) - 1;
  const live = useRun((s) => s.live);
  const phase = useRun((s) => s.phase);

  const tput: Series[] =
    phase === 'running' || allRuns.length === 0
      ? live.map((s, i) => ({
          name: `${s.scheduler} (live)`,
          color: pal.classColor(i),
          points: s.points.map((p) => ({ x: p.t_ms, y: p.ops_s })),
        }))
      : allRuns.map((r, i) => ({
          name: r.label ?? r.scheduler,
          color: pal.classColor(i),
          points: (r.metrics?.throughput_series ?? []).map((p) => ({ x: p.t_ms, y: p.ops_s })),
        }));
  const [tputRef, tputBox] = useSvg(
    (svg, w, h) => lineChart(svg, tput, { w, h, xLabel: 'time (ms)', yLabel: 'throughput (ops/s)', p: pal, font }),
    [tput, pal, font],
  );

  const lat = allRuns.map((r) => {
    const l = r.latency_us ?? r.metrics?.latency_us;
    return { name: r.label ?? r.scheduler, values: [l?.p50 ?? 0, l?.p90 ?? 0, l?.p99 ?? 0] };
  });
  const [latRef, latBox] = useSvg(
    (svg, w, h) =>
      groupedBars(
        svg,
        lat,
        [
          { name: 'p50', color: pal.exec },
          { name: 'p90', color: pal.wait },
          { name: 'p99', color: pal.spin },
        ],
        { w, h, yLabel: 'latency (µs)', p: pal, font },
      ),
    [JSON.stringify(lat), pal, font],
  );

  const first = tracks[0];
  const run0 =
    allRuns.find((r) => r.scheduler === first?.scheduler && (r.label ?? r.scheduler) === first?.label) ?? allRuns[0];
  const th = (run0?.metrics?.threads ?? []).map((t) => ({
    name: `T${t.thread}`,
    values: [t.exec_ms, t.wait_ms, t.idle_ms],
  }));
  const [thRef, thBox] = useSvg(
    (svg, w, h) =>
      groupedBars(
        svg,
        th,
        [
          { name: 'executing', color: pal.exec },
          { name: 'waiting', color: pal.wait },
          { name: 'idle', color: pal.idle },
        ],
        { w, h, yLabel: `time per thread (ms) · ${run0?.label ?? run0?.scheduler ?? ''}`, p: pal, font, stacked: true },
      ),
    [JSON.stringify(th), pal, font],
  );

  const idx = first?.model.index;
  const tNs = states[0]?.tNs ?? 0;
  const qSeries: Series[] = idx
    ? Array.from({ length: idx.threads }, (_, t) => ({
        name: `T${t}`,
        color: pal.classColor(t),
        points: Array.from({ length: idx.queueBuckets }, (_, k) => ({
          x: ((k + 0.5) * idx.durationNs) / idx.queueBuckets / 1e6,
          y: idx.queueLen[t * idx.queueBuckets + k],
        })),
      }))
    : [];
  const [qRef, qBox] = useSvg(
    (svg, w, h) =>
      lineChart(svg, qSeries, {
        w,
        h,
        xLabel: 'time (ms)',
        yLabel: `queue length${idx?.queueFromSamples ? ' (QueueLen samples)' : ' (replayed queues)'}`,
        p: pal,
        font,
        cursorX: tNs / 1e6,
      }),
    [first, pal, font, Math.round(tNs / 1e4)],
  );

  return (
    <div className="charts" data-testid="charts-view">
      <ChartFigure
        title="Throughput over time"
        svg={tputRef}
        box={tputBox}
        csv={() => seriesCsv(tput, 't_ms', 'ops_s')}
        name="throughput"
      />
      <ChartFigure
        title="Latency percentiles"
        svg={latRef}
        box={latBox}
        csv={() => barsCsv(lat, 'run', ['p50_us', 'p90_us', 'p99_us'])}
        name="latency"
      />
      <ChartFigure
        title="Executing / waiting / idle per thread"
        svg={thRef}
        box={thBox}
        csv={() => barsCsv(th, 'thread', ['exec_ms', 'wait_ms', 'idle_ms'])}
        name="threads"
        empty={th.length === 0 ? 'No per-thread times in this report.' : undefined}
      />
      <ChartFigure
        title="Queue lengths over time"
        caption={first ? ` · ${first.label}` : ''}
        svg={qRef}
        box={qBox}
        csv={() => seriesCsv(qSeries, 't_ms', 'queue_len')}
        name="queues"
      />
    </div>
  );
}

/**
 * One chart with its caption and export buttons (SVG, PNG, CSV). `name`
 * makes the file names and the test ids (`export-<name>-svg` ...); `empty`
 * replaces the chart with a message when there is nothing to draw.
 */
function ChartFigure(props: {
  title: string;
  caption?: string;
  svg: RefObject<SVGSVGElement | null>;
  box: RefObject<HTMLDivElement | null>;
  csv: () => string;
  name: string;
  empty?: string;
}) {
  const { title, caption = '', svg, box, csv, name, empty } = props;
  return (
    <figure>
      <figcaption>
        {title}
        {caption}{' '}
        <ExportButtons
          svg={svg}
          csv={csv}
          basename={name}
          title={title}
          testIdPrefix={`export-${name}`}
          disabled={empty !== undefined}
        />
      </figcaption>
      <div ref={box} className="chart-box">
        {empty === undefined ? <svg ref={svg} /> : <p className="muted">{empty}</p>}
      </div>
    </figure>
  );
}
