/**
 * The page's side of the engine: a typed request/response channel to the
 * engine worker. Each call gets a fresh id; the worker answers it once.
 * Progress messages of a run are routed to that run's callback.
 *
 * The bridge does not know how the worker is made, so tests drive it with
 * a fake worker (see bridge.test.ts).
 */
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
  Reply,
  Request,
  ResultOf,
  RunOptions,
  RunOutcome,
} from './protocol';
import type { EnginePackage } from './packages';

/** The part of `Worker` the bridge uses. */
export interface WorkerLike {
  postMessage(message: Request): void;
  addEventListener(type: 'message', listener: (ev: MessageEvent<Reply>) => void): void;
  addEventListener(type: 'error', listener: (ev: ErrorEvent) => void): void;
  terminate(): void;
}

/** A job's progress callback: a poll of the engine about every POLL_INTERVAL_MS while it runs. */
type Progress = (poll: PollSnapshot, tMs: number) => void;

type Pending = {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onProgress?: Progress;
};

/** The long calls (a scenario's text, its options, progress polls while it runs), with their options. */
type JobOptions = { run: RunOptions; bench: BenchOptions; explore: ExploreOptions };
type Job = keyof JobOptions;

type Omit_<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

export class EngineBridge {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private fatal: Error | null = null;

  /** `pkg`: the engine package the worker loads at `ready` (default: the full engine). */
  constructor(
    private readonly worker: WorkerLike,
    private readonly pkg?: EnginePackage,
  ) {
    worker.addEventListener('message', (ev: MessageEvent<Reply>) => this.onMessage(ev.data));
    worker.addEventListener('error', (ev: ErrorEvent) => {
      // A worker-level error (failed load, uncaught throw) ends every call.
      this.failAll(new Error(`engine worker failed: ${ev.message || 'unknown error (see the console)'}`));
    });
  }

  /** Load the engine package and start its thread pool; resolves with what it found (and which package). */
  ready(): Promise<ReadyInfo> {
    return this.call<'init'>(this.pkg ? { type: 'init', package: this.pkg } : { type: 'init' });
  }

  /** Located diagnostics for a scenario text (empty when valid). */
  validate(text: string, file?: string): Promise<Diagnostic[]> {
    return this.call<'validate'>({ type: 'validate', text, file });
  }

  /**
   * Run a scenario. `onProgress` gets a poll of the engine about every
   * POLL_INTERVAL_MS while it runs. Resolves with the report, or with the
   * diagnostics that stopped the scenario from running.
   */
  run(text: string, options: RunOptions = {}, onProgress?: Progress): Promise<RunOutcome> {
    return this.job('run', text, options, onProgress);
  }

  /**
   * Run a bench sweep (threads x write share, traces off). Progress and
   * cancellation work as for `run`; one job at a time in the engine.
   */
  bench(text: string, options: BenchOptions = {}, onProgress?: Progress): Promise<BenchOutcome> {
    return this.job('bench', text, options, onProgress);
  }

  /**
   * Explore one scheduler's schedules on virtual cores until the oracle
   * reports a violation (the classroom's break-it mode). Progress
   * (`snapshot.explore`) and cancellation work as for `run`.
   */
  explore(text: string, options: ExploreOptions, onProgress?: Progress): Promise<ExploreOutcome> {
    return this.job('explore', text, options, onProgress);
  }

  /** Ask the running scenario to stop; its run promise still resolves. */
  cancel(): Promise<null> {
    return this.call<'cancel'>({ type: 'cancel' });
  }

  /**
   * Hold the running scenario's delivery back (`true`) or let it go on:
   * workers finish what is queued and then wait, as with no requests arriving.
   */
  setPaused(paused: boolean): Promise<null> {
    return this.call<'pause'>({ type: 'pause', paused });
  }

  /** The packed trace of run `runIndex` of the last report (24 bytes per event). */
  trace(runIndex: number): Promise<ArrayBuffer> {
    return this.call<'trace'>({ type: 'trace', runIndex });
  }

  /**
   * The workload graph of the last report's stream (keys, co-access edges,
   * round-robin placement), for the repartitioning view. Rejects with the
   * engine's reason (no report, not a kv-store, too many keys).
   */
  workloadGraph(): Promise<unknown> {
    return this.call<'workloadGraph'>({ type: 'workloadGraph' });
  }

  /** Runs a check of `text` needs (its expect block's repetitions), or its diagnostics. */
  checkPlan(text: string, file?: string): Promise<CheckPlan> {
    return this.call<'checkPlan'>({ type: 'checkPlan', text, file });
  }

  /**
   * Judge `text`'s expectations with the engine's `evaluate` on the reports
   * it kept under `reportIds` (each run's `report_id`, one per repetition).
   */
  evaluate(text: string, reportIds: number[], file?: string): Promise<ExpectationResult[]> {
    return this.call<'evaluate'>({ type: 'evaluate', text, reportIds, file });
  }

  /** Calls waiting for an answer. */
  get inFlight(): number {
    return this.pending.size;
  }

  dispose(): void {
    this.failAll(new Error('engine bridge disposed'));
    this.worker.terminate();
  }

  /** A long call (`Job`): the one request shape they share, with its progress routed to `onProgress`. */
  private job<T extends Job>(
    type: T,
    text: string,
    options: JobOptions[T],
    onProgress?: Progress,
  ): Promise<ResultOf[T]> {
    // TypeScript does not narrow `Request` by a generic `type`: the three requests are this one shape.
    const req = { type, text, options } as unknown as Omit_<Extract<Request, { type: T }>, 'id'>;
    return this.call<T>(req, onProgress);
  }

  private call<T extends Request['type']>(
    req: Omit_<Extract<Request, { type: T }>, 'id'>,
    onProgress?: Progress,
  ): Promise<ResultOf[T]> {
    if (this.fatal) return Promise.reject(this.fatal);
    const id = this.nextId++;
    return new Promise<ResultOf[T]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onProgress });
      this.worker.postMessage({ ...req, id } as Request);
    });
  }

  private onMessage(msg: Reply): void {
    const p = this.pending.get(msg.id);
    if (!p) return; // a late message for a call already failed
    if (msg.type === 'progress') {
      p.onProgress?.(msg.poll, msg.t_ms);
      return;
    }
    this.pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.result);
    else p.reject(new Error(msg.error));
  }

  private failAll(error: Error): void {
    this.fatal = error;
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }
}

/** Start the real engine worker, to load `pkg` (browser only; one wasm module and pool per worker). */
export function startEngineWorker(pkg?: EnginePackage): EngineBridge {
  const worker = new Worker(new URL('./engine.worker.ts', import.meta.url), {
    type: 'module',
    name: 'psmr-engine',
  });
  return new EngineBridge(worker as unknown as WorkerLike, pkg);
}
