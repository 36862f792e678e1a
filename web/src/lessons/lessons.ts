/**
 * The classroom lessons (lessons.json): a scenario, the runs to replay, the
 * view to open, bookmarks, questions. The same file feeds the app (the
 * first screen, the lesson bar) and scripts/check-classroom.mjs, which runs
 * each lesson's scenario natively and counts its mechanism.
 */
import data from './lessons.json';

export interface LessonBookmark {
  /** A finder of views/bookmarks.ts, e.g. `steal`. */
  finder: string;
  view: string;
  title: string;
  /** A moment the run may not reach every time (timing): its button is disabled then. */
  optional?: boolean;
  /**
   * The run (label or scheduler id) to look the moment up in; default: the
   * lesson's runs in order, then any replayed run (compare mode).
   */
  run?: string;
}

export interface LessonMechanism {
  /** Run label (or scheduler id) in the report. */
  run: string;
  /**
   * What proves the mechanism, read from the run's report: a counter
   * (`barrier_waits`, `cycle_waits`, `steals`, `dependency_waits`), else a
   * scheduler metric of `metrics.extra` (`repartitions`,
   * `graph_edges_per_insert`), a path into the report from its root
   * (`stream.scc.largest`: the size of the stream's largest SCC), or
   * `stolen_beyond_steals` (stolen requests minus steals: above 0 when a
   * steal moved several events).
   */
  counter: string;
  at_least: number;
  says: string;
}

export interface Lesson {
  id: string;
  title: string;
  minutes: number;
  scenario: string;
  /** Runs to replay (labels or scheduler ids), in order. */
  runs: string[];
  view: string;
  summary: string;
  mechanism: LessonMechanism[];
  bookmarks: LessonBookmark[];
  questions: string[];
  /** Runs to compare side by side, offered in the lesson bar. */
  compare?: string[];
  /** Run overrides for the lesson's runs (and its what-ifs): fewer requests keep a long scenario's traces small. */
  options?: { requests?: number };
}

export const LESSONS: readonly Lesson[] = (data as { lessons: Lesson[] }).lessons;

export function lessonById(id: string | null | undefined): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}
