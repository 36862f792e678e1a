/**
 * Algorithm steps: how the classroom groups trace events into the steps a
 * teacher narrates (one dispatch, one take-and-start-executing, one
 * finished execution, one barrier phase, one release, one steal, one
 * repartitioning phase), instead of one trace event at a time.
 *
 * An execution is two steps: the one that starts it (with the take that
 * led to it) and the one that ends it (`ExecEnd` starts a step). So the
 * state after the first shows the request executing: no caption says
 * "executes r0" beside a lane that is already idle again.
 *
 * A step starts at a *start event* and runs until the next start event;
 * every other event (a queue sample, a flag, the end of an execution, the
 * end of a wait, and the events that finish what a start began, such as
 * the enqueues of a delivered request) belongs to the step it follows.
 * Whether an event starts a step depends only on the event and on a
 * bounded window of events before it (`WINDOW`), never on where the
 * viewer came from: stepping forward and back always meets the same
 * boundaries, and a step is found from any position in O(WINDOW) per
 * event scanned.
 *
 * Positions: "after step k" is the position of step k+1's start event
 * (events before it applied). `nextStep(p)` is the first start after p,
 * `prevStep(p)` the last start before p.
 */
import { F, KIND, REASON, SCHEDULER, type PackedTrace } from '../trace/codec';
import { onPacked } from '../trace/dispatch';

/** How far back an event looks for the event it finishes. */
export const WINDOW = 64;
/** A step never spans more events than this (a long run of bookkeeping events is cut). */
export const MAX_STEP_EVENTS = 4096;

/** The previous event of `thread` within the window before `i`, or -1. */
function prevOfThread(t: PackedTrace, i: number, thread: number): number {
  for (let j = i - 1; j >= Math.max(0, i - WINDOW); j--) if (t.thread(j) === thread) return j;
  return -1;
}

/** The scheduler delivered or enqueued `req` within the window before `i` (a dispatch in progress). */
function dispatching(t: PackedTrace, i: number, req: number): boolean {
  for (let j = i - 1; j >= Math.max(0, i - WINDOW); j--) {
    if (t.thread(j) !== SCHEDULER) continue;
    const k = t.kind(j);
    if (k === KIND.Delivered && t.get(j, F.Delivered.req) === req) return true;
    if (k === KIND.Enqueued && t.get(j, F.Enqueued.req) === req) return true;
    if (k === KIND.Delivered) return false; // an earlier dispatch
  }
  return false;
}

/** The previous event of `i`'s thread is the take (`Dequeued`) of `req`. */
function afterTake(t: PackedTrace, i: number, req: number): boolean {
  const j = prevOfThread(t, i, t.thread(i));
  return j >= 0 && t.kind(j) === KIND.Dequeued && t.get(j, F.Dequeued.req) === req;
}

/** A wait at a barrier or cycle: does it start its own step? */
function syncWaitStarts(t: PackedTrace, i: number): boolean {
  // Arriving and starting to wait (or, after a release, staying for
  // the class to leave together) is one step.
  const j = prevOfThread(t, i, t.thread(i));
  if (j < 0) return true;
  const pk = t.kind(j);
  const req = t.get(i, F.WaitStart.req);
  if (pk === KIND.SyncArrive && t.get(j, F.SyncArrive.req) === req) return false;
  if (pk === KIND.SyncRelease && t.get(j, F.SyncRelease.req) === req) return false;
  if (pk === KIND.PartSyncArrive && t.get(j, F.PartSyncArrive.req) === req) return false;
  if (pk === KIND.PartSyncRelease && t.get(j, F.PartSyncRelease.req) === req) return false;
  if (pk === KIND.Dequeued || pk === KIND.StealDone) return false;
  return true;
}

const always = () => true;

/**
 * Per kind: does an event of it start a step? Kinds without a handler
 * (WaitEnd, Flag, QueueLen, KeyMoved, MapBalance...) are bookkeeping within a step.
 */
const STARTS = onPacked<PackedTrace, undefined, boolean>(
  {
    Delivered: always,
    Dequeued: always,
    SyncRelease: always,
    Steal: always,
    StealDone: always,
    GraphInsert: always,
    GraphRemove: always,
    GroupFound: always,
    MapSwitch: always,
    Commit: always,
    ColorSteal: always,
    StealTry: always,
    Partitioned: always,
    ExecEnd: always,
    SchedulerPause: always,
    SchedulerResume: always,
    PartSyncRelease: always,
    // Base stops scheduling, then partitions: one step.
    PartitionStart: (t, i) => !(i > 0 && t.kind(i - 1) === KIND.SchedulerPause && t.thread(i - 1) === t.thread(i)),
    // Taking a multi-partition request (or a map switch) and arriving at its sync is one step.
    PartSyncArrive: (t, i) => !afterTake(t, i, t.get(i, F.PartSyncArrive.req)),
    // Part of the dispatch of its request, unless the scheduler was held
    // up (a full queue) and this enqueue stands alone.
    Enqueued: (t, i) => !dispatching(t, i, t.get(i, F.Enqueued.req)),
    // Taking a concurrent request and running it is one step.
    ExecStart: (t, i) => !afterTake(t, i, t.get(i, F.ExecStart.req)),
    // Taking a sequential request and arriving at its barrier is one step.
    SyncArrive: (t, i) => !afterTake(t, i, t.get(i, F.SyncArrive.req)),
    WaitStart: (t, i) => {
      const reason = t.get(i, F.WaitStart.reason);
      if (reason === REASON.Barrier || reason === REASON.Cycle) return syncWaitStarts(t, i);
      if (reason === REASON.MapSwitch) {
        // Arriving at a map switch and waiting there is one step.
        const j = prevOfThread(t, i, t.thread(i));
        return !(j >= 0 && t.kind(j) === KIND.PartSyncArrive);
      }
      return true; // empty queue, full queue, marker, dependency...
    },
  },
  () => false,
);

/** Does event `i` start a step? */
export function startsStep(t: PackedTrace, i: number): boolean {
  return STARTS(t, i, undefined);
}

/** Position after the step that contains event `p` (or starts at it): the next start after p. */
export function nextStep(t: PackedTrace, p: number): number {
  const n = t.length;
  const end = Math.min(n, p + 1 + MAX_STEP_EVENTS);
  for (let i = Math.max(0, p + 1); i < end; i++) if (startsStep(t, i)) return i;
  return end;
}

/** Position before the last step that starts before `p`: the last start at an index below p. */
export function prevStep(t: PackedTrace, p: number): number {
  const stop = Math.max(0, p - 1 - MAX_STEP_EVENTS);
  for (let i = Math.min(p, t.length) - 1; i > stop; i--) if (startsStep(t, i)) return i;
  return stop;
}

/** The start event of the step that brought the state to position p (event p-1's step), or -1. */
export function stepStartBefore(t: PackedTrace, p: number): number {
  if (p <= 0) return -1;
  const stop = Math.max(0, p - 1 - MAX_STEP_EVENTS);
  for (let i = Math.min(p, t.length) - 1; i >= stop; i--) if (startsStep(t, i)) return i;
  return stop;
}
