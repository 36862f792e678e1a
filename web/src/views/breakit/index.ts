/**
 * The app's one break-it store, wired to the engine worker (explore,
 * cancel) and to the run store (the replay of a find: inside a lesson as
 * one of the lesson's runs, so its bar stays).
 */
import { useStore } from 'zustand';
import { lessonStore } from '../../lessons/store';
import { packageFor } from '../../engine/packages';
import { readyEngine, runStore, useRun } from '../../store';
import type { PseudoCode } from '../pseudocode/types';
import { brokenVariants, guardLine, type GuardLine } from './logic';
import { createBreakItStore, type BreakItState } from './store';

export const breakItStore = createBreakItStore({
  async explore(text, options, onProgress) {
    // Started with the package the exploration needs; the host switches if another is loaded.
    const engine = await readyEngine(packageFor(text, [options.scheduler]));
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

// A shared find (views/breakit/logic.ts `pinnedText`) reopens the bar on
// its find once the link's run is done; the bar's own replays run the
// broken text without a pinned token, so they are not taken for one.
runStore.subscribe((s, prev) => {
  if (s.phase === 'done' && prev.phase !== 'done' && s.report)
    breakItStore.getState().adoptShared(s.text, s.runSerial, s.report.runs);
});

export function useBreakIt<T>(sel: (s: BreakItState) => T): T {
  return useStore(breakItStore, sel);
}

/**
 * The pseudo-code line the dropped rule would have enforced, while a find
 * of break-it mode is the run on screen and `scheduler` is the broken one
 * (null otherwise): the pseudo-code panel marks it.
 */
export function useGuardLine(scheduler: string | undefined, code: PseudoCode | null): GuardLine | null {
  const serial = useRun((s) => s.runSerial);
  const fault = useBreakIt((s) => (s.phase === 'found' && s.serial === serial ? s.asked?.fault : null));
  const variant = scheduler && fault ? brokenVariants(scheduler).find((v) => v.name === fault) : undefined;
  return variant ? guardLine(code, variant.guard) : null;
}
