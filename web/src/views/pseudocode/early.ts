/**
 * Pseudo-code of early scheduling (barriers) and of its busy-wait variant
 * (paper 000 Algorithms 1-4), as explained in `docs/teaching/early.md` and
 * `docs/teaching/busy-wait.md`, with the rules that put each trace event of
 * an `early` or `busy-wait` run on its line.
 *
 * Both share the scheduler listing and the first lines of the worker loop;
 * only the handling of a sequential request differs. The line numbers are
 * the ones the teaching pages print.
 */
import { cite, PAPERS } from '../papers';
import { lineStarting, listing, type Row, waitRules } from './build';
import type { PseudoCode, PseudoListing, PseudoRule } from './types';

const scheduler = listing('scheduler', 'Scheduler (Algorithm 1)', [
  ['on deliver(r):', 0],
  ['c ← class(r)', 1],
  ['if c is sequential:', 1],
  ['for each thread t of CtoT(c), in id order:', 2],
  ['queue[t].put(r)', 3, 'waits while queue[t] is full'],
  ['else:', 1],
  ['t ← next thread of CtoT(c), round-robin', 2],
  ['queue[t].put(r)', 2, 'waits while queue[t] is full'],
  ['at the end of the stream (or on cancel): close every queue', 0],
]);

const commonWorker: Row[] = [
  ['loop:', 0],
  ['r ← queue[me].take()', 1, 'sleeps while empty; stops once closed and empty'],
  ['c ← class(r)', 1],
  ['if c is concurrent:', 1],
  ['execute r', 2],
  ['else:', 1],
];

const barrierWorker = listing('worker', 'Worker thread me (Algorithm 2)', [
  ...commonWorker,
  ['barrier[c].await()', 2, 'phase 1: every thread of c has reached r'],
  ['if me = min(CtoT(c)):', 2, 'the smallest id executes'],
  ['execute r', 3],
  ['barrier[c].await()', 2, 'phase 2: nobody moves on before r ran'],
]);

const cycleWorker = listing('worker', 'Worker thread me (Algorithms 3-4)', [
  ...commonWorker,
  ['cycle[c] ← 1 − cycle[c]', 2, 'two cycles per class, alternating'],
  ['n ← mark[c][cycle[c]].incrementAndGet()', 2, 'arrive'],
  ['if n = |CtoT(c)|:', 2, 'the last to arrive executes'],
  ['execute r', 3],
  ['mark[c][cycle[c]].set(0)', 3, 'release the others'],
  ['else:', 2],
  ['while mark[c][cycle[c]].get() ≠ 0: back off', 3, 'spin, then yield, then sleep'],
]);

/** A rule's target: the line of a listing that starts with `prefix`. */
const at = lineStarting;

/** Rules shared by both: the scheduler and the worker's queue handling. */
function commonRules(worker: PseudoListing): PseudoRule[] {
  return [
    { kind: 'Delivered', by: 'scheduler', target: at(scheduler, 'on deliver') },
    ...waitRules({ reason: 'full-queue', sequential: true, target: at(scheduler, 'queue[t].put', 0) }),
    { kind: 'Enqueued', sequential: true, target: at(scheduler, 'queue[t].put', 0) },
    ...waitRules({ reason: 'full-queue', target: at(scheduler, 'queue[t].put', 1) }),
    { kind: 'Enqueued', target: at(scheduler, 'queue[t].put', 1) },
    { kind: 'QueueLen', by: 'scheduler', target: at(scheduler, 'on deliver') },
    ...waitRules({ reason: 'empty-queue', target: at(worker, 'r ← queue[me].take()') }),
    { kind: 'Dequeued', target: at(worker, 'r ← queue[me].take()') },
    { kind: 'ExecStart', sequential: false, target: at(worker, 'execute r', 0) },
    { kind: 'ExecEnd', sequential: false, target: at(worker, 'execute r', 0) },
  ];
}

const barrierRules: PseudoRule[] = [
  { kind: 'SyncArrive', target: at(barrierWorker, 'barrier[c].await()', 0) },
  // A thread blocks in phase 1 (waiting for arrivals) or, if it arrived
  // last, only in phase 2; the trace records one wait per request.
  { kind: 'WaitStart', reason: 'barrier', target: at(barrierWorker, 'barrier[c].await()', 0) },
  { kind: 'WaitEnd', reason: 'barrier', target: at(barrierWorker, 'barrier[c].await()', 1) },
  { kind: 'ExecStart', sequential: true, target: at(barrierWorker, 'execute r', 1) },
  { kind: 'ExecEnd', sequential: true, target: at(barrierWorker, 'execute r', 1) },
  { kind: 'SyncRelease', target: at(barrierWorker, 'barrier[c].await()', 1) },
];

const cycleRules: PseudoRule[] = [
  { kind: 'SyncArrive', target: at(cycleWorker, 'n ← mark') },
  { kind: 'ExecStart', sequential: true, target: at(cycleWorker, 'execute r', 1) },
  { kind: 'ExecEnd', sequential: true, target: at(cycleWorker, 'execute r', 1) },
  { kind: 'SyncRelease', target: at(cycleWorker, 'mark[c][cycle[c]].set(0)') },
  ...waitRules({ reason: 'cycle', target: at(cycleWorker, 'while mark') }),
];

export const early: PseudoCode = {
  schedulers: ['early'],
  source: `After Algorithms 1-2 of ${cite(PAPERS.earlyScheduling)}, as restated in ${PAPERS.steroids.title}. Explained in docs/teaching/early.md.`,
  listings: [scheduler, barrierWorker],
  // Specific rules first: they decide sequential executions and waits.
  rules: [...barrierRules, ...commonRules(barrierWorker)],
};

export const busyWait: PseudoCode = {
  schedulers: ['busy-wait'],
  source: `After the busy-wait Algorithms 3-4 of ${cite(PAPERS.steroids)}. Explained in docs/teaching/busy-wait.md.`,
  listings: [scheduler, cycleWorker],
  rules: [...cycleRules, ...commonRules(cycleWorker)],
};
