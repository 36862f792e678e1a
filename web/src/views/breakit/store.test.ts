import { describe, expect, it, vi } from 'vitest';
import type { ExploreOutcome, PollSnapshot, RunOptions, RunReport } from '../../engine/protocol';
import { pinnedText } from './logic';
import { createBreakItStore, type BreakItDeps, type BreakRequest } from './store';

const TEXT = JSON.stringify({ name: 's', schedulers: [{ id: 'early' }] });
const ASK: BreakRequest = { text: TEXT, scheduler: 'early', fault: 'early-no-barrier', requests: 120 };

function poll(tried: number, budget: number): PollSnapshot {
  return {
    running: true,
    done: false,
    snapshot: { explore: { tried, budget } } as PollSnapshot['snapshot'],
  };
}

/** Fake engine: reports progress `steps`, then answers `outcome`; the replay gets serial 7. */
function deps(outcome: ExploreOutcome, steps: number[] = []) {
  const replays: { text: string; options: RunOptions }[] = [];
  const d: BreakItDeps = {
    explore: vi.fn((_t, _o, onProgress: (p: PollSnapshot) => void) => {
      for (const s of steps) onProgress(poll(s, 200));
      return Promise.resolve(outcome);
    }),
    cancel: vi.fn(() => Promise.resolve(null)),
    replay: vi.fn((text: string, options: RunOptions) => {
      replays.push({ text, options });
      return Promise.resolve(7);
    }),
  };
  return { d, replays };
}

const FOUND = { schedule: 12, token: 'TOKEN', violation: 'v', trace_digest: 'd' };

describe('break-it store', () => {
  it('explores the variant, then replays the find by its token with the fault selected', async () => {
    const { d, replays } = deps({
      ok: true,
      explore: { cores: 2, seed: 3, schedules: 13, horizon: 80, stopped: false, found: FOUND },
    });
    const s = createBreakItStore(d);
    await s.getState().explore(ASK);
    expect(d.explore).toHaveBeenCalledWith(
      TEXT,
      { scheduler: 'early', fault: 'early-no-barrier', schedules: 200, requests: 120 },
      expect.any(Function),
    );
    expect(replays).toHaveLength(1);
    expect(replays[0].options).toEqual({ schedulers: ['early'], schedule: 'TOKEN', trace: true, requests: 120 });
    expect(JSON.parse(replays[0].text)).toMatchObject({ schedulers: [{ id: 'early', fault: 'early-no-barrier' }] });
    expect(s.getState()).toMatchObject({ phase: 'found', serial: 7, tried: 13, found: FOUND });
  });

  it('follows the progress and says plainly when the budget found nothing', async () => {
    const { d, replays } = deps(
      { ok: true, explore: { cores: 2, seed: 3, schedules: 200, horizon: 80, stopped: false, found: null } },
      [1, 50],
    );
    const s = createBreakItStore(d);
    const seen: number[] = [];
    s.subscribe((st) => seen.push(st.tried));
    await s.getState().explore(ASK);
    expect(seen).toContain(50);
    expect(s.getState()).toMatchObject({ phase: 'clean', tried: 200, found: null, serial: -1 });
    expect(replays).toHaveLength(0);
  });

  it('a cancel ends in stopped; refusals and errors in failed, with the reason', async () => {
    const stopped = createBreakItStore(
      deps({ ok: true, explore: { cores: 2, seed: 3, schedules: 9, horizon: 80, stopped: true, found: null } }).d,
    );
    await stopped.getState().explore(ASK);
    expect(stopped.getState().phase).toBe('stopped');
    const refused = createBreakItStore(
      deps({ ok: false, diagnostics: [{ message: 'unknown fault', file: 'f', path: 'p', line: 1, col: 1 }] }).d,
    );
    await refused.getState().explore(ASK);
    expect(refused.getState()).toMatchObject({ phase: 'failed', error: 'unknown fault' });
    const broken = deps({
      ok: true,
      explore: { cores: 2, seed: 3, schedules: 1, horizon: 1, stopped: false, found: FOUND },
    });
    broken.d.replay = () => Promise.resolve(null);
    const s = createBreakItStore(broken.d);
    await s.getState().explore(ASK);
    expect(s.getState().phase).toBe('failed');
  });

  it('cancel reaches the engine only while exploring; reset waits for the exploration', async () => {
    let finish: (o: ExploreOutcome) => void = () => {};
    const { d } = deps({
      ok: true,
      explore: { cores: 2, seed: 3, schedules: 1, horizon: 1, stopped: true, found: null },
    });
    d.explore = () => new Promise<ExploreOutcome>((r) => (finish = r));
    const s = createBreakItStore(d);
    await s.getState().cancel();
    expect(d.cancel).not.toHaveBeenCalled();
    const going = s.getState().explore(ASK);
    expect(s.getState().phase).toBe('exploring');
    s.getState().reset();
    expect(s.getState().phase).toBe('exploring');
    await s.getState().cancel();
    expect(d.cancel).toHaveBeenCalledTimes(1);
    finish({ ok: true, explore: { cores: 2, seed: 3, schedules: 4, horizon: 1, stopped: true, found: null } });
    await going;
    expect(s.getState()).toMatchObject({ phase: 'stopped', tried: 4 });
    s.getState().reset();
    expect(s.getState().phase).toBe('idle');
  });

  it('a shared find, once its run broke, reopens the bar on that find', () => {
    const s = createBreakItStore(deps({ ok: false, diagnostics: [] }).d);
    const pinned = pinnedText(TEXT, 'early', 'early-no-barrier', 's3c2d4k90x7', 120);
    const run = (violation: string | null) =>
      ({ label: 'early', scheduler: 'early', violation }) as unknown as RunReport;
    // The run judged correct, or a text that shares nothing: no find.
    s.getState().adoptShared(pinned, 4, [run(null)]);
    s.getState().adoptShared(TEXT, 4, [run('order')]);
    expect(s.getState()).toMatchObject({ phase: 'idle', open: false, found: null });
    s.getState().adoptShared(pinned, 5, [run('order')]);
    expect(s.getState()).toMatchObject({
      phase: 'found',
      open: true,
      serial: 5,
      asked: { scheduler: 'early', fault: 'early-no-barrier' },
      found: { token: 's3c2d4k90x7', violation: 'order', schedule: -1 },
    });
  });

  it('a shared find does not interrupt an exploration under way', () => {
    const { d } = deps({ ok: false, diagnostics: [] });
    d.explore = () => new Promise<ExploreOutcome>(() => {});
    const s = createBreakItStore(d);
    void s.getState().explore(ASK);
    const pinned = pinnedText(TEXT, 'early', 'early-no-barrier', 's3c2', 120);
    s.getState().adoptShared(pinned, 5, [
      { label: 'early', scheduler: 'early', violation: 'order' } as unknown as RunReport,
    ]);
    expect(s.getState().phase).toBe('exploring');
  });
});
