import { describe, expect, it } from 'vitest';
import type { Report, RunReport } from '../engine/protocol';
import { describeViolation, overallVerdict, runViolation } from './verdict';
import { chartSeries, resample } from './chartData';

function run(over: Partial<RunReport>): RunReport {
  return {
    scheduler: 'early',
    label: 'early',
    threads: 2,
    correct: true,
    violation: null,
    cancelled: false,
    metrics: { throughput_series: [] },
    ...over,
  } as RunReport;
}

describe('verdicts', () => {
  it('names both requests, their classes and the shard of an order violation', () => {
    const m = describeViolation({
      kind: 'order',
      first: 12,
      first_class: 'W1',
      second: 15,
      second_class: 'R1',
      cell: { unit: 'shard', lo: 0, hi: 0, text: 'shard 1' },
    });
    expect(m).toBe('conflicting requests reversed: #15 (R1) started before #12 (W1) finished, both touch shard 1');
  });

  it("prefers the engine's own message and falls back to the structured detail", () => {
    expect(runViolation(run({}))).toBeNull();
    expect(runViolation(run({ correct: false, violation: 'from engine' }))).toBe('from engine');
    expect(runViolation(run({ correct: false, violation_detail: { kind: 'missing', req: 3 } }))).toBe(
      'request #3 could run but never executed',
    );
  });

  it('is correct only when every run is, and reports the first bad one', () => {
    const good: Report = { scenario: 's', cores: 2, runs: [run({}), run({ scheduler: 'busy-wait' })] };
    expect(overallVerdict(good)).toEqual({ correct: true, message: null, incorrectRuns: 0 });
    const bad: Report = {
      scenario: 's',
      cores: 2,
      runs: [
        run({}),
        run({ label: 'broken', correct: false, violation: 'request #1 executed 2 times' }),
        run({ correct: false, violation: 'x' }),
      ],
    };
    expect(overallVerdict(bad)).toEqual({
      correct: false,
      message: 'broken (2 threads): request #1 executed 2 times',
      incorrectRuns: 2,
    });
  });
});

describe('chart series', () => {
  const live = [
    {
      runIndex: 0,
      scheduler: 'early',
      threads: 2,
      startMs: 0,
      lastExecuted: 1,
      lastElapsedMs: 1,
      points: [{ t_ms: 1, ops_s: 5 }],
    },
  ];

  it("draws the report's series once there, the live ones before", () => {
    expect(chartSeries(live, null)).toEqual([
      { key: 'run-0', scheduler: 'early', label: 'early × 2', points: [{ t_ms: 1, ops_s: 5 }] },
    ]);
    const withSeries: Report = {
      scenario: 's',
      cores: 2,
      runs: [run({ metrics: { throughput_series: [{ t_ms: 2, ops_s: 9 }] } as RunReport['metrics'] })],
    };
    expect(chartSeries(live, withSeries)[0].points).toEqual([{ t_ms: 2, ops_s: 9 }]);
    const without: Report = { scenario: 's', cores: 2, runs: [run({})] };
    expect(chartSeries(live, without)[0].points).toEqual([{ t_ms: 1, ops_s: 5 }]);
  });

  it('names a virtual run as a model and draws no live wall-clock rate for it', () => {
    // While a virtual run goes on, its polls say how fast this machine simulates: not drawn.
    expect(chartSeries(live, null, 4)).toEqual([]);
    const metrics = { throughput_series: [{ t_ms: 2, ops_s: 9 }] } as RunReport['metrics'];
    const report = {
      scenario: 's',
      cores: 2,
      runs: [run({ label: 'early', threads: 4, metrics })],
      virtual_run: { cores: 4, cost_table: 'reference', trace_digests: ['0'] },
    };
    expect(chartSeries(live, report, 4)[0].label).toBe('early × virtual 4 cores (model, reference cost table)');
  });
});

describe('resample', () => {
  it('leaves sparse series alone and averages dense ones into buckets', () => {
    const sparse = [
      { t_ms: 0, ops_s: 1 },
      { t_ms: 1, ops_s: 3 },
    ];
    expect(resample(sparse, 4)).toEqual(sparse);
    // 8 points over 0..7 ms into 2 buckets of 3.5 ms: {0,1,2,3} and {4,5,6,7}.
    const dense = Array.from({ length: 8 }, (_, i) => ({ t_ms: i, ops_s: i < 4 ? 10 : 30 }));
    expect(resample(dense, 2)).toEqual([
      { t_ms: 1.75, ops_s: 10 },
      { t_ms: 5.25, ops_s: 30 },
    ]);
  });

  it('keeps the mean throughput of evenly spaced points', () => {
    const pts = Array.from({ length: 1000 }, (_, i) => ({ t_ms: i, ops_s: i % 2 ? 0 : 200 }));
    const r = resample(pts, 10);
    expect(r).toHaveLength(10);
    for (const p of r) expect(p.ops_s).toBeCloseTo(100, 0);
  });
});
