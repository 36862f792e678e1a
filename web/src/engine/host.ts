/**
 * Which engine package the page runs, and the switch to another (issue 30).
 *
 * A worker loads one wasm module (the full engine, or one family's package:
 * engine.worker.ts) and starts its own thread pool; loading another package
 * means a new worker. Before each request that carries a scenario text
 * (validate, run, bench, explore, checkPlan, evaluate) the host asks
 * `packageFor(text, extraIds)` which package it needs (`packageNeeded`), and keeps the worker
 * when the loaded package `covers` it. Otherwise it ends the old worker (and
 * its pool) and starts one with the needed package.
 *
 * Invariants:
 * - Never a switch while a lease is held: every request above holds one
 *   until its answer, so a run, bench or exploration in flight is never cut
 *   off; a request that needs another package waits until none is held.
 *   `session` holds one across several requests (a check's runs and its
 *   evaluate, which reads the reports those runs left in their worker).
 * - Once the full engine is loaded, it stays: it covers every scenario.
 * - What a worker keeps between calls (the last report's traces and
 *   workload graph, the reports kept by `report_id`) dies with it. Each
 *   worker has a `generation`; a job's answer says which one ran it, and
 *   `trace` / `workloadGraph` given a generation that is no longer loaded
 *   reject with that reason instead of asking another worker (which has
 *   other reports, or none).
 *
 * The host does not know how a worker is made (`make`), so tests drive it
 * with fake bridges (host.test.ts).
 */
import type { EngineBridge } from './bridge';
import { covers, familiesOf, packageOf, type EnginePackage } from './packages';
import type {
  BenchOptions,
  BenchOutcome,
  CheckPlan,
  Diagnostic,
  ExpectationResult,
  ExploreOptions,
  ExploreOutcome,
  PollSnapshot,
  ReadyInfo,
  RunOptions,
  RunOutcome,
} from './protocol';

/** The part of the bridge the host uses. */
export type BridgeLike = Pick<
  EngineBridge,
  | 'ready'
  | 'validate'
  | 'run'
  | 'bench'
  | 'explore'
  | 'cancel'
  | 'setPaused'
  | 'trace'
  | 'workloadGraph'
  | 'checkPlan'
  | 'evaluate'
  | 'dispose'
>;

/** Which worker ran a job: its package and its generation (see {@link EngineHost}). */
export interface RanOn {
  package: EnginePackage;
  generation: number;
}

type Progress = (poll: PollSnapshot, tMs: number) => void;

/**
 * The package a request on `text` needs: `packageFor`'s, except for text
 * `familiesOf` cannot read (not JSON, no `schedulers` list, an id the
 * catalog does not know). Every package refuses such text with the same
 * diagnostics (`schedulers` is required, and a package without a family
 * still knows its ids), so any package answers it: no switch (half-typed
 * text in the Author tab would otherwise load the full engine).
 */
export function packageNeeded(text: string, extraIds: readonly string[] = []): EnginePackage | null {
  // One parse of the text (the Author tab asks this on every validation).
  const families = familiesOf(text, extraIds);
  return families === null ? null : packageOf(families);
}

interface Loaded {
  bridge: BridgeLike;
  generation: number;
  /** Resolves with the worker's `ReadyInfo` (its `package` is what it loaded, maybe full by fallback). */
  ready: Promise<ReadyInfo>;
  info: ReadyInfo | null;
}

export interface EngineHostEvents {
  /** A worker is up (the first, or one switched to). */
  onReady?: (info: ReadyInfo) => void;
  /** A worker failed to start (it is dropped: the next request starts a fresh one). */
  onFailed?: (error: Error) => void;
}

export class EngineHost {
  private current: Loaded | null = null;
  private generations = 0;
  private holds = 0;
  private idleWaiters: (() => void)[] = [];

  /**
   * `make(pkg)` starts a worker that loads `pkg` (and answers `ready`).
   * `fallback` is the package to start when a request needs none in
   * particular (sequential only) and none is loaded.
   */
  constructor(
    private readonly make: (pkg: EnginePackage) => BridgeLike,
    private readonly events: EngineHostEvents = {},
    private readonly fallback: EnginePackage = 'full',
  ) {}

  /** The loaded (or loading) worker's package and generation, once it is up; null before. */
  get loaded(): RanOn | null {
    const c = this.current;
    return c?.info ? { package: c.info.package, generation: c.generation } : null;
  }

  /** Leases held (requests in flight and sessions). */
  get busy(): number {
    return this.holds;
  }

  /** Start (or keep) a worker whose package covers `wanted`; resolves with its `ReadyInfo`. */
  async start(wanted: EnginePackage | null): Promise<ReadyInfo> {
    const loaded = await this.acquire(wanted);
    this.release();
    return loaded.info as ReadyInfo;
  }

  /**
   * Run `body` with a worker that covers `wanted`, and no switch until it
   * settles (a check: its runs and its evaluate on one worker). Requests of
   * `body` that need a package the worker does not cover would wait for the
   * session to end: `body` must ask only for what `wanted` covers.
   */
  async session<T>(wanted: EnginePackage | null, body: (ran: RanOn) => Promise<T>): Promise<T> {
    const loaded = await this.acquire(wanted);
    try {
      return await body(ranOn(loaded));
    } finally {
      this.release();
    }
  }

  validate(text: string, file?: string): Promise<Diagnostic[]> {
    return this.use(packageNeeded(text), (b) => b.validate(text, file));
  }

  /** A run; its answer says which worker ran it (`ran`), for `trace` and `workloadGraph` later. */
  async run(text: string, options: RunOptions = {}, onProgress?: Progress): Promise<RunOutcome & { ran: RanOn }> {
    return this.useRan(packageNeeded(text, options.schedulers ?? []), (b) => b.run(text, options, onProgress));
  }

  bench(text: string, options: BenchOptions = {}, onProgress?: Progress): Promise<BenchOutcome> {
    return this.use(packageNeeded(text, options.schedulers ?? []), (b) => b.bench(text, options, onProgress));
  }

  explore(text: string, options: ExploreOptions, onProgress?: Progress): Promise<ExploreOutcome> {
    return this.use(packageNeeded(text, [options.scheduler]), (b) => b.explore(text, options, onProgress));
  }

  checkPlan(text: string, file?: string): Promise<CheckPlan> {
    return this.use(packageNeeded(text), (b) => b.checkPlan(text, file));
  }

  /**
   * Judge `text` on reports kept under `reportIds` by the worker of
   * generation `ran` (the one their runs ran on): rejects if it was replaced.
   */
  evaluate(text: string, reportIds: number[], ran: number, file?: string): Promise<ExpectationResult[]> {
    return this.useSame(ran, 'its reports', (b) => b.evaluate(text, reportIds, file));
  }

  /** Ask the job in flight to stop (no worker, or one still starting: nothing runs, nothing to stop). */
  async cancel(): Promise<null> {
    // A worker still starting (a switch) runs nothing yet.
    return this.current?.info ? this.current.bridge.cancel() : null;
  }

  async setPaused(paused: boolean): Promise<null> {
    return this.current?.info ? this.current.bridge.setPaused(paused) : null;
  }

  /** The packed trace of run `runIndex` of the last report of the worker of generation `ran`. */
  trace(runIndex: number, ran: number): Promise<ArrayBuffer> {
    return this.useSame(ran, 'its traces', (b) => b.trace(runIndex));
  }

  /** The workload graph of the last report of the worker of generation `ran`. */
  workloadGraph(ran: number): Promise<unknown> {
    return this.useSame(ran, 'its workload graph', (b) => b.workloadGraph());
  }

  /** End the worker (after a failed start, or the page is done with it). */
  stop(): void {
    this.current?.bridge.dispose();
    this.current = null;
  }

  private async use<T>(wanted: EnginePackage | null, call: (b: BridgeLike) => Promise<T>): Promise<T> {
    const loaded = await this.acquire(wanted);
    try {
      return await call(loaded.bridge);
    } finally {
      this.release();
    }
  }

  private async useRan<T extends object>(
    wanted: EnginePackage | null,
    call: (b: BridgeLike) => Promise<T>,
  ): Promise<T & { ran: RanOn }> {
    const loaded = await this.acquire(wanted);
    try {
      return { ...(await call(loaded.bridge)), ran: ranOn(loaded) };
    } finally {
      this.release();
    }
  }

  /** A request about what the worker of generation `ran` keeps: never sent to another worker. */
  private async useSame<T>(ran: number, what: string, call: (b: BridgeLike) => Promise<T>): Promise<T> {
    const c = this.current;
    if (!c || c.generation !== ran || !c.info) {
      throw new Error(
        `the engine that ran this was replaced by another engine package (for another scenario), and ${what} went with it: run it again`,
      );
    }
    this.holds++;
    try {
      return await call(c.bridge);
    } finally {
      this.release();
    }
  }

  /**
   * A worker whose package covers `wanted`, with a lease taken (the caller
   * must `release`). Switches only with no lease held; otherwise waits.
   */
  private async acquire(wanted: EnginePackage | null): Promise<Loaded> {
    for (;;) {
      const c = this.current;
      if (!c) {
        this.current = this.launch(wanted ?? this.fallback);
        continue;
      }
      // A start in progress: wait for it (a failed start rejects every waiter).
      const info = await c.ready;
      if (this.current !== c) continue;
      if (covers(info.package, wanted)) {
        this.holds++;
        return c;
      }
      if (this.holds > 0) {
        await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
        continue;
      }
      c.bridge.dispose();
      this.current = null;
    }
  }

  private release(): void {
    this.holds--;
    if (this.holds > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private launch(pkg: EnginePackage): Loaded {
    const bridge = this.make(pkg);
    const loaded: Loaded = { bridge, generation: ++this.generations, ready: bridge.ready(), info: null };
    loaded.ready = loaded.ready.then(
      (info) => {
        loaded.info = info;
        if (this.current === loaded) this.events.onReady?.(info);
        return info;
      },
      (e: unknown) => {
        const error = e instanceof Error ? e : new Error(String(e));
        if (this.current === loaded) {
          this.current = null;
          bridge.dispose();
          this.events.onFailed?.(error);
        }
        throw error;
      },
    );
    return loaded;
  }
}

function ranOn(loaded: Loaded): RanOn {
  return { package: (loaded.info as ReadyInfo).package, generation: loaded.generation };
}
