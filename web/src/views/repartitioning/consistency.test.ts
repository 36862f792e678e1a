/**
 * One state, one story over the repartitioning lesson (Base and Async): at
 * 120 sampled algorithm steps of each recorded lesson trace, no view
 * contradicts another or the state (views/consistency.ts), and the
 * Partitions view's map and "scheduler stopped" say what the events up to
 * the position say.
 */
import '../families';
import { F, KIND } from '../../trace/codec';
import { describeLesson, type Check } from '../consistency';
import { pausedAt, timeline } from './model';

const mapAgrees: Check = ({ track, p, state }) => {
  const t = track.model.trace;
  const tl = timeline(t);
  let paused = 0;
  let epoch = 0;
  for (let i = 0; i < p; i++) {
    if (t.kind(i) === KIND.SchedulerPause) paused++;
    if (t.kind(i) === KIND.SchedulerResume) paused--;
    if (t.kind(i) === KIND.MapSwitch) epoch = t.get(i, F.MapSwitch.epoch);
  }
  const out: string[] = [];
  const shown = tl.switches.filter((s) => s.t_ns <= state.tNs).at(-1)?.epoch ?? 0;
  if (shown !== epoch) out.push(`the Partitions view shows map ${shown}, the events up to here map ${epoch}`);
  if (pausedAt(tl, state.tNs) !== paused > 0)
    out.push(`the Partitions view says the scheduler is ${pausedAt(tl, state.tNs) ? '' : 'not '}stopped`);
  return out;
};

describeLesson('repartitioning lesson', ['repart-base', 'repart-async'], 2, [], () => [mapAgrees]);
