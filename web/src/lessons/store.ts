/**
 * The lesson in progress: which lesson, and the run serial it started, so
 * the classroom replays the lesson's runs of that report and shows its
 * bookmarks. Starting a lesson picks its scenario, opens the Classroom and
 * runs it; no JSON is touched.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { navStore, patchHash } from '../components/nav';
import type { RunOptions } from '../engine/protocol';
import { runStore } from '../store';
import { displayStore } from '../views/display';
import { lessonById, type Lesson } from './lessons';
import { referenceLabel } from '../engine/virtualCores';

export interface LessonState {
  lessonId: string | null;
  /** Run serial of the lesson's run (its report is the one to replay). */
  serial: number;
  /**
   * Every run serial this lesson started (its run, its re-runs and
   * what-ifs), oldest first: the lesson's run list offers these only, never
   * a run of another lesson or of the lab.
   */
  runs: number[];
  /** The what-if change of the current run ("More writes"), or null for the lesson's own run. */
  whatIf: string | null;
  /** Start lesson `l`; with `virtualCores`, its run is on that many virtual cores (a shared virtual moment). */
  start(l: Lesson, virtualCores?: number | null): Promise<void>;
  /**
   * Run the lesson's scenario again with a change (`text`, same seed), or
   * unchanged (`whatIf` null); the classroom then compares it with the run
   * before.
   */
  rerun(text: string, whatIf: string | null, options?: RunOptions): Promise<void>;
  stop(): void;
}

/** A moment's exact place in the hash (components/links.ts `placeParams`), cleared with the moment. */
const NO_PLACE = { vc: null, ct: null, pos: null, len: null, dg: null };

export const lessonStore = createStore<LessonState>()((set, get) => ({
  lessonId: null,
  serial: -1,
  runs: [],
  whatIf: null,
  async start(l, virtualCores = null) {
    const rs = runStore.getState();
    if (rs.phase === 'running') return;
    rs.selectScenario(l.scenario);
    const whatIf = virtualCores ? referenceLabel(virtualCores) : null;
    set({ lessonId: l.id, serial: rs.runSerial + 1, runs: [rs.runSerial + 1], whatIf });
    // A lesson needs no JSON on screen: the scenario sidebar folds away (the header brings it back).
    displayStore.getState().setSidebar(false);
    patchHash({ lesson: l.id, scenario: null, at: null, runs: null, view: null, lead: null, ...NO_PLACE });
    navStore.getState().setTab('classroom');
    await rs.run({ ...l.options, ...(virtualCores ? { virtual_cores: virtualCores } : {}) });
  },
  async rerun(text, whatIf, options = {}) {
    const rs = runStore.getState();
    if (rs.phase === 'running' || !get().lessonId) return;
    rs.setText(text);
    set({ serial: rs.runSerial + 1, runs: [...get().runs, rs.runSerial + 1], whatIf });
    await rs.run({ ...lessonById(get().lessonId)?.options, ...options });
  },
  stop() {
    set({ lessonId: null, serial: -1, runs: [], whatIf: null });
    patchHash({ lesson: null, at: null, runs: null, view: null, lead: null, ...NO_PLACE });
  },
}));

export function useLesson<T>(sel: (s: LessonState) => T): T {
  return useStore(lessonStore, sel);
}

/** The lesson whose run produced report `serial`, if any. */
export function lessonOfRun(serial: number): Lesson | undefined {
  const s = lessonStore.getState();
  return s.serial === serial ? lessonById(s.lessonId) : undefined;
}

/**
 * May the classroom offer the runs of report `previous` beside those of
 * report `serial` ("before: ...")? Inside a lesson, only when the lesson
 * started both (a re-run or a what-if of it); outside a lesson, as before.
 */
export function previousInScope(
  s: Pick<LessonState, 'lessonId' | 'serial' | 'runs'>,
  serial: number,
  previous: number,
): boolean {
  if (s.lessonId === null || s.serial !== serial) return true;
  return s.runs.includes(previous);
}
