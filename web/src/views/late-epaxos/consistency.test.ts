/**
 * One state, one story over the late and ePaxos lessons: at 120 sampled
 * algorithm steps of each recorded lesson trace, no view contradicts
 * another or the state (views/consistency.ts), the Dependency graph view
 * lists the same thread statuses, and (late) the graph it draws is the
 * state's: as many nodes as it says it holds, the ready nodes the state's,
 * and no ready request beside workers that all sleep.
 */
import '../families';
import { describeLesson, type Check } from '../consistency';
import GraphsView from './GraphsView';
import { eventsOf, lateGraph } from './model';

const lateGraphAgrees: Check = ({ track, p, state, statuses }) => {
  const g = lateGraph(eventsOf(track.model.trace), p);
  const out: string[] = [];
  if (g.size !== g.nodes.length) out.push(`graph "holds ${g.size}" with ${g.nodes.length} nodes drawn`);
  if (g.nodes.length !== state.graphSize) out.push(`${g.nodes.length} nodes drawn, the state holds ${state.graphSize}`);
  const ready = g.nodes.filter((n) => n.state === 'ready').map((n) => n.req);
  if ([...ready].sort().join() !== [...state.graphReady].sort().join())
    out.push(`ready nodes ${ready.join(',')} but the state's ${state.graphReady.join(',')}`);
  // Every ready request has a worker going for it, or no worker is idle.
  const asleep = statuses.filter((s) => s.activity === 'idle').length;
  const going = statuses.filter(
    (s) => (s.activity === 'waking' || s.activity === 'next') && ready.includes(s.req),
  ).length;
  if (asleep > 0 && going < ready.length)
    out.push(`${ready.length} ready node(s) while ${asleep} worker(s) sleep and only ${going} go for one`);
  return out;
};

describeLesson('late and ePaxos lessons', ['late', 'epaxos', 'pepaxos'], 3, [GraphsView], (track) =>
  track.scheduler === 'late' ? [lateGraphAgrees] : [],
);
