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
 */
import { describe, expect, it } from 'vitest';
import { lessonById } from '../lessons/lessons';
import { lessonBookmarks, lessonTracks, type BookmarkHit, type ScenarioRun } from './lessonRuns';
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
      const { entries } = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { entries: Entry[] };
      expect(entries.length).toBeGreaterThan(0);
      const hits: { lesson: string; mode: string; index: number; hits: BookmarkHit[] }[] = [];
      const missed: string[] = [];
      for (const e of entries) {
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
});
