/**
 * Engine replies the tests of the bridge, the run store and the live views
 * share: what a 2-core, cross-origin-isolated page gets from the worker.
 */
import type { PollSnapshot, ReadyInfo, RunSnapshot } from './protocol';

/** The worker's `ready` reply with a pool of `poolThreads` wasm threads. */
export function readyInfo(poolThreads: number): ReadyInfo {
  return {
    poolThreads,
    hardwareConcurrency: 2,
    crossOriginIsolated: true,
    version: '0.1.0',
    features: [],
    limits: { max_threads: 16, max_roles: 2 },
    initMs: 40,
    package: 'full',
    asked: 'full',
  };
}

/** A poll of the first and only run (`early`) of a job still running. */
export function runningPoll(
  figures: Pick<RunSnapshot, 'threads' | 'requests' | 'executed' | 'delivered' | 'elapsed_ms'>,
): PollSnapshot {
  return { running: true, done: false, snapshot: { run_index: 0, runs_total: 1, scheduler: 'early', ...figures } };
}
