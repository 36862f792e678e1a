/**
 * Captions of late, epaxos and pepaxos steps: one sentence from the step's
 * first event (`lateStep` / `epaxosStep` in model.ts), declared by the
 * families' modules (index.ts) and registered with the view framework's
 * narrators (views/narrate.ts). Events these do not describe fall through
 * to the generic narrator.
 */
import type { Narrator, StepContext } from '../narrate';
import { epaxosStep, lateStep, type Ev } from './model';

const first = (c: StepContext): Ev | undefined => c.raw[0];

export const lateCaption: Narrator = (c) => {
  const e = first(c);
  return e ? (lateStep(e)?.sentence ?? null) : null;
};

/** ePaxos and PePaxos (`epaxosStep`'s `parallel`: PePaxos runs independent SCCs side by side). */
export const epaxosCaption: Narrator = (c) => {
  const e = first(c);
  return e ? (epaxosStep(e, c.track.scheduler === 'pepaxos')?.sentence ?? null) : null;
};
