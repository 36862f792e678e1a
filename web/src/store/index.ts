/**
 * The app's one run store, wired to the real engine worker, and the hook
 * views use to read it: `useRun((s) => s.report)`.
 *
 * The worker is created on first use (not at import), so importing the
 * store in tests or in views costs nothing.
 */
import { useStore } from 'zustand';
import { startEngineWorker, type EngineBridge } from '../engine/bridge';
import { createRunStore, type EngineApi, type RunState } from './runStore';

let bridge: EngineBridge | null = null;
/** The one engine bridge, started on first use (the editor's validation and Check call it directly). */
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
};

export const runStore = createRunStore(lazyEngine);

export function useRun<T>(selector: (s: RunState) => T): T {
  return useStore(runStore, selector);
}

export type { RunState, Phase, EngineStatus, EngineApi } from './runStore';
export type { LiveSeries, LivePoint } from './series';
export type { ScenarioEntry } from './scenarios';
