/**
 * Captions of repartitioning steps (repart-rr, repart-sw, repart-base,
 * repart-async): one plain sentence per step, from the step's events and
 * the state after them, in the words of docs/teaching/repartitioning.md and
 * beside the line of views/pseudocode/repartitioning.ts. Declared by the
 * family's module (index.ts), registered with the view framework's
 * narrators (views/narrate.ts).
 */
import { AUX_BASE, NO_REQUEST, REASON, SCHEDULER } from '../../trace/codec';
import type { EventOf } from '../../trace/dispatch';
import { eventsOf, narratorOf, threadList, type Narrator, type StepContext } from '../narrate';
import { lanesOf } from './lanes';

/** "the scheduler", "the tracker / partitioner thread", "T2". */
function role(thread: number): string {
  if (thread === SCHEDULER) return 'the scheduler';
  if (thread >= AUX_BASE) return 'the partitioner thread';
  return `T${thread}`;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function delivered(c: StepContext, req: number): string {
  const sync = eventsOf(c, 'SyncQueued').find((x) => x.req === req);
  const to = eventsOf(c, 'Enqueued')
    .filter((x) => x.req === req)
    .map((x) => x.to);
  if (sync) {
    const lanes = lanesOf(sync.lanes);
    return `The scheduler delivers r${req}: its keys span ${lanes.length} partitions, so a sync for it goes into the queues of ${threadList(lanes)}; T${sync.executor} will execute it.`;
  }
  const head = `The scheduler delivers r${req} and looks up its keys' partitions`;
  if (to.length === 1) return `${head}: all in T${to[0]}'s, so r${req} goes into T${to[0]}'s queue only.`;
  return `${head}; next it puts r${req} into the queue of the worker that owns them.`;
}

function taken(c: StepContext, e: EventOf<'Dequeued'>): string {
  const arrive = eventsOf(c, 'PartSyncArrive').find((x) => x.thread === e.thread && x.req === e.req);
  if (arrive) {
    const waits = eventsOf(c, 'WaitStart').some((x) => x.thread === e.thread && x.reason === REASON.Barrier);
    return `T${e.thread} takes r${e.req}, a request over ${arrive.parties} partitions: it arrives at its sync${waits ? ` and waits for the other workers, each first finishing its queue up to r${e.req}` : ' as the last of its workers'}.`;
  }
  const exec = eventsOf(c, 'ExecStart').some((x) => x.thread === e.thread && x.req === e.req);
  if (exec) {
    return `T${e.thread} takes r${e.req} from its queue and starts executing it: every key it names is in T${e.thread}'s partition, so no other worker takes part.`;
  }
  return `T${e.thread} takes r${e.req} from its queue.`;
}

function waitText(e: EventOf<'WaitStart'>): string | null {
  switch (e.reason) {
    case REASON.EmptyQueue:
      return `${cap(role(e.thread))}'s queue is empty: it sleeps until the scheduler routes a request to its partition.`;
    case REASON.FullQueue:
      return e.on >= AUX_BASE && e.on !== NO_REQUEST
        ? `The tracker's queue is full: the scheduler waits before handing r${e.req} to it (back-pressure).`
        : `T${e.on}'s queue is full: the scheduler waits before putting r${e.req} into it (back-pressure, the queue bound).`;
    case REASON.Barrier:
      return `T${e.thread} waits at r${e.req}'s sync for the other workers of its partitions.`;
    case REASON.MapSwitch:
      return `T${e.thread} waits at the map switch until every worker has finished what the old map sent it.`;
    default:
      return null;
  }
}

/** The family's step sentences (null: the generic narrator). */
export const repartCaption: Narrator = narratorOf({
  Delivered: (e, c) => (e.thread === SCHEDULER ? delivered(c, e.req) : null),
  Enqueued: (e) => `T${e.to}'s queue has room again: the scheduler puts r${e.req} into it.`,
  Dequeued: (e, c) => taken(c, e),
  PartSyncArrive: (e) =>
    e.req === NO_REQUEST
      ? `T${e.thread} reaches the map switch: it waits until all ${e.parties} workers have finished what the old map sent them, so no request runs under two maps at once.`
      : `T${e.thread} arrives at r${e.req}'s sync (${e.parties} workers meet there).`,
  ExecStart: (e) => {
    // Alone (not with its take): the executor of a sync, once every party arrived.
    return `Every worker of r${e.req}'s partitions has arrived: T${e.thread}, its executor, executes r${e.req} while the others wait at the sync.`;
  },
  ExecEnd: (e) => `T${e.thread} has finished executing r${e.req}.`,
  PartSyncRelease: (e) =>
    e.req === NO_REQUEST
      ? 'Every worker has passed the map switch: the new map is in force in every queue.'
      : `T${e.executor} has executed r${e.req} and releases its sync: the workers that waited for it go on with their queues.`,
  WaitStart: (e) => waitText(e),
  SchedulerPause: (_e, c) => {
    // (The graph's size is in the Partitions view: the sentence keeps to the step.)
    const what = eventsOf(c, 'PartitionStart').length > 0 ? ', then partitions the graph' : '';
    return `Base stops scheduling to repartition: it waits for the tracker to record every request so far${what}. Meanwhile no request is delivered.`;
  },
  PartitionStart: (e) =>
    `${cap(role(e.thread))} splits the recent requests' graph (${e.vertices} keys, ${e.edges} edges) into balanced parts cutting few edges; scheduling goes on.`,
  Partitioned: (e) =>
    `Map ${e.epoch} is computed in ${e.time_us} µs: ${e.cut} edges cut, each a pair of keys that requests use together but that now live on two workers.`,
  MapSwitch: (e) =>
    `The scheduler installs map ${e.epoch}: ${e.moved} key${e.moved === 1 ? '' : 's'} change owner, and it puts a map-switch sync into every worker's queue.`,
  SchedulerResume: (e) =>
    `Base resumes scheduling after a pause of ${e.pause_us} µs; the workers drained their queues meanwhile.`,
});
