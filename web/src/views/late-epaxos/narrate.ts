/**
 * Captions of late, epaxos and pepaxos steps: one sentence from the step's
 * first event (`lateStep` / `epaxosStep` in model.ts), declared by the
 * families' modules (index.ts) and registered with the view framework's
 * narrators (views/narrate.ts). Events these do not describe fall through
 * to the generic narrator.
 */
import type { Narrator, StepContext } from '../narrate';
import type { Ev } from './model';
import { epaxosStep, lateStep } from './steps';

const first = (c: StepContext): Ev | undefined => c.raw[0];

/** A take whose step also starts the execution (replay/steps.ts) says both. */
function withStart(c: StepContext, sentence: string): string {
  const s = c.start;
  if (s.kind !== 'Dequeued') return sentence;
  const runs = c.events.some((x) => x.kind === 'ExecStart' && x.thread === s.thread && x.req === s.req);
  return runs ? `${sentence.replace(/\.$/, '')} and starts executing it, outside the lock.` : sentence;
}

export const lateCaption: Narrator = (c) => {
  const e = first(c);
  const sentence = e ? lateStep(e)?.sentence : undefined;
  return sentence ? withStart(c, sentence) : null;
};

/** ePaxos and PePaxos (`epaxosStep`'s `parallel`: PePaxos runs independent SCCs side by side). */
export const epaxosCaption: Narrator = (c) => {
  const e = first(c);
  return e ? (epaxosStep(e, c.track.scheduler === 'pepaxos')?.sentence ?? null) : null;
};
