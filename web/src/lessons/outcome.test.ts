import { describe, expect, it } from 'vitest';
import { LESSONS, type LessonOutcome } from './lessons';
import { checkOutcome, figureText } from './outcome';

const run = (label: string, scheduler: string, tput: number, p99: number) => ({
  label,
  scheduler,
  throughput_ops_s: tput,
  latency_us: { p50: p99 / 2, p90: p99 * 0.9, p99, max: p99, mean: p99 / 2 },
});

describe('a lesson outcome read from a report', () => {
  const tput: LessonOutcome = { better: 'mely-time-left', worse: 'libasync-steal', figure: 'throughput', says: '' };
  const p99: LessonOutcome = { better: 'Async', worse: 'Base', figure: 'p99', says: '' };

  it('holds when the better run has more throughput, and not the other way round', () => {
    const runs = [run('libasync-steal', 'libasync-steal', 307_607, 3371), run('mely-time-left', 'mely', 900_536, 3941)];
    expect(checkOutcome(tput, runs)).toMatchObject({ better: 900_536, worse: 307_607, holds: true });
    const swapped = [run('libasync-steal', 'libasync-steal', 900_536, 1), run('mely-time-left', 'mely', 307_607, 1)];
    expect(checkOutcome(tput, swapped)?.holds).toBe(false);
  });

  it('holds for a latency when the better run is lower (an equal figure does not hold)', () => {
    const runs = [run('Base', 'repart-base', 468_460, 15_580), run('Async', 'repart-async', 337_314, 554)];
    const c = checkOutcome(p99, runs);
    expect(c?.holds).toBe(true);
    expect(figureText(c!)).toBe('p99 554 vs 15,580 µs');
    expect(checkOutcome(p99, [run('Base', 'b', 1, 10), run('Async', 'a', 1, 10)])?.holds).toBe(false);
  });

  it('finds a run by label first, then by scheduler id, and says nothing without both runs', () => {
    const runs = [
      run('x', 'mely-time-left', 1, 1),
      run('mely-time-left', 'mely', 5, 1),
      run('l', 'libasync-steal', 2, 1),
    ];
    expect(checkOutcome(tput, runs)).toMatchObject({ better: 5, worse: 2 });
    expect(checkOutcome(tput, [run('a', 'mely-time-left', 7, 1), run('b', 'libasync-steal', 2, 1)])).toMatchObject({
      better: 7,
      worse: 2,
    });
    expect(checkOutcome(tput, [run('mely-time-left', 'mely', 5, 1)])).toBeNull();
  });

  it('every lesson virtual run names a core count the browser hosts and outcomes between two different runs', () => {
    const virtual = LESSONS.filter((l) => l.virtual);
    expect(virtual.map((l) => l.id)).toEqual(expect.arrayContaining(['repartitioning', 'mapping', 'coloring']));
    for (const l of virtual) {
      expect(l.virtual!.cores, l.id).toBeGreaterThanOrEqual(4);
      expect(l.virtual!.cores, l.id).toBeLessThanOrEqual(16);
      expect(l.virtual!.why.length, l.id).toBeGreaterThan(40);
      for (const o of l.virtual!.outcome) expect(o.better, l.id).not.toBe(o.worse);
    }
  });
});
