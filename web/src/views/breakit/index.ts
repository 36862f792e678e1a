/**
 * The app's one break-it store, wired to the engine worker (explore,
 * cancel) and to the run store (the replay of a find: inside a lesson as
 * one of the lesson's runs, so its bar stays).
 */
import { useStore } from 'zustand';
import { lessonStore } from '../../lessons/store';
import { readyEngine, runStore } from '../../store';
import { createBreakItStore, type BreakItState } from './store';

export const breakItStore = createBreakItStore({
  async explore(text, options, onProgress) {
    const engine = await readyEngine();
    return engine.explore(text, options, onProgress);
  },
  async cancel() {
    const engine = await readyEngine();
    return engine.cancel();
  },
  async replay(text, options) {
    if (lessonStore.getState().lessonId) await lessonStore.getState().rerun(text, null, options);
    else {
      runStore.getState().setText(text);
      await runStore.getState().run(options);
    }
    const s = runStore.getState();
    return s.phase === 'done' && s.report ? s.runSerial : null;
  },
});

export function useBreakIt<T>(sel: (s: BreakItState) => T): T {
  return useStore(breakItStore, sel);
}
