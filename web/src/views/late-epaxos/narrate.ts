/**
 * Captions of late, epaxos and pepaxos steps: one sentence from the step's
 * first event (`lateStep` / `epaxosStep` in model.ts), registered with the
 * view framework's narrators (views/narrate.ts). Events these do not
 * describe fall through to the generic narrator.
 */
import { registerNarrator, type StepContext } from '../narrate';
import { epaxosStep, lateStep, type Ev } from './model';

const first = (c: StepContext): Ev | undefined => c.raw[0];

registerNarrator('late', (c) => {
  const e = first(c);
  return e ? (lateStep(e)?.sentence ?? null) : null;
});

registerNarrator('epaxos', (c) => {
  const e = first(c);
  return e ? (epaxosStep(e, c.track.scheduler === 'pepaxos')?.sentence ?? null) : null;
});
