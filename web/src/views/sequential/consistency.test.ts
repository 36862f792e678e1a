/**
 * One state, one story for the sequential baseline: at 120 sampled
 * algorithm steps of a recorded run, the scheduler's execution is visible
 * between its start and its end, every step has its pseudo-code line and
 * a plain sentence (views/consistency.ts).
 */
import { describe, expect, it } from 'vitest';
import '../families';
import { checkLesson, lessonTracks } from '../consistency';

describe('sequential: one state, one story at every sampled step', async () => {
  const tracks = await lessonTracks(['sequential']);
  it('has a recorded run', () => expect(tracks).toHaveLength(1));
  for (const { file, track } of tracks) {
    it(
      file,
      () => {
        const r = checkLesson(track, 120);
        expect(r.problems).toEqual([]);
        expect(r.steps).toBeGreaterThanOrEqual(100);
        expect(r.executing, 'steps that show the scheduler executing').toBeGreaterThan(0);
      },
      120_000,
    );
  }
});
