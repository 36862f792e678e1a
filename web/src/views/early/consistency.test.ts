/**
 * One state, one story over the early lessons (barriers, busy-wait cycles,
 * the mapping lesson): at 120 sampled algorithm steps of each recorded
 * lesson trace, no view contradicts another or the state (views/consistency.ts).
 */
import { describe, expect, it } from 'vitest';
import '../families';
import { checkLesson, lessonTracks } from '../consistency';

describe('early lessons: one state, one story at every sampled step', async () => {
  const tracks = await lessonTracks(['early', 'busy-wait']);
  it('has the barrier, cycle and mapping lessons', () => {
    expect(tracks.map((t) => t.file).sort()).toEqual([
      'busy-wait.classroom-spin.s2.trace.b64',
      'early.classroom-mapping-optimized.s4.trace.b64',
      'early.classroom-spin.s2.trace.b64',
    ]);
  });
  for (const { file, track } of tracks) {
    it(
      file,
      () => {
        const r = checkLesson(track, 120);
        expect(r.problems).toEqual([]);
        expect(r.steps).toBeGreaterThanOrEqual(100);
        expect(r.executing, 'steps that show a request executing').toBeGreaterThan(0);
      },
      120_000,
    );
  }
});
