/**
 * The lessons' bookmarks over many CLI runs: the runs
 * scripts/check-lesson-bookmarks.mjs made (`psmr run --json --trace-dir`),
 * listed in `$PSMR_LESSON_RUNS/manifest.json`. Each run's traces are
 * replayed with the app's own track building and bookmark finders
 * (views/lessonRuns.ts); every bookmark a lesson does not mark optional must
 * be found in every run, in the run it names. The hits go to
 * `$PSMR_LESSON_RUNS/hits.json` for the script's table. Without
 * `PSMR_LESSON_RUNS` (a plain `vitest run`) there is nothing to check and
 * the suite is skipped.
 *
 * The same runs also feed the consistency kit (views/consistency.ts): in
 * the first `CONSISTENCY_RUNS` runs of each mode, every track a lesson
 * opens is sampled at 120 algorithm steps, none of which may show a
 * contradiction between views (the per-family tests do this on one
 * browser-recorded trace per scheduler; this does it on real-thread and
 * virtual-core runs of every lesson). Only the shared checks and the
 * Dependency graph view run here; the families' own checks stay in their
 * tests.
 */
import { describe, expect, it } from 'vitest';
import { lessonById } from '../lessons/lessons';
import { checkLesson } from './consistency';
import GraphsView from './late-epaxos/GraphsView';
import { lessonBookmarks, lessonTracks, type BookmarkHit, type ScenarioRun } from './lessonRuns';
import { loadAllPseudoCode } from './pseudocode/types';
import './builtin';

/** One CLI run of a scenario, as the script lists it. */
interface Entry {
  /** Lessons that open this scenario with these options. */
  lessons: string[];
  /** How it ran, e.g. `real threads, 2 threads` or `virtual 16 cores (model, ...)`. */
  mode: string;
  index: number;
  /** The JSON report and the folder of `run-<i>.trace` files. */
  report: string;
  traces: string;
}

/**
 * Node's file functions and environment, typed here: this file runs under
 * vitest in node, and the app's tsconfig has (rightly) no node types.
 */
interface NodeFs {
  readFileSync(path: string): Uint8Array;
  readFileSync(path: string, encoding: 'utf8'): string;
  writeFileSync(path: string, text: string): void;
}
const NODE_FS = 'node:fs';
const { readFileSync, writeFileSync } = (await import(/* @vite-ignore */ NODE_FS)) as NodeFs;
const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const join = (...parts: string[]) => parts.join('/');

const dir = env.PSMR_LESSON_RUNS ?? '';

/** Runs per mode whose tracks the consistency kit samples. */
const CONSISTENCY_RUNS = 3;
/** Schedulers whose tracks the Dependency graph view draws (its thread list is checked too). */
const GRAPH_SCHEDULERS = ['late', 'epaxos', 'pepaxos'];

function entries(): Entry[] {
  return (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { entries: Entry[] }).entries;
}

function load(e: Entry): ScenarioRun {
  const report = JSON.parse(readFileSync(e.report, 'utf8')) as ScenarioRun['report'];
  const traces = report.runs.map((_, i) => {
    const b = readFileSync(join(e.traces, `run-${i}.trace`));
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  });
  return { report, traces };
}

describe.runIf(dir !== '')('lesson bookmarks over CLI runs', () => {
  it(
    'are found in every run unless optional',
    () => {
      const all = entries();
      expect(all.length).toBeGreaterThan(0);
      const hits: { lesson: string; mode: string; index: number; hits: BookmarkHit[] }[] = [];
      const missed: string[] = [];
      for (const e of all) {
        const run = load(e);
        for (const id of e.lessons) {
          const lesson = lessonById(id);
          if (!lesson) throw new Error(`no lesson ${id}`);
          const found = lessonBookmarks(lesson, lessonTracks(lesson, run));
          hits.push({ lesson: id, mode: e.mode, index: e.index, hits: found });
          for (const h of found)
            if (!h.optional && !h.shown) missed.push(`${id} (${e.mode}, run ${e.index}): ${h.finder} "${h.title}"`);
        }
      }
      writeFileSync(join(dir, 'hits.json'), JSON.stringify(hits) + '\n');
      expect(missed).toEqual([]);
    },
    30 * 60_000,
  );

  it(
    'show one state, one story at sampled steps of the first runs',
    async () => {
      // Some families' listings are fetched on first need (a chunk of their own): fetch them all.
      await loadAllPseudoCode();
      const problems: string[] = [];
      let checked = 0;
      for (const e of entries().filter((x) => x.index <= CONSISTENCY_RUNS)) {
        const run = load(e);
        const seen = new Set<string>();
        for (const id of e.lessons) {
          for (const track of lessonTracks(lessonById(id)!, run)) {
            if (seen.has(track.key)) continue;
            seen.add(track.key);
            const views = GRAPH_SCHEDULERS.includes(track.scheduler) ? [GraphsView] : [];
            const r = checkLesson(track, 120, views);
            checked++;
            expect(r.steps, `${track.label} (${e.mode}, run ${e.index})`).toBeGreaterThan(0);
            problems.push(...r.problems.map((p) => `${track.label} (${e.mode}, run ${e.index}) ${p}`));
          }
        }
      }
      expect(checked).toBeGreaterThan(0);
      expect(problems).toEqual([]);
    },
    30 * 60_000,
  );
});
