/**
 * Hand-made late-scheduling events the tests of the Dependency graph model
 * and of the thread statuses share.
 */
import { KIND as K, NO_REQUEST, REASON as R, SCHEDULER } from '../../trace/codec';
import type { Ev } from './model';

/** One trace event; `extra` (the reason of a wait) last, as most events leave it 0. */
export const ev = (thread: number, kind: number, a = 0, b = 0, c = 0, extra = 0): Ev => ({
  thread,
  kind,
  extra,
  a,
  b,
  c,
});

/**
 * Two requests of one class, r1 depending on r0, in a graph bounded at 2: T1
 * queues on the graph lock while the scheduler waits for room for r2.
 */
export const lateTwoRequests: readonly Ev[] = [
  ev(SCHEDULER, K.Delivered, 0),
  ev(SCHEDULER, K.GraphInsert, 0, 0),
  ev(SCHEDULER, K.Ready, 0),
  ev(SCHEDULER, K.GraphSize, 1, 2),
  ev(SCHEDULER, K.Delivered, 1),
  ev(SCHEDULER, K.DepEdge, 1, 0),
  ev(SCHEDULER, K.GraphInsert, 1, 1),
  ev(SCHEDULER, K.GraphSize, 2, 2),
  ev(0, K.Dequeued, 0),
  ev(SCHEDULER, K.Delivered, 2),
  ev(SCHEDULER, K.WaitStart, 2, NO_REQUEST, 0, R.FullGraph),
  ev(1, K.WaitStart, NO_REQUEST, NO_REQUEST, 0, R.Lock),
  ev(0, K.ExecStart, 0),
  ev(0, K.ExecEnd, 0),
  ev(0, K.Ready, 1),
  ev(0, K.GraphRemove, 0),
  ev(0, K.GraphSize, 1, 2),
  ev(1, K.WaitEnd, NO_REQUEST, 0, 0, R.Lock),
  ev(SCHEDULER, K.WaitEnd, 2, 0, 0, R.FullGraph),
];
