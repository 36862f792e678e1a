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
import { startEngineWorker, type EngineBridge } from '../engine/bridge';
import { createRunStore, type EngineApi, type RunState } from './runStore';

let bridge: EngineBridge | null = null;
/**
 * The one engine bridge, its worker created on first use. Its requests other
 * than `ready` need a started engine: callers outside the run store go
 * through {@link readyEngine}, or run only once `engine.state` is `ready`.
 */
export function engineBridge(): EngineBridge {
  bridge ??= startEngineWorker();
  return bridge;
}

/** Forwards to the worker bridge, starting it on the first call. */
const lazyEngine: EngineApi = {
  ready: () => engineBridge().ready(),
  validate: (text, file) => engineBridge().validate(text, file),
  run: (text, options, onProgress) => engineBridge().run(text, options, onProgress),
  cancel: () => engineBridge().cancel(),
  setPaused: (paused) => engineBridge().setPaused(paused),
  trace: (runIndex) => engineBridge().trace(runIndex),
  stop: () => {
    bridge?.dispose();
    bridge = null;
  },
};

export const runStore = createRunStore(lazyEngine);

/** Start the engine if needed; resolves with the bridge once it is ready, rejects with why it could not start. */
export async function readyEngine(): Promise<EngineBridge> {
  if (!(await runStore.getState().startEngine())) {
    const e = runStore.getState().engine;
    throw new Error(`the engine could not start: ${e.state === 'failed' ? e.error : 'unknown error'}`);
  }
  return engineBridge();
}

/** Start the engine now, without waiting (a tab that needs it was opened, or the pointer is on a Run button). */
export function warmEngine(): void {
  void runStore.getState().startEngine();
}

export function useRun<T>(selector: (s: RunState) => T): T {
  return useStore(runStore, selector);
}

export type { RunState, Phase, EngineStatus, EngineApi } from './runStore';
export type { LiveSeries, LivePoint } from './series';
export type { ScenarioEntry } from './scenarios';
