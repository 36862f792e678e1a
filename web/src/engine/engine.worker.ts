/**
 * The engine worker: owns the wasm module and its thread pool.
 *
 * Lifecycle: `init` loads the engine package it names (the full engine, or
 * one family's: docs/benchmarks/frontend.md, "Tenth pass"), then starts the wasm-bindgen-rayon
 * pool with enough threads for the largest run the browser limits allow
 * (every worker of a run plus its scheduler thread block on each other, so
 * the pool is sized by the limits, not by `hardwareConcurrency`).
 *
 * A run is started with `startRun`, which returns at once (the run goes on
 * in the pool); this worker then polls it every POLL_INTERVAL_MS, forwards
 * each poll as `progress`, and answers the request with the report when
 * the engine says it is done. Its own event loop is never blocked by a run.
 */
import type { EnginePackage } from './packages';
import type {
  BenchOutcome,
  CheckPlan,
  Diagnostic,
  EngineLimits,
  ExpectationResult,
  ExploreOutcome,
  PollSnapshot,
  ReadyInfo,
  Reply,
  Request,
  RunOutcome,
} from './protocol';
import { POLL_INTERVAL_MS } from './protocol';

/** The engine module's exports (every package has the same ones; absent families refuse in `validate`). */
type Engine = typeof import('../engine-pkg/psmr_wasm.js');

/**
 * Each family's package, lazily: Vite emits each as its own chunk and wasm
 * file, so the page downloads only the one it loads. Empty entries when the
 * app was built without `build-wasm.sh --families`.
 */
const FAMILY_MODULES = import.meta.glob<Engine>('../engine-pkg/families/*/psmr_wasm.js');

/** The module of `pkg`, or the full engine's when that family's package is not in this build. */
async function loadPackage(pkg: EnginePackage): Promise<{ engine: Engine; loaded: EnginePackage }> {
  const family = pkg === 'full' ? undefined : FAMILY_MODULES[`../engine-pkg/families/${pkg}/psmr_wasm.js`];
  if (family) return { engine: await family(), loaded: pkg };
  return { engine: await import('../engine-pkg/psmr_wasm.js'), loaded: 'full' };
}

/**
 * Pool threads beyond `max_threads + 1 + max_roles` (workers, the scheduler
 * thread, auxiliary roles), as margin.
 */
const POOL_MARGIN = 1;

interface WorkerScope {
  postMessage(message: Reply, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (ev: MessageEvent<Request>) => void): void;
  crossOriginIsolated: boolean;
  navigator: { hardwareConcurrency: number };
}
const scope = self as unknown as WorkerScope;

let ready: Promise<ReadyInfo> | null = null;
/** The loaded engine module; set before `ready` resolves, never replaced (one wasm module per worker). */
let wasm: Engine | null = null;
let runInProgress = false;
/** Why the engine cannot be used any more (a thread panicked), or null. */
let broken: string | null = null;

function reply(id: number, result: unknown, transfer: Transferable[] = []): void {
  scope.postMessage({ id, type: 'reply', ok: true, result }, transfer);
}

function fail(id: number, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  scope.postMessage({ id, type: 'reply', ok: false, error: message });
}

async function start(asked: EnginePackage): Promise<ReadyInfo> {
  const t0 = performance.now();
  const { engine, loaded } = await loadPackage(asked);
  const { browserLimits, initThreadPool, poolThreads, version, features } = engine;
  await engine.default();
  const limits = JSON.parse(browserLimits()) as EngineLimits;
  if (!scope.crossOriginIsolated) {
    throw new Error(
      'this page is not cross-origin isolated (COOP/COEP headers missing), so the engine cannot share memory between threads',
    );
  }
  await initThreadPool(limits.max_threads + 1 + limits.max_roles + POOL_MARGIN);
  const info: ReadyInfo = {
    poolThreads: poolThreads(),
    hardwareConcurrency: scope.navigator.hardwareConcurrency,
    crossOriginIsolated: scope.crossOriginIsolated,
    version: version(),
    features: JSON.parse(features()) as string[],
    limits,
    initMs: performance.now() - t0,
    package: loaded,
    asked,
  };
  wasm = engine;
  return info;
}

/** A job's options as the engine reads them: the page's, plus the core count the browser reports. */
function withCores(options: object): string {
  return JSON.stringify({ cores: scope.navigator.hardwareConcurrency, ...options });
}

/**
 * Start a job (`startRun`, `startBench` or `startExplore`) and answer `id`
 * with its outcome (`{ok, report | bench | explore | diagnostics}`) when the
 * engine is done.
 */
function runJob(
  engine: Engine,
  id: number,
  start: (text: string, optionsJson: string) => void,
  text: string,
  optionsJson: string,
): void {
  if (runInProgress) {
    fail(id, 'a run is already in progress; cancel it first');
    return;
  }
  try {
    start(text, optionsJson);
  } catch (e) {
    // The engine refuses a scenario with a JSON list of diagnostics.
    const diagnostics = parseDiagnostics(e);
    if (diagnostics) reply(id, { ok: false, diagnostics } satisfies RunOutcome);
    else fail(id, e);
    return;
  }
  runInProgress = true;
  const t0 = performance.now();
  const timer = setInterval(() => {
    let snapshot: PollSnapshot;
    try {
      snapshot = JSON.parse(engine.poll()) as PollSnapshot;
    } catch (e) {
      clearInterval(timer);
      runInProgress = false;
      fail(id, e);
      return;
    }
    if (snapshot.panic) {
      // The panicking pool thread trapped; its run will never finish.
      clearInterval(timer);
      broken = `${snapshot.panic} (the engine stopped; reload the page)`;
      fail(id, broken);
      return;
    }
    scope.postMessage({ id, type: 'progress', poll: snapshot, t_ms: performance.now() - t0 });
    if (!snapshot.done) return;
    clearInterval(timer);
    runInProgress = false;
    try {
      reply(id, JSON.parse(engine.takeReport()) as RunOutcome | BenchOutcome | ExploreOutcome);
    } catch (e) {
      fail(id, e);
    }
  }, POLL_INTERVAL_MS);
}

function parseDiagnostics(e: unknown): Diagnostic[] | null {
  if (typeof e !== 'string') return null;
  try {
    const v: unknown = JSON.parse(e);
    return Array.isArray(v) ? (v as Diagnostic[]) : null;
  } catch {
    return null;
  }
}

async function handle(req: Request): Promise<void> {
  if (req.type === 'init') {
    // The first init picks the package; a later one gets the same answer.
    ready ??= start(req.package ?? 'full');
    reply(req.id, await ready);
    return;
  }
  if (!ready) throw new Error('engine not started: send init first');
  if (broken) throw new Error(broken);
  await ready;
  if (!wasm) throw new Error('engine not loaded');
  const {
    cancel,
    setPaused,
    checkRepetitions,
    evaluateExpectations,
    startBench,
    startExplore,
    startRun,
    takeTrace,
    validate,
    workloadGraph,
  } = wasm;
  switch (req.type) {
    case 'validate':
      reply(req.id, JSON.parse(validate(req.text, req.file)) as Diagnostic[]);
      return;
    case 'run':
      runJob(wasm, req.id, startRun, req.text, withCores(req.options));
      return;
    case 'bench':
      runJob(wasm, req.id, startBench, req.text, withCores(req.options));
      return;
    case 'explore':
      runJob(wasm, req.id, startExplore, req.text, JSON.stringify(req.options));
      return;
    case 'cancel':
      cancel();
      reply(req.id, null);
      return;
    case 'pause':
      setPaused(req.paused);
      reply(req.id, null);
      return;
    case 'trace': {
      const bytes = takeTrace(req.runIndex);
      // Copy out of shared memory if needed: only a plain ArrayBuffer transfers.
      const buffer =
        bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
          ? bytes.buffer
          : bytes.slice().buffer;
      reply(req.id, buffer, [buffer as ArrayBuffer]);
      return;
    }
    case 'workloadGraph':
      // Throws (an error reply) when the last report has no kv-store stream.
      reply(req.id, JSON.parse(workloadGraph()) as unknown);
      return;
    case 'checkPlan': {
      // Expectations (psmr-wasm check.rs): an invalid scenario throws its diagnostics as JSON.
      let plan: CheckPlan;
      try {
        plan = { ok: true, repetitions: checkRepetitions(req.text, req.file) };
      } catch (e) {
        const diagnostics = parseDiagnostics(e);
        if (!diagnostics) throw e;
        plan = { ok: false, diagnostics };
      }
      reply(req.id, plan);
      return;
    }
    case 'evaluate':
      reply(req.id, JSON.parse(evaluateExpectations(req.text, req.reportIds, req.file)) as ExpectationResult[]);
      return;
  }
}

scope.addEventListener('message', (ev: MessageEvent<Request>) => {
  const req = ev.data;
  handle(req).catch((e: unknown) => fail(req.id, e));
});
