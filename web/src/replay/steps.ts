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
import {
  F,
  FLAG_ENDS_STEAL,
  FLAG_JOINS_PAUSE,
  FLAG_JOINS_TAKE,
  FLAG_PAUSES,
  FLAG_STARTS_STEP,
  FLAG_SYNC_POINT,
  KIND,
  KIND_COUNT,
  REASON_JOINS_ARRIVAL,
  REASON_SYNC_GROUP,
  SCHEDULER,
  type PackedTrace,
} from '../trace/codec';

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

/** Bookkeeping within a step (a queue sample, a flag, the end of a wait...). */
const WITHIN = 0;
/** `starts-step`: every event of the kind starts one. */
const STARTS = 1;
/** `joins-take(req)`: one unless the thread just took `req` from its queue. */
const JOINS_TAKE = 2;
/** `joins-pause`: one unless the same thread paused just before. */
const JOINS_PAUSE = 3;

/**
 * Each kind's step rule by code, built once from the vocabulary's flags
 * (psmr-core `vocabulary.rs`; a cargo test allows one rule per kind): no
 * kind a family brings is named here, and the scan reads one byte per
 * event instead of calling a handler.
 */
const RULE = Uint8Array.from({ length: KIND_COUNT }, (_, k) =>
  FLAG_STARTS_STEP[k] ? STARTS : FLAG_JOINS_TAKE[k] ? JOINS_TAKE : FLAG_JOINS_PAUSE[k] ? JOINS_PAUSE : WITHIN,
);

/** Whether the thread's event before `i` (within the window) took `req` (a `Dequeued` of it). */
function tookJustBefore(t: PackedTrace, i: number, req: number): boolean {
  const j = prevOfThread(t, i, t.thread(i));
  return j >= 0 && t.kind(j) === KIND.Dequeued && t.get(j, F.Dequeued.req) === req;
}

/** Whether event `j` is a `sync-point` of `req` (the thread reached or passed the sync of `req`). */
function syncPointOf(t: PackedTrace, j: number, req: number): boolean {
  const f = FLAG_SYNC_POINT[t.kind(j)];
  return !!f && t.get(j, f.req) === req;
}

/** Does a wait that starts at event `i` start a step? */
function waitStarts(t: PackedTrace, i: number): boolean {
  const reason = t.get(i, F.WaitStart.reason);
  const req = t.get(i, F.WaitStart.req);
  // Flags of the reason (vocabulary.rs, `WaitReason::flags`), no reason named.
  if (!REASON_JOINS_ARRIVAL[reason]) return true; // empty queue, full queue, marker, dependency...
  // Arriving at the sync point of `req` (a map switch's names no request)
  // and starting to wait there is one step.
  const j = prevOfThread(t, i, t.thread(i));
  if (j < 0) return true;
  if (syncPointOf(t, j, req)) return false;
  // A class's sync group (barrier, cycle): so is taking a request or
  // finishing a steal and then waiting at its sync (or, after a release,
  // staying for the class to leave together).
  const pk = t.kind(j);
  return !(REASON_SYNC_GROUP[reason] && (pk === KIND.Dequeued || FLAG_ENDS_STEAL[pk]));
}

/**
 * Does event `i` start a step? A switch on the rule byte of the kind, not
 * a handler table (trace/dispatch.ts): step searches call it for thousands
 * of events per move of the replay, where the table's indirect calls cost
 * long tasks on a 1M-event trace (see `apply` in trace/state.ts).
 */
export function startsStep(t: PackedTrace, i: number): boolean {
  const k = t.kind(i);
  switch (RULE[k]) {
    case STARTS:
      return true;
    case JOINS_TAKE: {
      // Taking a request and starting on it (executing it, arriving at its sync) is one step.
      const f = FLAG_JOINS_TAKE[k];
      return !(f && tookJustBefore(t, i, t.get(i, f.req)));
    }
    case JOINS_PAUSE:
      // Stopping the delivery, then working on what it stopped for, is one step.
      return !(i > 0 && FLAG_PAUSES[t.kind(i - 1)] && t.thread(i - 1) === t.thread(i));
  }
  if (k === KIND.Enqueued) {
    // Part of the dispatch of its request, unless the scheduler was held
    // up (a full queue) and this enqueue stands alone.
    return !dispatching(t, i, t.get(i, F.Enqueued.req));
  }
  if (k === KIND.WaitStart) return waitStarts(t, i);
  return false;
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
