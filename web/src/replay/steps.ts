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
import { F, KIND, KIND_COUNT, REASON, SCHEDULER, type PackedTrace } from '../trace/codec';
import type { KindName } from '../trace/dispatch';

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

/**
 * Kinds a family declares as always starting a step (`FamilyModule.stepStarts`), by code: 1 = starts.
 * A byte array read once per event of the `default` branch below, so a family's new kinds need no
 * case here and the scan stays a switch plus one array read.
 */
const FAMILY_STARTS = new Uint8Array(KIND_COUNT);

/** Registers kinds whose every event starts a step (a family's, at registration; see views/family.ts). */
export function registerStepStarts(kinds: readonly KindName[]): void {
  for (const k of kinds) FAMILY_STARTS[KIND[k]] = 1;
}

/**
 * Does event `i` start a step? A switch on the kind code, not a handler
 * table (trace/dispatch.ts): step searches call it for thousands of events
 * per move of the replay, where the table's indirect calls cost long tasks
 * on a 1M-event trace (see `apply` in trace/state.ts).
 */
export function startsStep(t: PackedTrace, i: number): boolean {
  const k = t.kind(i);
  const th = t.thread(i);
  switch (k) {
    case KIND.Delivered:
    case KIND.Dequeued:
    case KIND.SyncRelease:
    case KIND.Steal:
    case KIND.StealDone:
    case KIND.GraphInsert:
    case KIND.GraphRemove:
    case KIND.GroupFound:
    case KIND.MapSwitch:
    case KIND.Commit:
    case KIND.ColorSteal:
    case KIND.Partitioned:
    case KIND.ExecEnd:
    case KIND.SchedulerPause:
    case KIND.SchedulerResume:
    case KIND.PartSyncRelease:
      return true;
    case KIND.PartitionStart:
      // Base stops scheduling, then partitions: one step.
      return !(i > 0 && t.kind(i - 1) === KIND.SchedulerPause && t.thread(i - 1) === th);
    case KIND.PartSyncArrive: {
      // Taking a multi-partition request (or a map switch) and arriving at its sync is one step.
      const j = prevOfThread(t, i, th);
      return !(j >= 0 && t.kind(j) === KIND.Dequeued && t.get(j, F.Dequeued.req) === t.get(i, F.PartSyncArrive.req));
    }
    case KIND.Enqueued:
      // Part of the dispatch of its request, unless the scheduler was held
      // up (a full queue) and this enqueue stands alone.
      return !dispatching(t, i, t.get(i, F.Enqueued.req));
    case KIND.ExecStart: {
      // Taking a concurrent request and running it is one step.
      const j = prevOfThread(t, i, th);
      return !(j >= 0 && t.kind(j) === KIND.Dequeued && t.get(j, F.Dequeued.req) === t.get(i, F.ExecStart.req));
    }
    case KIND.SyncArrive: {
      // Taking a sequential request and arriving at its barrier is one step.
      const j = prevOfThread(t, i, th);
      return !(j >= 0 && t.kind(j) === KIND.Dequeued && t.get(j, F.Dequeued.req) === t.get(i, F.SyncArrive.req));
    }
    case KIND.WaitStart: {
      const reason = t.get(i, F.WaitStart.reason);
      if (reason === REASON.Barrier || reason === REASON.Cycle) {
        // Arriving and starting to wait (or, after a release, staying for
        // the class to leave together) is one step.
        const j = prevOfThread(t, i, th);
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
      if (reason === REASON.MapSwitch) {
        // Arriving at a map switch and waiting there is one step.
        const j = prevOfThread(t, i, th);
        return !(j >= 0 && t.kind(j) === KIND.PartSyncArrive);
      }
      return true; // empty queue, full queue, marker, dependency...
    }
    default:
      // A family's own step starts (registered), else WaitEnd, Flag, QueueLen, KeyMoved,
      // MapBalance...: bookkeeping within a step.
      return FAMILY_STARTS[k] === 1;
  }
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
