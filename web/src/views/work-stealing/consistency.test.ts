/**
 * One state, one story over the work-stealing lesson (conservative and
 * aggressive): at 120 sampled algorithm steps of each recorded lesson
 * trace, no view contradicts another or the state, and no steal caption
 * calls a flag down that the state shows up (views/consistency.ts).
 */
import { describe, expect, it } from 'vitest';
import '../families';
import { checkLesson, lessonTracks } from '../consistency';

describe('work-stealing lesson: one state, one story at every sampled step', async () => {
  const tracks = await lessonTracks(['ws-conservative', 'ws-aggressive']);
  it('has both variants of the lesson', () => expect(tracks).toHaveLength(2));
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
