import { describe, expect, it } from 'vitest';
import type { BenchPoint, BenchReport } from '../engine/protocol';
import { parseCsv } from '../export/csv';
import {
  baselineOf,
  defaultThreads,
  parseShares,
  scenarioShape,
  seriesOf,
  sharesOf,
  streamLines,
  sweepCsv,
  threadChoices,
  virtualChoices,
  type SweepPoint,
  type SweepReport,
} from './model';

function point(label: string, threads: number, writes: number, ops: number, over = false): BenchPoint {
  const scheduler = label.startsWith('ws-') || label === 'early' || label === 'sequential' ? label : 'busy-wait';
  return {
    scheduler,
    label,
    threads,
    writes,
    throughput_ops_s: ops,
    speedup_vs_sequential: ops / 1000,
    scheduler_ns_per_request: 50,
    exec_us_per_request: label === 'sequential' ? 0 : 123.456,
    worker_wait_share: label === 'sequential' ? 0 : 0.012345,
    latency_p99_us: 0,
    correct: true,
    violation: null,
    oversubscribed: over,
  };
}

/** A sweep of `scenario` on 2 cores, one repetition of each point. */
function sweepOf(scenario: string, points: BenchPoint[], streams?: BenchReport['streams']): BenchReport {
  return { scenario, cores: 2, repetitions: 1, points, ...(streams && { streams }) };
}

describe('scenarioShape', () => {
  it('lists the parallel executors by label, without sequential or duplicates', () => {
    const shape = scenarioShape(
      JSON.stringify({
        name: 'demo',
        threads: 4,
        workload: { requests: 5000, writes: 0.1 },
        schedulers: [
          { id: 'sequential' },
          { id: 'early' },
          { id: 'busy-wait', label: 'bw-16', early: { queue_capacity: 16 } },
          { id: 'early' },
        ],
      }),
    );
    expect(shape).toEqual({
      name: 'demo',
      threads: 4,
      writes: 0.1,
      requests: 5000,
      executors: [
        { label: 'early', id: 'early' },
        { label: 'bw-16', id: 'busy-wait' },
      ],
    });
  });

  it('has no write share to sweep when the scenario fixes a class mix', () => {
    const shape = scenarioShape(JSON.stringify({ workload: { mix: { R1: 1 } }, schedulers: [] }));
    expect('error' in shape ? null : shape.writes).toBeNull();
  });

  it('reports text that is not JSON instead of throwing', () => {
    const shape = scenarioShape('{ "name": ');
    expect('error' in shape && shape.error).toMatch(/not valid JSON/);
    expect('error' in scenarioShape('3')).toBe(true);
  });
});

describe('thread choices', () => {
  it('offers 1..max and defaults to the papers 1, 2, 4, 8 capped by max', () => {
    expect(threadChoices(4)).toEqual([1, 2, 3, 4]);
    expect(defaultThreads(16)).toEqual([1, 2, 4, 8]);
    expect(defaultThreads(6)).toEqual([1, 2, 4]);
    expect(defaultThreads(0)).toEqual([1]);
  });
});

describe('parseShares', () => {
  it('reads fractions and percentages, sorted and without duplicates', () => {
    expect(parseShares('0.5, 10%  0 ;0.1')).toEqual({ shares: [0, 0.1, 0.5] });
    expect(parseShares('  ')).toEqual({ shares: [] });
  });
  it('rejects what is not a share, naming it', () => {
    expect(parseShares('0.2, 1.5')).toEqual({ error: expect.stringContaining('"1.5"') });
    expect(parseShares('abc')).toEqual({ error: expect.stringContaining('"abc"') });
    expect(parseShares('-1%')).toHaveProperty('error');
  });
});

describe('series of a report', () => {
  const report = sweepOf('demo', [
    point('sequential', 1, 0.1, 1000),
    point('early', 1, 0.1, 900),
    point('bw', 1, 0.1, 950),
    point('early', 4, 0.1, 500, true),
    point('bw', 4, 0.1, 800, true),
    point('early', 2, 0.1, 1200, true),
    point('bw', 2, 0.1, 1500, true),
    point('sequential', 1, 0.5, 1100),
    point('early', 1, 0.5, 700),
  ]);

  it('gives one series per executor, sorted by threads, at the chosen write share', () => {
    const s = seriesOf(report, 0.1);
    expect(s.map((x) => x.label)).toEqual(['early', 'bw']);
    expect(s[0].points.map((p) => p.threads)).toEqual([1, 2, 4]);
    expect(s[1].points.map((p) => p.throughput_ops_s)).toEqual([950, 1500, 800]);
    expect(seriesOf(report, 0.5).map((x) => [x.label, x.points.length])).toEqual([['early', 1]]);
    expect(seriesOf(report, 0.9)).toEqual([]);
  });

  it('finds the write shares and the sequential baseline of each', () => {
    expect(sharesOf(report)).toEqual([0.1, 0.5]);
    expect(baselineOf(report, 0.5)?.throughput_ops_s).toBe(1100);
    expect(baselineOf(report, 0.3)).toBeUndefined();
  });

  it('writes every point as a CSV row, baseline first, then executors by threads', () => {
    const rows = parseCsv(sweepCsv(report));
    const header = rows[0];
    expect(header.slice(0, 6)).toEqual(['scenario', 'executor', 'scheduler', 'threads', 'writes', 'throughput_ops_s']);
    expect(header).toContain('oversubscribed');
    const col = (name: string) => header.indexOf(name);
    const body = rows.slice(1);
    expect(body).toHaveLength(report.points.length);
    expect(body.map((r) => `${r[col('executor')]}@${r[col('threads')]}/${r[col('writes')]}`)).toEqual([
      'sequential@1/0.1',
      'early@1/0.1',
      'early@2/0.1',
      'early@4/0.1',
      'bw@1/0.1',
      'bw@2/0.1',
      'bw@4/0.1',
      'sequential@1/0.5',
      'early@1/0.5',
    ]);
    const early4 = body[3];
    expect(early4[col('oversubscribed')]).toBe('true');
    expect(early4[col('speedup_vs_sequential')]).toBe('0.5');
    expect(early4[col('cores')]).toBe('2');
    expect(early4[col('violation')]).toBe('');
    // The workers' figures, rounded: execution µs per request and wait share.
    expect(early4[col('exec_us_per_request')]).toBe('123.46');
    expect(early4[col('worker_wait_share')]).toBe('0.0123');
    expect(body[0][col('exec_us_per_request')]).toBe('0');
  });
});

describe('commit streams in a sweep', () => {
  const report = sweepOf(
    'pepaxos',
    [
      point('sequential', 1, 0, 1000),
      { ...point('epaxos', 1, 0, 1100), scheduler: 'epaxos', speedup_vs_epaxos: 1 },
      { ...point('pepaxos', 2, 0, 1870), scheduler: 'pepaxos', speedup_vs_epaxos: 1.7 },
    ],
    [
      {
        writes: 0,
        stream: {
          kind: 'commits',
          requests: 400,
          deliveries: 60,
          cells: 'shards',
          dense_cells: 1,
          scc: {
            sizes: [
              [1, 52],
              [2, 4],
            ],
            sccs: 56,
            instances: 60,
            largest: 2,
          },
        },
      },
      { writes: 0.5, stream: { kind: 'total', requests: 400, deliveries: 400, cells: 'shards', dense_cells: 1 } },
    ],
  );

  it('writes the speedup over epaxos where there is one', () => {
    const rows = parseCsv(sweepCsv(report));
    const col = rows[0].indexOf('speedup_vs_epaxos');
    expect(col).toBeGreaterThan(0);
    expect(rows.slice(1).map((r) => r[col])).toEqual(['', '1', '1.7']);
  });

  it("says each commit stream's SCC sizes, and nothing for total orders", () => {
    expect(streamLines(report)).toEqual(['0% writes: 60 instances, SCC sizes (size x count) 1x52, 2x4']);
  });

  it('labels every CSV row measured or a model, the virtual sweep under the same header', () => {
    const point = (threads: number, mode_label?: string) =>
      ({
        scheduler: 'early',
        label: 'early',
        threads,
        writes: 0.1,
        throughput_ops_s: 1000 * threads,
        speedup_vs_sequential: threads,
        scheduler_ns_per_request: 1,
        correct: true,
        violation: null,
        oversubscribed: false,
        mode_label,
      }) as SweepPoint;
    const real = { scenario: 'demo', cores: 2, repetitions: 3, points: [point(1), point(2)] } as SweepReport;
    const model = {
      scenario: 'demo',
      cores: 2,
      repetitions: 1,
      points: [point(16, 'virtual 16 cores (model, reference cost table)')],
    } as SweepReport;
    const rows = parseCsv(sweepCsv(real, model));
    const col = rows[0].indexOf('numbers');
    expect(col).toBeGreaterThan(0);
    expect(rows.filter((r) => r[0] === 'scenario')).toHaveLength(1);
    expect(rows.slice(1).map((r) => [r[3], r[col]])).toEqual([
      ['1', 'measured (real threads)'],
      ['2', 'measured (real threads)'],
      ['16', 'virtual 16 cores (model, reference cost table)'],
    ]);
    expect(virtualChoices()).toEqual([1, 2, 4, 8, 16, 32]);
  });
});
