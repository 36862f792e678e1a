import { describe, expect, it } from 'vitest';
import type { PollSnapshot } from '../engine/protocol';
import { addPoll, MAX_LIVE_POINTS, type LiveSeries } from './series';

function poll(run_index: number, executed: number, elapsed_ms: number, scheduler = 's'): PollSnapshot {
  return {
    running: true,
    done: false,
    snapshot: {
      run_index,
      runs_total: 2,
      scheduler,
      threads: 2,
      requests: 1000,
      executed,
      delivered: executed,
      elapsed_ms,
    },
  };
}

describe('addPoll', () => {
  it('turns executed counts into ops/s between polls', () => {
    let s: LiveSeries[] = [];
    s = addPoll(s, poll(0, 100, 100));
    s = addPoll(s, poll(0, 400, 200));
    expect(s).toHaveLength(1);
    // 100 ops in the first 100 ms, then 300 ops in the next 100 ms.
    expect(s[0].points).toEqual([
      { t_ms: 100, ops_s: 1000 },
      { t_ms: 200, ops_s: 3000 },
    ]);
  });

  it('starts a new series per run, timed from the previous poll', () => {
    let s: LiveSeries[] = [];
    s = addPoll(s, poll(0, 500, 100, 'sequential'));
    s = addPoll(s, poll(1, 50, 150, 'early'));
    expect(s.map((x) => x.scheduler)).toEqual(['sequential', 'early']);
    // Run 1 started after t=100 (last poll of run 0): 50 ops in 50 ms.
    expect(s[1].points).toEqual([{ t_ms: 50, ops_s: 1000 }]);
    expect(s[0].points).toHaveLength(1);
  });

  it('ignores polls made while the scenario is still being prepared', () => {
    const preparing: PollSnapshot = {
      running: true,
      done: false,
      snapshot: { ...poll(0, 0, 0).snapshot!, runs_total: 0, scheduler: '' },
    };
    expect(addPoll([], preparing)).toEqual([]);
  });

  it('ignores polls without a snapshot or without time passing', () => {
    const s = addPoll([], poll(0, 10, 10));
    expect(addPoll(s, { running: true, done: false, snapshot: null })).toBe(s);
    expect(addPoll(s, poll(0, 20, 10))).toBe(s);
  });

  it('never reports negative throughput', () => {
    let s = addPoll([], poll(0, 10, 10));
    s = addPoll(s, poll(0, 5, 20));
    expect(s[0].points[1].ops_s).toBe(0);
  });

  it('keeps at most MAX_LIVE_POINTS points, dropping the oldest', () => {
    let s: LiveSeries[] = [];
    for (let i = 1; i <= MAX_LIVE_POINTS + 5; i++) s = addPoll(s, poll(0, i, i));
    expect(s[0].points).toHaveLength(MAX_LIVE_POINTS);
    expect(s[0].points[0].t_ms).toBe(6);
  });
});
