/**
 * Charts: throughput over time (live from the engine's progress polls while
 * a run goes on, then each run's `metrics.throughput_series`), latency
 * percentiles per run, per-thread executing / waiting / idle time for each
 * replayed run, and the queue length of every lane of the leading run over
 * time, with the replay position marked (click the chart to move there).
 *
 * One color per scheduler (views/families.ts), the same as on every tab;
 * two runs of one scheduler differ by their dashes. Every chart carries its
 * title and legend in its SVG, so exports have them.
 */
import { createContext, useContext, useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useRun } from '../../store';
import { replayStore, useReplay } from '../../replay/store';
import { queueBucketEndNs } from '../../trace/index';
import { fontPx, useDisplay, usePalette, type Palette } from '../display';
import type { RunReport } from '../../engine/protocol';
import { coresNote } from './coresNote';
import { groupTitle, outcomeGroups, type RunGroup } from './outcomeGroups';
import { lessonById } from '../../lessons/lessons';
import { previousInScope, useLesson } from '../../lessons/store';
import { checkOutcome, figureText } from '../../lessons/outcome';
import type { ViewProps } from '../registry';
import { ExportButtons, toCsv } from '../../export';
import { groupedBars, lineChart, type Series } from './charts';
import { runKeys, schedulerIdOf } from './keys';
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
/** The height of the box the charts are shown in (0 while unknown): each chart fits in it whole. */
const ViewHeight = createContext(0);

function useSvg(draw: (svg: SVGSVGElement, w: number, h: number, maxTotal?: number) => void, deps: unknown[]) {
  const ref = useRef<SVGSVGElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const { width } = useSize(box, { width: 520, height: 0 });
  const viewH = useContext(ViewHeight);
  useEffect(() => {
    const w = Math.max(280, width);
    const h = Math.round(Math.max(180, Math.min(380, w * 0.42)));
    // The export buttons above the chart take their line of the view too.
    const caption = box.current?.parentElement?.querySelector('figcaption')?.getBoundingClientRect().height ?? 0;
    const maxTotal = viewH > 0 ? Math.floor(viewH - caption - 8) : undefined;
    if (ref.current) draw(ref.current, w, h, maxTotal);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, width, viewH]);
  return [ref, box] as const;
}

/** A line chart over the run's time (x: ms since the run started), drawn again when `deps` change. */
function useRunTimeChart(
  series: Series[],
  o: Omit<Parameters<typeof lineChart>[2], 'w' | 'h' | 'maxTotal' | 'xLabel'>,
  deps: unknown[],
) {
  return useSvg(
    (svg, w, h, maxTotal) =>
      lineChart(svg, series, { w, h, maxTotal, xLabel: 'time since the run started (ms)', ...o }),
    deps,
  );
}

/** Colors of worker threads in the queue chart (not class colors: lines are threads). */
const THREAD_COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2'];
const THREAD_COLORS_HC = ['#5fa8ff', '#ff6b5e', '#4ee67a', '#c59bff', '#ffb000', '#2ee6cf', '#e0b080', '#ff8fd8'];
function threadColor(t: number, hc: boolean): string {
  const c = hc ? THREAD_COLORS_HC : THREAD_COLORS;
  return c[t % c.length];
}

/**
 * The box the charts are shown in: as high as the view, so each chart can
 * fit in it whole (its x axis and legend included), the view scrolling from
 * one chart to the next.
 */
function ChartsFit({ children }: { children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const { height } = useSize(box, { width: 0, height: 0 });
  return (
    <div ref={box} className="charts-fit">
      <ViewHeight.Provider value={height}>{children}</ViewHeight.Provider>
    </div>
  );
}

export function ChartsView(props: ViewProps) {
  return (
    <ChartsFit>
      <ChartsBody {...props} />
    </ChartsFit>
  );
}

function ChartsBody({ tracks, allRuns, runs, states }: ViewProps) {
  const pal = usePalette();
  const hc = useDisplay((s) => s.highContrast);
  const large = useDisplay((s) => s.large);
  const font = fontPx(large) - 1;
  const phase = useRun((s) => s.phase);
  const leader = useReplay((s) => s.leader);
  const before = useRunBefore();

  const liveMode = phase === 'running' || allRuns.length === 0;
  const groups = liveMode ? [] : outcomeGroups(allRuns, before);

  return (
    <div className="charts" data-testid="charts-view">
      {liveMode && <LiveThroughput pal={pal} font={font} hc={hc} />}
      {groups.map((g, i) => (
        <OutcomeCharts
          key={`${g.kind}:${g.before}`}
          group={g}
          alone={groups.length === 1}
          name={i === 0 ? '' : `-${i + 1}`}
          pal={pal}
          font={font}
          hc={hc}
        />
      ))}
      {tracks.map((t, i) => (
        <ThreadTimes
          key={t.key}
          run={runs[i]}
          label={t.label}
          name={i === 0 ? 'threads' : `threads-${i + 1}`}
          pal={pal}
          font={font}
        />
      ))}
      {tracks[leader] && (
        <QueueChart i={leader} label={tracks[leader].label} props={{ tracks, states }} pal={pal} hc={hc} font={font} />
      )}
    </div>
  );
}

/**
 * The runs of the report before, inside a lesson that started both runs: a
 * lesson's virtual run is drawn beside the real run it re-ran, in charts of
 * their own (outcomeGroups adds them only when their kind differs, so a
 * what-if's run before stays out of the charts, as before).
 */
function useRunBefore(): RunReport[] {
  const previous = useRun((s) => s.previous);
  const serial = useRun((s) => s.runSerial);
  // Inside a lesson only, where both runs are the lesson's (its run and its re-run on virtual cores).
  const inLesson = useLesson((s) =>
    previous ? s.lessonId !== null && previousInScope(s, serial, previous.serial) : false,
  );
  return previous && previous.serial === serial - 1 && inLesson ? previous.report.runs : [];
}

/** Throughput while a run goes on, from the engine's progress polls. */
function LiveThroughput({ pal, font, hc }: { pal: Palette; font: number; hc: boolean }) {
  const live = useRun((s) => s.live);
  const text = useRun((s) => s.text);
  const keys = runKeys(
    live.map((s) => ({ scheduler: schedulerIdOf(s.scheduler, text), label: `${s.scheduler} (live)` })),
    hc,
  );
  const tput: Series[] = live.map((s, i) => ({ ...keys[i], points: s.points.map((p) => ({ x: p.t_ms, y: p.ops_s })) }));
  const [tputRef, tputBox] = useRunTimeChart(
    tput,
    { yLabel: 'requests executed per second', p: pal, font, title: 'Throughput over time' },
    [JSON.stringify(tput), pal, font],
  );
  return (
    <>
      <ChartFigure
        title="Throughput over time"
        svg={tputRef}
        box={tputBox}
        csv={() => seriesCsv(tput, 't_ms', 'ops_s')}
        name="throughput"
      />
      <ChartFigure
        title="Latency percentiles"
        svg={{ current: null }}
        box={{ current: null }}
        csv={() => ''}
        name="latency"
        empty="Latencies come with the report, when the run ends."
      />
    </>
  );
}

/**
 * Throughput over time and latency percentiles of one group of runs: all
 * measured, or all one model's. When the charts hold more than one group,
 * each title says which; a model's group says it is a model's on its axis,
 * its title, its CSV rows and its caption, with the lesson's outcome read
 * from it.
 */
function OutcomeCharts({
  group,
  alone,
  name,
  pal,
  font,
  hc,
}: {
  group: RunGroup;
  alone: boolean;
  name: string;
  pal: Palette;
  font: number;
  hc: boolean;
}) {
  const cores = useRun((s) => s.report?.cores ?? 0);
  const serial = useRun((s) => s.runSerial);
  const lessonId = useLesson((s) => (s.serial === serial ? s.lessonId : null));
  const lesson = lessonById(lessonId);
  const runs = group.runs;
  const crowded = group.virtual ? null : coresNote(runs, cores);
  const kindText = groupTitle(group);
  const suffix = alone && !group.virtual ? '' : ` · ${kindText}`;
  const keys = runKeys(runs, hc);
  const tput: Series[] = runs.map((r, i) => ({
    ...keys[i],
    points: (r.metrics?.throughput_series ?? []).map((p) => ({ x: p.t_ms, y: p.ops_s })),
  }));
  const tputTitle = `Throughput over time${suffix}`;
  const xLabel = group.virtual ? 'virtual time since the run started (ms, model)' : 'time since the run started (ms)';
  const [tputRef, tputBox] = useSvg(
    (svg, w, h, maxTotal) =>
      lineChart(svg, tput, {
        w,
        h,
        maxTotal,
        xLabel,
        yLabel: 'requests executed per second',
        p: pal,
        font,
        title: tputTitle,
      }),
    [JSON.stringify(tput), pal, font, tputTitle, xLabel],
  );
  // Latency: one group per percentile, one bar per run (in the run's color).
  const lat = (['p50', 'p90', 'p99'] as const).map((q) => ({
    name: q,
    values: runs.map((r) => (r.latency_us ?? r.metrics?.latency_us)?.[q] ?? 0),
  }));
  const latTitle = `Latency percentiles${suffix}`;
  const [latRef, latBox] = useSvg(
    (svg, w, h, maxTotal) =>
      groupedBars(svg, lat, keys, { w, h, maxTotal, yLabel: 'latency (µs)', p: pal, font, title: latTitle }),
    [JSON.stringify(lat), JSON.stringify(keys), pal, font, latTitle],
  );
  // The lesson's outcome, said of its virtual run only (a real run's figures depend on this machine's cores).
  const checks =
    group.virtual && lesson?.virtual
      ? lesson.virtual.outcome.flatMap((o) => {
          const c = checkOutcome(o, runs);
          return c ? [c] : [];
        })
      : [];
  const virtualHint =
    !group.virtual && crowded && lesson?.virtual
      ? ` The lesson's run on ${lesson.virtual.cores} virtual cores (the "on ${lesson.virtual.cores} virtual cores" button above) gives every thread a core of its own: a model's numbers, drawn apart from these.`
      : '';
  const modelNote = group.virtual
    ? `${kindText}: the same scheduler code, one thread at a time in virtual time under a cost table. These numbers are a model's, not this machine's, and are never drawn in one chart with measured ones.${lesson?.virtual ? ` ${lesson.virtual.why}` : ''}`
    : undefined;
  const rowKind = (label: string) => (group.virtual ? `${label} [${group.kind}]` : label);
  return (
    <>
      <ChartFigure
        title={tputTitle}
        svg={tputRef}
        box={tputBox}
        csv={() =>
          seriesCsv(
            tput.map((t) => ({ ...t, name: rowKind(t.name) })),
            't_ms',
            'ops_s',
          )
        }
        name={`throughput${name}`}
        note={crowded ? crowded + virtualHint : modelNote}
        noteTestId={group.virtual ? 'virtual-note' : 'cores-note'}
        noteWarn={crowded !== null}
        data={{ 'data-kind': group.virtual ? 'virtual' : 'real', 'data-before': String(group.before) }}
        testId="outcome-throughput"
      />
      <ChartFigure
        title={latTitle}
        svg={latRef}
        box={latBox}
        csv={() =>
          barsCsv(
            lat,
            'percentile',
            runs.map((r) => rowKind(`${r.label ?? r.scheduler}_us`)),
          )
        }
        name={`latency${name}`}
        note={`A request's latency runs from its delivery to the scheduler to the end of its execution: waiting in a queue, waiting at barriers or cycles (or for a stealer), and running it, pace included. Ordering the requests (consensus) is not part of this lab.${crowded ? ` ${crowded}` : ''}`}
        noteWarn={crowded !== null}
      />
      {checks.length > 0 && (
        <ul className="chart-note outcome-checks" data-testid="lesson-outcome">
          {checks.map((c) => (
            <li key={c.outcome.says} data-holds={c.holds}>
              {c.holds ? '✓' : '✗'} {c.outcome.says} ({figureText(c)}, {group.kind}){c.holds ? '' : ': not in this run'}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Executing / waiting / idle per thread of one replayed run (its own report entry). */
function ThreadTimes({
  run,
  label,
  name,
  pal,
  font,
}: {
  run: RunReport | undefined;
  label: string;
  name: string;
  pal: Palette;
  font: number;
}) {
  const th = (run?.metrics?.threads ?? []).map((t) => ({
    name: `T${t.thread}`,
    values: [t.exec_ms, t.wait_ms, t.idle_ms],
  }));
  const title = `Time per thread · ${label}`;
  const [ref, box] = useSvg(
    (svg, w, h, maxTotal) =>
      groupedBars(
        svg,
        th,
        [
          { name: 'executing', color: pal.exec },
          { name: 'waiting (barrier, cycle, marker)', color: pal.wait },
          { name: 'idle (empty queue)', color: pal.idle },
        ],
        { w, h, maxTotal, yLabel: 'time (ms)', p: pal, font, stacked: true, title },
      ),
    [JSON.stringify(th), pal, font, title],
  );
  return (
    <ChartFigure
      title={title}
      svg={ref}
      box={box}
      csv={() => barsCsv(th, 'thread', ['exec_ms', 'wait_ms', 'idle_ms'])}
      name={name}
      testId="chart-threads"
      empty={th.length === 0 ? `No per-thread times in the report of ${label}.` : undefined}
    />
  );
}

/** Queue length of every lane over time; the dashed line is the replay position; a click moves there. */
function QueueChart({
  i,
  label,
  props,
  pal,
  hc,
  font,
}: {
  i: number;
  label: string;
  props: Pick<ViewProps, 'tracks' | 'states'>;
  pal: Palette;
  hc: boolean;
  font: number;
}) {
  const t = props.tracks[i];
  const idx = t.model.index;
  const tNs = props.states[i]?.tNs ?? 0;
  const ends = Array.from({ length: idx.queueBuckets }, (_, k) => queueBucketEndNs(idx, k));
  const series: Series[] = Array.from({ length: idx.threads }, (_, th) => ({
    name: `T${th}`,
    color: threadColor(th, hc),
    points: ends.map((e, k) => ({ x: e / 1e6, y: idx.queueLen[th * idx.queueBuckets + k] })),
  }));
  const replayNs = useReplay((s) => s.timeNs);
  const title = `Queue lengths over time · ${label}`;
  const [ref, box] = useRunTimeChart(
    series,
    {
      yLabel: 'requests in the queue',
      p: pal,
      font,
      title,
      cursorX: tNs / 1e6,
      onPickX: (xMs) => {
        // Snap to the nearest sample: the views then show exactly the chart's numbers.
        let k = 0;
        for (let j = 1; j < ends.length; j++) if (Math.abs(ends[j] / 1e6 - xMs) < Math.abs(ends[k] / 1e6 - xMs)) k = j;
        const st = replayStore.getState();
        st.pause();
        if (st.leader !== i) st.lead(i);
        st.seekTime(ends[k]);
      },
    },
    [t, pal, font, hc, Math.round(tNs / 1e4), title],
  );
  return (
    <ChartFigure
      title={title}
      svg={ref}
      box={box}
      csv={() => seriesCsv(series, 't_ms', 'queue_len')}
      name="queues"
      testId="chart-queues"
      data={{ 'data-replay-t-ms': String(replayNs / 1e6) }}
      note="Each point is the queue length the replay shows at that moment (click the chart to go there); the dashed line is the replay position."
    />
  );
}

/**
 * One chart with its caption and export buttons (SVG, PNG, CSV). `name`
 * makes the file names and the test ids (`export-<name>-svg` ...); `empty`
 * replaces the chart with a message when there is nothing to draw.
 */
function ChartFigure(props: {
  title: string;
  svg: RefObject<SVGSVGElement | null>;
  box: RefObject<HTMLDivElement | null>;
  csv: () => string;
  name: string;
  empty?: string;
  note?: string;
  /** Test id of the note, and whether it warns (the cores note). */
  noteTestId?: string;
  noteWarn?: boolean;
  testId?: string;
  /** Extra data attributes on the figure (tests read the replay time there). */
  data?: Record<string, string>;
}) {
  const { title, svg, box, csv, name, empty, note, noteTestId, noteWarn, testId, data } = props;
  return (
    <figure data-testid={testId} {...data}>
      <figcaption>
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
        {empty === undefined ? <svg ref={svg} role="img" aria-label={title} /> : <p className="muted">{empty}</p>}
      </div>
      {note && (
        <p className={noteWarn ? 'chart-note warn' : 'chart-note'} data-testid={noteTestId}>
          {note}
        </p>
      )}
    </figure>
  );
}
