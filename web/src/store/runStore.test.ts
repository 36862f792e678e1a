import { describe, expect, it } from 'vitest';
import type { PollSnapshot, ReadyInfo, Report, RunOptions, RunOutcome } from '../engine/protocol';
import type { RanOn } from '../engine/host';
import { readyInfo, runningPoll } from '../engine/testing';
import { createRunStore, type EngineApi } from './runStore';
import type { ScenarioEntry } from './scenarios';

const scenarios: ScenarioEntry[] = [
  { file: 'quickstart.json', name: 'Q', description: 'd', text: '{"threads": 2}' },
  { file: 'other.json', name: 'O', description: '', text: '{"threads": 4}' },
];

const info = readyInfo(18);

function report(cancelled = false): Report {
  return { scenario: 'Q', cores: 2, runs: [{ cancelled } as Report['runs'][number]] };
}

/** An engine whose run waits until the test settles it; `ready` as given (default: up at once). */
function fakeEngine(ready: () => Promise<ReadyInfo> = () => Promise.resolve(info)) {
  let readies = 0;
  let stops = 0;
  let settle: (o: RunOutcome | Error) => void = () => {};
  let progress: ((p: PollSnapshot, t: number) => void) | undefined;
  const calls: { text: string; options: RunOptions }[] = [];
  let cancels = 0;
  const pauses: boolean[] = [];
  const engine: EngineApi = {
    ready: () => {
      readies++;
      return ready();
    },
    stop: () => {
      stops++;
    },
    validate: () => Promise.resolve([]),
    run: (text, options = {}, onProgress) => {
      calls.push({ text, options });
      progress = onProgress;
      return new Promise((resolve, reject) => {
        settle = (o) => (o instanceof Error ? reject(o) : resolve(o));
      });
    },
    cancel: () => {
      cancels++;
      return Promise.resolve(null);
    },
    setPaused: (p) => {
      pauses.push(p);
      return Promise.resolve(null);
    },
    trace: () => Promise.resolve(new ArrayBuffer(24)),
  };
  return {
    engine,
    calls,
    settle: (o: RunOutcome | Error) => settle(o),
    progress: (p: PollSnapshot) => progress?.(p, 0),
    cancels: () => cancels,
    pauses,
    readies: () => readies,
    stops: () => stops,
  };
}

/** A store on `f` whose engine is already up (as after the page's first run). */
async function upStore(f: ReturnType<typeof fakeEngine>) {
  const s = createRunStore(f.engine, scenarios);
  expect(await s.getState().startEngine()).toBe(true);
  return s;
}

/** A promise the test resolves or rejects by hand. */
function deferred<T>() {
  let resolve: (v: T) => void = () => {};
  let reject: (e: Error) => void = () => {};
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('run store', () => {
  it('starts on the first scenario and switches scenario text with the picker', () => {
    const f = fakeEngine();
    const s = createRunStore(f.engine, scenarios);
    expect(s.getState()).toMatchObject({ selected: 'quickstart.json', file: 'quickstart.json', phase: 'idle' });
    // Nothing needs the engine yet: it is not started.
    expect(s.getState().engine).toEqual({ state: 'idle' });
    expect(f.readies()).toBe(0);
    s.getState().selectScenario('other.json');
    expect(s.getState()).toMatchObject({ selected: 'other.json', text: '{"threads": 4}' });
    s.getState().selectScenario('missing.json');
    expect(s.getState().selected).toBe('other.json');
  });

  it('reports the engine ready, or why it failed', async () => {
    const ok = createRunStore(fakeEngine().engine, scenarios);
    await ok.getState().startEngine();
    expect(ok.getState().engine).toEqual({ state: 'ready', info });
    const broken = { ...fakeEngine().engine, ready: () => Promise.reject(new Error('no SharedArrayBuffer')) };
    const bad = createRunStore(broken, scenarios);
    await bad.getState().startEngine();
    expect(bad.getState().engine).toEqual({ state: 'failed', error: 'no SharedArrayBuffer' });
  });

  it('runs the current text, collects live series, then holds the report', async () => {
    const f = fakeEngine();
    const s = await upStore(f);
    s.getState().setText('{"threads": 3}');
    const done = s.getState().run({ trace: true });
    expect(s.getState().phase).toBe('running');
    expect(f.calls).toEqual([{ text: '{"threads": 3}', options: { file: 'quickstart.json', trace: true } }]);
    // A second run while one is in progress is ignored.
    await s.getState().run();
    expect(f.calls).toHaveLength(1);
    f.progress(runningPoll({ threads: 3, requests: 100, executed: 40, delivered: 50, elapsed_ms: 20 }));
    expect(s.getState().progress?.executed).toBe(40);
    expect(s.getState().live[0].points).toEqual([{ t_ms: 20, ops_s: 2000 }]);
    f.settle({ ok: true, report: report(), report_id: 7 });
    await done;
    expect(s.getState()).toMatchObject({ phase: 'done', report: report(), reportId: 7, diagnostics: [] });
    // The live series stay for the chart until the next run.
    expect(s.getState().live).toHaveLength(1);
    expect(s.getState().runSerial).toBe(1);
  });

  it('keeps the model of a run on virtual cores with its report', async () => {
    const f = fakeEngine();
    const s = await upStore(f);
    const done = s.getState().run({ virtual_cores: 4 });
    expect(s.getState().runVirtualCores).toBe(4);
    const virtual_run = { cores: 4, cost_table: 'reference', trace_digests: ['00000000000000ff'] };
    f.settle({ ok: true, report: report(), virtual_run, report_id: 7 });
    await done;
    expect(s.getState().report).toEqual({ ...report(), virtual_run });
    // The next run on real threads says so.
    const again = s.getState().run();
    expect(s.getState().runVirtualCores).toBeNull();
    // A new run forgets the last report's id until its own report comes.
    expect(s.getState().reportId).toBeNull();
    f.settle({ ok: true, report: report(), report_id: 7 });
    await again;
    expect(s.getState().report).toEqual(report());
  });

  it('shows diagnostics when the engine refuses the scenario', async () => {
    const f = fakeEngine();
    const s = await upStore(f);
    const done = s.getState().run();
    const d = { file: 'quickstart.json', line: 1, col: 14, path: 'threads', message: 'at least 1' };
    f.settle({ ok: false, diagnostics: [d] });
    await done;
    expect(s.getState()).toMatchObject({ phase: 'refused', diagnostics: [d], report: null });
  });

  it('marks a cancelled report, and only cancels a running scenario', async () => {
    const f = fakeEngine();
    const s = await upStore(f);
    await s.getState().cancel();
    expect(f.cancels()).toBe(0);
    const done = s.getState().run();
    await s.getState().cancel();
    expect(f.cancels()).toBe(1);
    f.settle({ ok: true, report: report(true), report_id: 7 });
    await done;
    expect(s.getState().phase).toBe('cancelled');
  });

  it('pauses and resumes only a running scenario; a new run starts unpaused', async () => {
    const f = fakeEngine();
    const s = await upStore(f);
    await s.getState().setPaused(true);
    expect(f.pauses).toEqual([]);
    const done = s.getState().run();
    await s.getState().setPaused(true);
    expect(s.getState().paused).toBe(true);
    await s.getState().setPaused(false);
    expect(f.pauses).toEqual([true, false]);
    await s.getState().setPaused(true);
    f.settle({ ok: true, report: report(), report_id: 7 });
    await done;
    const again = s.getState().run();
    expect(s.getState().paused).toBe(false);
    f.settle({ ok: true, report: report(), report_id: 7 });
    await again;
  });

  it('calls a run cancelled before its first scheduler started cancelled', async () => {
    const f = fakeEngine();
    const s = await upStore(f);
    const done = s.getState().run();
    await s.getState().cancel();
    expect(s.getState().cancelRequested).toBe(true);
    f.settle({ ok: true, report: { scenario: 'Q', cores: 2, runs: [] }, report_id: 7 });
    await done;
    expect(s.getState().phase).toBe('cancelled');
    // The next run starts clean.
    const next = s.getState().run();
    expect(s.getState().cancelRequested).toBe(false);
    f.settle({ ok: true, report: report(), report_id: 7 });
    await next;
    expect(s.getState().phase).toBe('done');
  });

  it('keeps the lab usable after an engine error', async () => {
    const f = fakeEngine();
    const s = await upStore(f);
    const first = s.getState().run();
    f.settle(new Error('worker died'));
    await first;
    expect(s.getState()).toMatchObject({ phase: 'failed', error: 'worker died' });
    const second = s.getState().run();
    await tick();
    expect(s.getState()).toMatchObject({ phase: 'running', error: null });
    f.settle({ ok: true, report: report(), report_id: 7 });
    await second;
    expect(s.getState().phase).toBe('done');
  });

  it('starts the engine with the first run only, and shares one start between needs', async () => {
    const start = deferred<ReadyInfo>();
    const f = fakeEngine(() => start.promise);
    const s = createRunStore(f.engine, scenarios);
    const done = s.getState().run();
    // The run waits for the engine: running, the engine starting, nothing sent to it yet.
    expect(s.getState()).toMatchObject({ phase: 'running', engine: { state: 'starting' } });
    const other = s.getState().startEngine();
    expect(f.readies()).toBe(1);
    expect(f.calls).toEqual([]);
    start.resolve(info);
    expect(await other).toBe(true);
    await tick();
    expect(s.getState().engine).toEqual({ state: 'ready', info });
    expect(f.calls).toHaveLength(1);
    f.settle({ ok: true, report: report(), report_id: 7 });
    await done;
    expect(s.getState().phase).toBe('done');
    // Later runs use the engine that is up.
    const again = s.getState().run();
    expect(f.calls).toHaveLength(2);
    f.settle({ ok: true, report: report(), report_id: 7 });
    await again;
    expect(f.readies()).toBe(1);
  });

  it('fails a run whose engine cannot start with the reason, and starts afresh on the next need', async () => {
    let attempt = 0;
    const f = fakeEngine(() =>
      ++attempt === 1 ? Promise.reject(new Error('Failed to fetch')) : Promise.resolve(info),
    );
    const s = createRunStore(f.engine, scenarios);
    await s.getState().run();
    expect(s.getState()).toMatchObject({
      phase: 'failed',
      error: 'the engine could not start: Failed to fetch',
      engine: { state: 'failed', error: 'Failed to fetch' },
    });
    expect(f.calls).toEqual([]);
    // The failed engine was dropped, so the next run starts a new one.
    expect(f.stops()).toBe(1);
    const second = s.getState().run();
    await tick();
    expect(s.getState().engine.state).toBe('ready');
    f.settle({ ok: true, report: report(), report_id: 7 });
    await second;
    expect(s.getState().phase).toBe('done');
    expect(f.readies()).toBe(2);
  });

  it('calls an engine that never answers failed after the start timeout, not "starting" forever', async () => {
    const f = fakeEngine(() => new Promise<ReadyInfo>(() => {}));
    const s = createRunStore(f.engine, scenarios, { engineStartTimeoutMs: 20 });
    await s.getState().run();
    expect(s.getState()).toMatchObject({
      phase: 'failed',
      error: 'the engine could not start: no answer within 0.02 s',
      engine: { state: 'failed', error: 'no answer within 0.02 s' },
    });
    expect(f.stops()).toBe(1);
  });

  it('cancels a run while its engine starts without sending it', async () => {
    const start = deferred<ReadyInfo>();
    const f = fakeEngine(() => start.promise);
    const s = createRunStore(f.engine, scenarios);
    const done = s.getState().run();
    await s.getState().cancel();
    // Pause means nothing before the run began.
    await s.getState().setPaused(true);
    expect(s.getState().paused).toBe(false);
    start.resolve(info);
    await done;
    expect(s.getState()).toMatchObject({ phase: 'cancelled', report: null });
    expect(f.calls).toEqual([]);
    expect(f.cancels()).toBe(0);
    expect(f.pauses).toEqual([]);
  });
});

describe('run store: engine packages (issue 30)', () => {
  const late = JSON.stringify({ schedulers: [{ id: 'sequential' }, { id: 'late' }] });
  const lateFile: ScenarioEntry = { file: 'late.json', name: 'L', description: '', text: late };

  it('starts the engine with the package the run needs, and asks the trace of the worker that ran the report', async () => {
    const wanted: (string | null | undefined)[] = [];
    const traced: (number | undefined)[] = [];
    const f = fakeEngine();
    const engine: EngineApi = {
      ...f.engine,
      ready: (w) => {
        wanted.push(w);
        return f.engine.ready(w);
      },
      trace: (i, ran) => {
        traced.push(ran);
        return f.engine.trace(i, ran);
      },
    };
    const s = createRunStore(engine, [lateFile, ...scenarios]);
    // The run names another family's scheduler in its options: the start loads full, not late.
    const run = s.getState().run({ schedulers: ['late', 'early'] });
    await tick();
    expect(wanted).toEqual(['full']);
    // The host says which worker ran the report.
    const ran: RanOn = { package: 'full', generation: 3 };
    f.settle({ ok: true, report: report(), report_id: 5, ran } as RunOutcome);
    await run;
    expect(s.getState()).toMatchObject({ phase: 'done', reportId: 5, reportRan: { package: 'full', generation: 3 } });
    await s.getState().fetchTrace(0);
    expect(traced).toEqual([3]);
  });

  it('a start without a package loads the one the current text needs', async () => {
    const wanted: (string | null | undefined)[] = [];
    const f = fakeEngine();
    const s = createRunStore({ ...f.engine, ready: (w) => (wanted.push(w), f.engine.ready(w)) }, [lateFile]);
    await s.getState().startEngine();
    expect(wanted).toEqual(['late']);
  });
});
