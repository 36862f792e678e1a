import { describe, expect, it } from 'vitest';
import { shardedClasses } from '../engine/classes';
import type { RunReport } from '../engine/protocol';
import { lessonById } from '../lessons/lessons';
import { KIND } from '../trace/codec';
import { lessonBookmarks, lessonTracks, type ScenarioRun } from './lessonRuns';
import './builtin';

const FIXTURES = import.meta.glob<string>('../trace/fixtures/*.trace.b64', {
  query: '?raw',
  import: 'default',
  eager: true,
});

async function traceOf(name: string): Promise<ArrayBuffer> {
  const entry = Object.entries(FIXTURES).find(([p]) => p.endsWith(`/${name}.trace.b64`));
  if (!entry) throw new Error(`no fixture ${name}`);
  const bin = Uint8Array.from(atob(entry[1].trim()), (c) => c.charCodeAt(0));
  return new Response(new Blob([bin]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
}

/** A CLI run whose report lists `runs` (scheduler, label, fixture trace), on `shards` shards. */
async function scenarioRun(runs: [string, string, string][], shards = 2): Promise<ScenarioRun> {
  const report = {
    classes: shardedClasses(shards),
    runs: runs.map(([scheduler, label]) => ({ scheduler, label }) as RunReport),
  };
  return { report, traces: await Promise.all(runs.map(([, , f]) => traceOf(f))) };
}

describe('lesson bookmarks over one run of the scenario', () => {
  it('open the lesson runs and find each bookmark where the lesson bar does', async () => {
    const cycles = lessonById('cycles')!;
    const run = await scenarioRun([
      ['early', 'early', 'early.classroom-spin.s2'],
      ['busy-wait', 'busy-wait', 'busy-wait.classroom-spin.s2'],
    ]);
    const tracks = lessonTracks(cycles, run);
    // The lesson replays busy-wait only; early is not opened.
    expect(tracks.map((t) => t.scheduler)).toEqual(['busy-wait']);
    const hits = lessonBookmarks(cycles, tracks);
    expect(hits.map((h) => [h.finder, h.shown, h.foundIn])).toEqual([
      ['cycle-spin', true, 'busy-wait'],
      ['cycle-release', true, 'busy-wait'],
    ]);
  });

  it('miss a bookmark the run never reached', async () => {
    const cycles = lessonById('cycles')!;
    // A "busy-wait" run that behaved like early: no cycle, so nothing to point at.
    const run = await scenarioRun([['busy-wait', 'busy-wait', 'early.classroom-spin.s2']]);
    const hits = lessonBookmarks(cycles, lessonTracks(cycles, run));
    expect(hits.every((h) => !h.shown && h.foundIn === null)).toBe(true);
  });

  it('count a bookmark found only in another run than the one it names as missed', async () => {
    const repart = lessonById('repartitioning')!;
    // Labels swapped: the run labelled Base is Async's trace, and the other way round.
    const run = await scenarioRun(
      [
        ['repart-base', 'Base dp=2500', 'repart-async.repart-classroom.s4'],
        ['repart-async', 'Async W=500 Q=64', 'repart-base.repart-classroom.s4'],
      ],
      4,
    );
    const tracks = lessonTracks(repart, run);
    expect(tracks.map((t) => t.run)).toEqual(['Base dp=2500', 'Async W=500 Q=64']);
    const pause = lessonBookmarks(repart, tracks).find((h) => h.finder === 'scheduler-pause')!;
    const baseTrace = tracks[1].model.trace;
    const pauses = Array.from({ length: baseTrace.length }, (_, i) => baseTrace.kind(i)).filter(
      (k) => k === KIND.SchedulerPause,
    );
    expect(pauses.length).toBeGreaterThan(0);
    expect(pause.foundIn).toBe(tracks[1].label);
    expect(pause.shown).toBe(false);
  });
});
