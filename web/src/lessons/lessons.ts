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

/**
 * A paper's outcome the lesson compares two runs by (issue 27): `better`
 * beats `worse` on `figure` (more throughput, or a lower latency
 * percentile). Checked on the lesson's virtual run, where it does not
 * depend on this machine's cores (lessons/outcome.ts, and natively over
 * many seeds by scripts/check-classroom.mjs --virtual).
 */
export interface LessonOutcome {
  better: string;
  worse: string;
  figure: 'throughput' | 'p50' | 'p90' | 'p99';
  says: string;
}

/**
 * The lesson's run on virtual cores, beside the real one: the same scenario
 * on `cores` simulated cores (a model's numbers, labelled so), for an
 * outcome that needs more cores than a laptop has.
 */
export interface LessonVirtual {
  cores: number;
  /** Why the virtual run shows what the real one may not, and what it does not show. */
  why: string;
  /** The outcomes it shows (empty: none that holds over seeds; `why` says so). */
  outcome: LessonOutcome[];
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
  /** A run on virtual cores the lesson offers beside its real one. */
  virtual?: LessonVirtual;
  /**
   * A break-it lesson's steps in plain words (views/breakit): shown beside
   * the break-it control while the lesson is on.
   */
  breakIt?: string[];
}

export const LESSONS: readonly Lesson[] = (data as { lessons: Lesson[] }).lessons;

export function lessonById(id: string | null | undefined): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}
