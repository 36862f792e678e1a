/**
 * One state, one story over the coloring lesson (Libasync-smp and Mely):
 * at 120 sampled algorithm steps of each recorded lesson trace, no view
 * contradicts another or the state (views/consistency.ts), and the Colors
 * view's cores hold the lanes' queues and run the lanes' events.
 */
import '../families';
import { describeLesson, type Check } from '../consistency';
import { stateAt, timeline } from './model';

const coresAgree: Check = ({ track, p, state }) => {
  const now = stateAt(timeline(track.model.trace, track.model.index.threads), p);
  const out: string[] = [];
  for (const core of now.cores) {
    const lane = state.lanes[core.core];
    if (!lane) continue;
    if ((core.running?.req ?? -1) !== lane.exec)
      out.push(`core T${core.core} runs e${core.running?.req ?? '-'} in the Colors view, e${lane.exec} in the lanes`);
    if (core.queued !== lane.queue.length)
      out.push(`core T${core.core} holds ${core.queued} events in the Colors view, ${lane.queue.length} in its lane`);
  }
  return out;
};

describeLesson('coloring lesson', ['libasync', 'mely'], 2, [], () => [coresAgree]);
