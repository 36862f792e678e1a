/**
 * The Sweep panel's pure logic: what a scenario offers to sweep, the
 * default choices, how points become one line per executor, and the CSV.
 * No React and no engine here, so all of it is unit-tested.
 */
import type { BenchPoint, BenchReport, SccHistogram } from '../engine/protocol';
import { toCsv, type CsvColumn } from '../export/csv';
import { fields, numberField, readScenario, schedulerEntries, stringField } from '../engine/scenario';

/** An executor of the scenario, as the bench names it. */
export interface Executor {
  /** What the bench's `schedulers` option and its points call it (the label, else the id). */
  label: string;
  /** Scheduler id, e.g. `busy-wait`. */
  id: string;
}

/** What the panel needs to know about the current scenario. */
export interface ScenarioShape {
  name: string;
  /** Parallel executors (sequential is the baseline every sweep runs anyway). */
  executors: Executor[];
  /** The scenario's worker threads. */
  threads: number;
  /** The scenario's write share, or null when it gives an explicit class mix. */
  writes: number | null;
  requests: number | null;
}

const SEQUENTIAL = 'sequential';

/** Read the scenario text leniently; the engine gives the located errors when it runs. */
export function scenarioShape(text: string): ScenarioShape | { error: string } {
  const read = readScenario(text);
  if (!read.ok) return { error: `the scenario is not valid JSON (${read.error})` };
  if (!read.isObject) return { error: 'the scenario is not a JSON object' };
  const sc = read.doc;
  const executors: Executor[] = [];
  for (const { id, label } of schedulerEntries(sc)) {
    if (id === undefined || id === SEQUENTIAL) continue;
    const name = label !== undefined && label !== '' ? label : id;
    if (!executors.some((e) => e.label === name)) executors.push({ label: name, id });
  }
  const workload = fields(sc.workload);
  const { mix } = workload;
  const writes = numberField(workload, 'writes');
  return {
    name: stringField(sc, 'name') ?? 'scenario',
    executors,
    threads: numberField(sc, 'threads') ?? 1,
    writes: mix !== undefined && mix !== null ? null : (writes ?? 0),
    requests: numberField(workload, 'requests') ?? null,
  };
}

/** Thread counts offered: 1..max. */
export function threadChoices(max: number): number[] {
  return Array.from({ length: Math.max(1, Math.floor(max)) }, (_, i) => i + 1);
}

/** The papers' 1, 2, 4, 8, capped by what the engine allows. */
export function defaultThreads(max: number): number[] {
  const t = [1, 2, 4, 8].filter((n) => n <= max);
  return t.length > 0 ? t : [1];
}

/**
 * Write shares typed by the user: numbers between 0 and 1 separated by
 * commas or spaces, percentages allowed (`10%`). Empty means the
 * scenario's own share. Sorted, without duplicates.
 */
export function parseShares(text: string): { shares: number[] } | { error: string } {
  const parts = text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const shares: number[] = [];
  for (const p of parts) {
    const pct = p.endsWith('%');
    const n = Number(pct ? p.slice(0, -1) : p);
    const share = pct ? n / 100 : n;
    if (!Number.isFinite(share) || share < 0 || share > 1) {
      return { error: `write share "${p}": expected a number between 0 and 1 (or 0% to 100%)` };
    }
    if (!shares.includes(share)) shares.push(share);
  }
  return { shares: shares.sort((a, b) => a - b) };
}

/** Repetitions of a sweep by default (each point's median and spread are over these). */
export const DEFAULT_REPETITIONS = 3;
/** Most repetitions the panel offers. */
export const MAX_REPETITIONS = 10;

/**
 * How a sweep is measured: an optional warm-up sweep first (its numbers are
 * dropped: the first runs of a page pay for compiling the engine's code,
 * growing its memory and waking the cores, and made one worker look
 * several times faster than sequential), then `repetitions` sweeps.
 */
export interface SweepPlan {
  warmup: boolean;
  repetitions: number;
}

export const DEFAULT_PLAN: SweepPlan = { warmup: true, repetitions: DEFAULT_REPETITIONS };

/** The throughputs of one point over the repetitions: the least and the most (the median is the point's). */
export interface Spread {
  min: number;
  max: number;
  /** Repetitions that measured this point. */
  runs: number;
}

/** A point of a sweep of several repetitions: the median repetition's figures, with the spread. */
export type SweepPoint = BenchPoint & { spread?: Spread };

export type SweepReport = Omit<BenchReport, 'points'> & { points: SweepPoint[] };

/**
 * One report from the reports of several repetitions of the same sweep: each
 * point is the repetition with the median throughput (its speedups,
 * scheduler time and latency are that run's), with the least and most
 * throughput measured; a point is correct only if every repetition was.
 * Speedups stay per repetition (each against the sequential run of its own
 * repetition), so a slow repetition does not skew another's.
 */
export function combineRepetitions(reports: readonly BenchReport[]): SweepReport | null {
  if (reports.length === 0) return null;
  const groups = new Map<string, BenchPoint[]>();
  for (const r of reports)
    for (const p of r.points) {
      const key = `${p.label}\u0000${p.threads}\u0000${p.writes}`;
      const g = groups.get(key);
      if (g) g.push(p);
      else groups.set(key, [p]);
    }
  const points: SweepPoint[] = [...groups.values()].map((g) => {
    const sorted = [...g].sort((a, b) => a.throughput_ops_s - b.throughput_ops_s);
    const median = sorted[(sorted.length - 1) >> 1];
    return {
      ...median,
      correct: g.every((p) => p.correct),
      violation: g.find((p) => p.violation)?.violation ?? median.violation,
      oversubscribed: g.some((p) => p.oversubscribed),
      spread: { min: sorted[0].throughput_ops_s, max: sorted[sorted.length - 1].throughput_ops_s, runs: g.length },
    };
  });
  const first = reports[0];
  return {
    ...first,
    repetitions: reports.reduce((n, r) => n + r.repetitions, 0),
    points,
    streams: first.streams,
  };
}

/** One line of the chart: an executor at one write share. */
export interface SweepSeries {
  label: string;
  scheduler: string;
  writes: number;
  /** Sorted by threads. */
  points: SweepPoint[];
}

/** The write shares of a report, in order. */
export function sharesOf(report: SweepReport): number[] {
  return [...new Set(report.points.map((p) => p.writes))].sort((a, b) => a - b);
}

/** One series per parallel executor at write share `writes`, in the order the report first names them. */
export function seriesOf(report: SweepReport, writes: number): SweepSeries[] {
  const byLabel = new Map<string, SweepSeries>();
  for (const p of report.points) {
    if (p.writes !== writes || p.scheduler === SEQUENTIAL) continue;
    let s = byLabel.get(p.label);
    if (!s) {
      s = { label: p.label, scheduler: p.scheduler, writes, points: [] };
      byLabel.set(p.label, s);
    }
    s.points.push(p);
  }
  for (const s of byLabel.values()) s.points.sort((a, b) => a.threads - b.threads);
  return [...byLabel.values()];
}

/** The sequential baseline measured at write share `writes`. */
export function baselineOf(report: SweepReport, writes: number): SweepPoint | undefined {
  return report.points.find((p) => p.writes === writes && p.scheduler === SEQUENTIAL);
}

/** A bench point with the fields the engine sends beyond the shared protocol type. */
type Row = SweepPoint & { latency_p99_us?: number };

/** The CSV's columns, one row per point (the sequential baseline included). */
export function sweepColumns(report: SweepReport): CsvColumn<Row>[] {
  return [
    { header: 'scenario', value: () => report.scenario },
    { header: 'executor', value: (p) => p.label },
    { header: 'scheduler', value: (p) => p.scheduler },
    { header: 'threads', value: (p) => p.threads },
    { header: 'writes', value: (p) => p.writes },
    { header: 'throughput_ops_s', value: (p) => round(p.throughput_ops_s, 1) },
    { header: 'throughput_min_ops_s', value: (p) => (p.spread ? round(p.spread.min, 1) : null) },
    { header: 'throughput_max_ops_s', value: (p) => (p.spread ? round(p.spread.max, 1) : null) },
    { header: 'speedup_vs_sequential', value: (p) => round(p.speedup_vs_sequential, 4) },
    {
      header: 'speedup_vs_epaxos',
      value: (p) => (p.speedup_vs_epaxos === undefined ? null : round(p.speedup_vs_epaxos, 4)),
    },
    { header: 'scheduler_ns_per_request', value: (p) => round(p.scheduler_ns_per_request, 1) },
    {
      header: 'exec_us_per_request',
      value: (p) => (p.exec_us_per_request === undefined ? null : round(p.exec_us_per_request, 2)),
    },
    {
      header: 'worker_wait_share',
      value: (p) => (p.worker_wait_share === undefined ? null : round(p.worker_wait_share, 4)),
    },
    { header: 'latency_p99_us', value: (p) => (p.latency_p99_us === undefined ? null : round(p.latency_p99_us, 1)) },
    { header: 'correct', value: (p) => p.correct },
    { header: 'oversubscribed', value: (p) => p.oversubscribed },
    { header: 'cores', value: () => report.cores },
    { header: 'repetitions', value: () => report.repetitions },
    // Measured, or a model's ("virtual 8 cores (model, reference cost table)"): every row says which.
    { header: 'numbers', value: (p) => p.mode_label ?? 'measured (real threads)' },
    { header: 'violation', value: (p) => p.violation },
  ];
}

/**
 * Every point of the sweep as CSV, ordered by write share, executor
 * (sequential first), threads; the virtual-cores sweep's rows, if any,
 * follow under the same header, each labelled a model's in `numbers`.
 */
export function sweepCsv(report: SweepReport, virtual: SweepReport | null = null): string {
  const csv = (r: SweepReport) => {
    const order = new Map<string, number>();
    for (const p of r.points) if (!order.has(p.label)) order.set(p.label, order.size);
    const rank = (p: BenchPoint) => (p.scheduler === SEQUENTIAL ? -1 : (order.get(p.label) ?? 0));
    const rows = [...r.points].sort(
      (a, b) => a.writes - b.writes || rank(a) - rank(b) || a.threads - b.threads,
    ) as Row[];
    return toCsv(rows, sweepColumns(r));
  };
  const first = csv(report);
  return virtual ? first + csv(virtual).slice(csv(virtual).indexOf('\n') + 1) : first;
}

/** Virtual core counts the Sweep tab offers: 1 to 32 (the engine hosts up to its pool's count). */
export const VIRTUAL_CORES_MAX = 32;

/** The virtual-cores axis offered: powers of two from 1 to {@link VIRTUAL_CORES_MAX}. */
export function virtualChoices(): number[] {
  const out: number[] = [];
  for (let n = 1; n <= VIRTUAL_CORES_MAX; n *= 2) out.push(n);
  return out;
}

/** `1x120, 2x3`: a commit stream's SCC sizes in one line (size x count). */
export function sccSizes(h: SccHistogram): string {
  return h.sizes.map(([size, count]) => `${size}x${count}`).join(', ');
}

/** One line per swept write share whose stream is a commit stream: its instances and SCC sizes. */
export function streamLines(report: SweepReport): string[] {
  return (report.streams ?? []).flatMap((s) =>
    s.stream.scc
      ? [
          `${+(s.writes * 100).toFixed(2)}% writes: ${s.stream.deliveries} instances, SCC sizes (size x count) ${sccSizes(s.stream.scc)}`,
        ]
      : [],
  );
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
