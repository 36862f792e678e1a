import { describe, expect, it } from 'vitest';
import { EngineHost, type BridgeLike, type EngineHostEvents } from './host';
import type { EnginePackage } from './packages';
import type { ReadyInfo, RunOutcome } from './protocol';
import { readyInfo } from './testing';

const scenario = (...ids: string[]) => JSON.stringify({ schedulers: ids.map((id) => ({ id })) });
const EARLY = scenario('sequential', 'early');
const LATE = scenario('sequential', 'late');
const BOTH = scenario('early', 'late');

function deferred<T>() {
  let resolve: (v: T) => void = () => {};
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A fake worker bridge per package: records what it was asked; runs wait for the test. */
class FakeBridge {
  asked: string[] = [];
  disposed = false;
  runs: { resolve: (o: RunOutcome) => void }[] = [];
  constructor(
    readonly pkg: EnginePackage,
    /** What it loads: `pkg`, or full when that family's package is absent. */
    readonly loads: EnginePackage = pkg,
  ) {}
  ready(): Promise<ReadyInfo> {
    return Promise.resolve({ ...readyInfo(4), package: this.loads, asked: this.pkg });
  }
  validate(text: string) {
    this.asked.push(`validate ${text}`);
    return Promise.resolve([]);
  }
  run(text: string) {
    this.asked.push(`run ${text}`);
    const d = deferred<RunOutcome>();
    this.runs.push(d);
    return d.promise;
  }
  bench() {
    return Promise.resolve({ ok: false as const, diagnostics: [] });
  }
  explore() {
    return Promise.resolve({ ok: false as const, diagnostics: [] });
  }
  cancel() {
    this.asked.push('cancel');
    return Promise.resolve(null);
  }
  setPaused() {
    return Promise.resolve(null);
  }
  trace(runIndex: number) {
    this.asked.push(`trace ${runIndex}`);
    return Promise.resolve(new ArrayBuffer(24));
  }
  workloadGraph() {
    return Promise.resolve({});
  }
  checkPlan() {
    return Promise.resolve({ ok: true as const, repetitions: 1 });
  }
  evaluate(_text: string, ids: number[]) {
    this.asked.push(`evaluate ${ids.join(',')}`);
    return Promise.resolve([]);
  }
  dispose() {
    this.disposed = true;
  }
}

function host(absent: EnginePackage[] = [], events: EngineHostEvents = {}) {
  const made: FakeBridge[] = [];
  const h = new EngineHost((pkg) => {
    const b = new FakeBridge(pkg, absent.includes(pkg) ? 'full' : pkg);
    made.push(b);
    return b as unknown as BridgeLike;
  }, events);
  return { h, made };
}

const report = (id: number): RunOutcome => ({ ok: true, report: { runs: [] } as never, report_id: id });
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('EngineHost', () => {
  it('starts the package the first scenario needs, and keeps it while it covers what comes', async () => {
    const { h, made } = host();
    await expect(h.start('early')).resolves.toMatchObject({ package: 'early' });
    await h.validate(EARLY);
    await h.validate(scenario('sequential'));
    expect(made.map((b) => b.pkg)).toEqual(['early']);
    expect(made[0].asked).toEqual([`validate ${EARLY}`, `validate ${scenario('sequential')}`]);
  });

  it('switches to a new worker, ending the old one, when the loaded package does not cover the scenario', async () => {
    const ready: string[] = [];
    const { h, made } = host([], { onReady: (i) => ready.push(i.package) });
    await h.start('early');
    await h.validate(LATE);
    expect(made.map((b) => b.pkg)).toEqual(['early', 'late']);
    expect(made[0].disposed).toBe(true);
    expect(made[1].asked).toEqual([`validate ${LATE}`]);
    expect(h.loaded).toEqual({ package: 'late', generation: 2 });
    // The page hears of each worker that came up (the header's badge shows its package).
    expect(ready).toEqual(['early', 'late']);
  });

  it('loads full for several families, and never another package after full', async () => {
    const { h, made } = host();
    await h.start('early');
    await h.validate(BOTH);
    await h.validate(LATE);
    await h.validate(EARLY);
    expect(made.map((b) => b.pkg)).toEqual(['early', 'full']);
    expect(made[1].disposed).toBe(false);
  });

  it('counts the run options: a scheduler named there can need another package', async () => {
    const { h, made } = host();
    await h.start('early');
    const run = h.run(scenario('sequential'), { schedulers: ['late'] });
    await flush();
    expect(made.map((b) => b.pkg)).toEqual(['early', 'late']);
    made[1].runs[0].resolve(report(7));
    await expect(run).resolves.toMatchObject({ report_id: 7, ran: { package: 'late', generation: 2 } });
  });

  it('does not switch while a run is in flight: the other scenario waits for it', async () => {
    const { h, made } = host();
    await h.start('early');
    const run = h.run(EARLY);
    await flush();
    const validate = h.validate(LATE);
    await flush();
    expect(made).toHaveLength(1);
    expect(made[0].disposed).toBe(false);
    // Cancel reaches the worker that runs the job.
    await h.cancel();
    expect(made[0].asked).toContain('cancel');
    made[0].runs[0].resolve(report(1));
    await expect(run).resolves.toMatchObject({ ran: { package: 'early', generation: 1 } });
    await validate;
    expect(made.map((b) => b.pkg)).toEqual(['early', 'late']);
    expect(made[0].disposed).toBe(true);
  });

  it('keeps one worker for a session (a check: runs, then evaluate on their reports)', async () => {
    const { h, made } = host();
    await h.start('early');
    let other: Promise<unknown> | null = null;
    const results = await h.session('early', async (ran) => {
      const run = h.run(EARLY);
      await flush();
      made[0].runs[0].resolve(report(3));
      const outcome = await run;
      // Another scenario's validation meanwhile (the editor) waits for the session.
      other = h.validate(LATE);
      await flush();
      expect(made).toHaveLength(1);
      return h.evaluate(EARLY, [outcome.ok ? outcome.report_id : -1], ran.generation);
    });
    expect(results).toEqual([]);
    expect(made[0].asked).toEqual([`run ${EARLY}`, 'evaluate 3']);
    await other;
    expect(made.map((b) => b.pkg)).toEqual(['early', 'late']);
  });

  it('asks for traces only the worker that ran the report, and says so once it was replaced', async () => {
    const { h, made } = host();
    await h.start('early');
    const run = h.run(EARLY);
    await flush();
    made[0].runs[0].resolve(report(1));
    const { ran } = await run;
    await h.trace(0, ran.generation);
    expect(made[0].asked).toContain('trace 0');
    await h.validate(LATE);
    await expect(h.trace(0, ran.generation)).rejects.toThrow('replaced by another engine package');
    await expect(h.workloadGraph(ran.generation)).rejects.toThrow('replaced');
    await expect(h.evaluate(EARLY, [1], ran.generation)).rejects.toThrow('replaced');
    expect(made[1].asked).toEqual([`validate ${LATE}`]);
  });

  it('reports full when the family package is absent from the build, and then keeps it', async () => {
    const { h, made } = host(['late']);
    const info = await h.start('late');
    expect(info).toMatchObject({ package: 'full', asked: 'late' });
    await h.validate(EARLY);
    expect(made.map((b) => b.pkg)).toEqual(['late']);
  });

  it('drops a worker that failed to start; the next request starts a fresh one', async () => {
    let fail = true;
    const made: FakeBridge[] = [];
    const failures: string[] = [];
    const h = new EngineHost(
      (pkg) => {
        const b = new FakeBridge(pkg);
        if (fail) b.ready = () => Promise.reject(new Error('wasm download failed'));
        made.push(b);
        return b as unknown as BridgeLike;
      },
      { onFailed: (e) => failures.push(e.message) },
    );
    await expect(h.start('early')).rejects.toThrow('wasm download failed');
    expect(made[0].disposed).toBe(true);
    expect(failures).toEqual(['wasm download failed']);
    fail = false;
    await h.validate(EARLY);
    expect(made).toHaveLength(2);
    expect(made[1].asked).toEqual([`validate ${EARLY}`]);
  });
});

describe('packageNeeded', () => {
  it('text no package can read runs on whichever is loaded: every package refuses it alike', async () => {
    const { h, made } = host();
    await h.start('late');
    for (const text of ['{"schedulers": [{"id": "ear', '{"threads": 2}', scenario('sequential', 'no-such-id')])
      await h.validate(text);
    expect(made.map((b) => b.pkg)).toEqual(['late']);
    // Readable text of another family still switches.
    await h.validate(EARLY);
    expect(made.map((b) => b.pkg)).toEqual(['late', 'early']);
  });
});
