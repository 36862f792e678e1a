/**
 * The app's one run store, wired to the real engine worker, and the hook
 * views use to read it: `useRun((s) => s.report)`.
 *
 * The engine starts on first need only: the worker (and with it the wasm
 * and the thread pool) is created by the first `runStore.startEngine()`,
 * which the first run, a lesson, a link with a moment, the Author and Sweep
 * tabs and the header's engine badge call. Nothing of it is fetched before,
 * so the first screen costs only the page (docs/benchmarks/frontend.md).
 */
import { useStore } from 'zustand';
import { startEngineWorker } from '../engine/bridge';
import { EngineHost } from '../engine/host';
import { packageFor, type EnginePackage } from '../engine/packages';
import { createRunStore, type EngineApi, type RunState } from './runStore';

/**
 * The one engine host: the worker of the engine package the page needs now
 * (engine/host.ts), created on first use and replaced when a scenario needs
 * a package it does not cover. Requests that carry a scenario text go
 * through it, so they load the package they need; what one worker keeps (a
 * report's traces, its workload graph, Check's reports) is asked of it by
 * its generation (`runStore.reportRan`).
 */
export const engineHost = new EngineHost((pkg) => startEngineWorker(pkg), {
  // A switch made by a request (not by startEngine) brings a new worker: the badge shows its package.
  onReady: (info) => {
    if (runStore.getState().engine.state === 'ready') runStore.setState({ engine: { state: 'ready', info } });
  },
  // A switch whose new worker did not start: the badge says so and offers "try again" (a fresh start).
  onFailed: (error) => {
    if (runStore.getState().engine.state === 'ready')
      runStore.setState({ engine: { state: 'failed', error: error.message } });
  },
});

/** The run store's engine: the host; a trace is asked of the worker that ran the report. */
const hostEngine: EngineApi = {
  ready: (wanted) => engineHost.start(wanted ?? null),
  validate: (text, file) => engineHost.validate(text, file),
  run: (text, options, onProgress) => engineHost.run(text, options, onProgress),
  cancel: () => engineHost.cancel(),
  setPaused: (paused) => engineHost.setPaused(paused),
  trace: (runIndex, ran) => engineHost.trace(runIndex, ran ?? -1),
  stop: () => engineHost.stop(),
};

export const runStore = createRunStore(hostEngine);

/**
 * Start the engine if needed (the package `wanted`, default: the current
 * text's); resolves with the host once it is ready, rejects with why it
 * could not start.
 */
export async function readyEngine(wanted?: EnginePackage | null): Promise<EngineHost> {
  if (!(await runStore.getState().startEngine(wanted))) {
    const e = runStore.getState().engine;
    throw new Error(`the engine could not start: ${e.state === 'failed' ? e.error : 'unknown error'}`);
  }
  return engineHost;
}

/**
 * Start the engine now, without waiting (a tab that needs it was opened, or
 * the pointer is on a Run button), with the package the current text needs.
 * Takes no argument: it is used as an event handler as is.
 */
export function warmEngine(): void {
  void runStore.getState().startEngine();
}

/** Start the engine now with the package scenario `file` (a lesson's) needs, so a lesson loads its own. */
export function warmEngineFor(file: string, extraIds: readonly string[] = []): void {
  const entry = runStore.getState().scenarios.find((s) => s.file === file);
  void runStore.getState().startEngine(entry ? packageFor(entry.text, extraIds) : undefined);
}

export function useRun<T>(selector: (s: RunState) => T): T {
  return useStore(runStore, selector);
}

export type { RunState, Phase, EngineStatus, EngineApi } from './runStore';
export type { LiveSeries, LivePoint } from './series';
export type { ScenarioEntry } from './scenarios';
