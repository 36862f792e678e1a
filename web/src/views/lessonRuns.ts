/**
 * A lesson's bookmarks over one run of its scenario made outside the
 * browser (`psmr run --json --trace-dir`): the tracks the lesson bar would
 * look its bookmarks up in, built as the app builds them (views/tracks.ts
 * `makeTrack`), and for each bookmark whether the lesson bar would find it
 * and in which run. scripts/check-lesson-bookmarks.mjs runs this over many
 * runs (views/lessonRuns.cli.test.ts): a lesson shows its mechanism in every
 * run, or its bookmark says it is optional.
 */
import type { ClassInfo, RunReport } from '../engine/protocol';
import type { Lesson } from '../lessons/lessons';
import type { Track } from '../replay/store';
import { loadTraceHere } from '../trace/load';
import { findBookmarkIn } from './bookmarks';
import { makeTrack, runLabel } from './tracks';

/** One run of a lesson's scenario: its JSON report and its packed traces, in report order. */
export interface ScenarioRun {
  report: { runs: RunReport[]; classes?: ClassInfo[] };
  traces: readonly ArrayBuffer[];
}

/** Does report run `r` answer to `name` (a lesson's run: label or scheduler id)? */
function named(r: RunReport, name: string): boolean {
  return r.label === name || r.scheduler === name;
}

/**
 * The tracks a lesson opens with: its `runs`, in order, then any run a
 * bookmark names that is not among them. A run the report lacks is left
 * out (its bookmarks then miss, as they would in the app).
 */
export function lessonTracks(lesson: Lesson, run: ScenarioRun): Track[] {
  const names = [...lesson.runs];
  for (const b of lesson.bookmarks) if (b.run && !names.includes(b.run)) names.push(b.run);
  const runs = run.report.runs;
  const out: Track[] = [];
  for (const name of names) {
    const i = runs.findIndex((r) => named(r, name));
    if (i < 0 || out.some((t) => t.key === `run-${i}`)) continue;
    const model = loadTraceHere(run.traces[i]);
    out.push(makeTrack(`run-${i}`, runLabel(runs[i], runs, i), runs[i], model, run.report.classes ?? []));
  }
  return out;
}

/** Where one bookmark of a lesson was found in one run (or that it was not). */
export interface BookmarkHit {
  finder: string;
  title: string;
  optional: boolean;
  /** The run the bookmark names, if any. */
  run?: string;
  /** Label of the track it was found in (null: missed). */
  foundIn: string | null;
  /** Found, and in the run it names when it names one. */
  shown: boolean;
}

/** Each bookmark of `lesson` looked up in `tracks` as the lesson bar does (views/LessonBar.tsx). */
export function lessonBookmarks(lesson: Lesson, tracks: readonly Track[]): BookmarkHit[] {
  return lesson.bookmarks.map((b) => {
    const found = findBookmarkIn(tracks, b, lesson.runs);
    const t = found ? tracks[found.track] : null;
    const inNamed = !b.run || (!!t && (t.run === b.run || t.scheduler === b.run));
    return {
      finder: b.finder,
      title: b.title,
      optional: !!b.optional,
      run: b.run,
      foundIn: t ? t.label : null,
      shown: !!t && inNamed,
    };
  });
}
