/**
 * Pseudo-code of the four work-stealing variants (paper 000 section 4.2,
 * Algorithms 6-8), as explained in `docs/teaching/work-stealing.md`, with
 * the rules that put each trace event of a `ws-*` run on its line.
 *
 * The scheduler, worker and steal listings are shared; the Synchronize
 * listing differs (barriers for conservative, arrival cycles for the
 * others, plus a trailing barrier for moderate), and so does the steal
 * listing's victim order and the optimistic pre-check.
 */
import { cite, PAPERS } from '../papers';
import { lineStarting, listing, type Row, waitRules } from './build';
import type { PseudoCode, PseudoListing, PseudoRule } from './types';

const scheduler = listing('scheduler', 'Scheduler (Algorithm 6)', [
  ['on deliver(r):', 0],
  ['if class(r) is sequential:', 1],
  ['for each thread t of CtoT(class(r)):', 2],
  ['lock t; sleep while t.ready is full', 3, 'bounded queue, woken when emptied'],
  ['t.ready.append(r); t.readyFlag ← 1; unlock t', 3, 'flag: a sequential request waits'],
  ['else:', 1],
  ['t ← next thread of CtoT(class(r)), round-robin', 2],
  ['lock t; sleep while full; t.ready.append(r); unlock t', 2],
  ['at the end of the stream (or on cancel): close every ready queue', 0],
]);

const worker = listing('worker', 'Worker thread t (Algorithms 7-8)', [
  ['loop:', 0],
  ['lock t: exec ← t.ready; execFlag ← readyFlag; t.ready ← ∅; readyFlag ← 0', 1, 'take the whole batch'],
  ['if exec is empty:', 1],
  ['if t.ready is closed: stop', 2],
  ['Steal(t, none), or back off if it fails', 2, 'idle'],
  ['for each r of exec, in order:', 1],
  ['if class(r) is concurrent: execute r', 2],
  ['else:', 2],
  ['wait until t.marker[s] = 0 for every s ≠ t', 3, 'stealers of t finished'],
  ['Synchronize(r)', 3],
]);

const syncBarriers = listing('sync', 'Synchronize(r): barriers (Algorithm 7)', [
  ['barrier[class(r)].await()', 0, 'all threads of the class arrive'],
  ['if t = min(CtoT(class(r))): execute r', 0],
  ['barrier[class(r)].await()', 0, 'leave together'],
]);

function syncCycle(barrierAfter: boolean): PseudoListing {
  const rows: Row[] = [
    ['cycle ← 1 − cycles[class(r)]; cycles[class(r)] ← cycle', 0, 'two cycles per class'],
    ['if arrivals[class(r)][cycle].incGet() = |CtoT(class(r))|:', 0, 'last to arrive executes'],
    ['execute r', 1],
    ['arrivals[class(r)][cycle] ← 0', 1, 'release the others'],
    ['else while arrivals[class(r)][cycle] ≠ 0:', 0],
    ['Steal(t, class(r)), or back off if it fails', 1, 'steal while waiting'],
  ];
  if (barrierAfter) rows.push(['barrier[class(r)].await()', 0, 'moderate: leave together']);
  return listing('sync', `Synchronize(r): arrival cycle${barrierAfter ? ' + barrier' : ''} (Algorithm 8)`, rows);
}

function steal(fromNext: boolean, optimistic: boolean): PseudoListing {
  const rows: Row[] = [
    ['Steal(s, c):', 0, 's: stealer, c: class it waits on or none'],
    [fromNext ? 'for each victim v ≠ s, starting at s + 1:' : 'for each victim v ≠ s, starting at thread 0:', 1],
  ];
  if (optimistic) rows.push(['if not Valid(v, c) on unlocked hints: next v', 2, 'pre-validation']);
  rows.push(
    ['lock v', 2],
    ['if Valid(v, c):', 2, 'flags down, queue not empty, no class conflicting with c'],
    ['stolen ← v.ready; v.ready ← ∅; v.marker[s] ← 1; unlock v', 3],
    ['execute every r of stolen, in order', 3],
    ['v.marker[s] ← 0', 3, 'the victim may proceed'],
    ['return success', 3],
    ['unlock v', 2],
    ['return failure', 0],
  );
  return listing('steal', optimistic ? 'Steal, optimistic (Algorithm 8)' : 'Steal (Algorithm 7)', rows);
}

/** A rule's target: the line of a listing that starts with `prefix`. */
const at = lineStarting;

/** Rules shared by every variant: scheduler, worker loop, steals. */
function commonRules(st: PseudoListing): PseudoRule[] {
  return [
    { kind: 'Delivered', by: 'scheduler', target: at(scheduler, 'on deliver') },
    {
      kind: 'WaitStart',
      reason: 'full-queue',
      sequential: true,
      target: at(scheduler, 'lock t; sleep while t.ready'),
    },
    {
      kind: 'WaitEnd',
      reason: 'full-queue',
      sequential: true,
      target: at(scheduler, 'lock t; sleep while t.ready'),
    },
    ...waitRules({ reason: 'full-queue', target: at(scheduler, 'lock t; sleep while full') }),
    { kind: 'Enqueued', sequential: true, target: at(scheduler, 't.ready.append(r); t.readyFlag') },
    { kind: 'Enqueued', target: at(scheduler, 'lock t; sleep while full') },
    { kind: 'QueueLen', by: 'scheduler', target: at(scheduler, 'lock t; sleep while full') },
    { kind: 'Flag', target: at(worker, 'lock t: exec') },
    ...waitRules({ reason: 'empty-queue', target: at(worker, 'Steal(t, none)') }),
    { kind: 'Dequeued', target: at(worker, 'for each r of exec') },
    ...waitRules({ reason: 'marker', target: at(worker, 'wait until t.marker') }),
    { kind: 'Steal', target: at(st, 'stolen ←') },
    { kind: 'StealDone', target: at(st, 'v.marker[s] ← 0') },
    { kind: 'ExecStart', sequential: false, target: at(worker, 'if class(r) is concurrent') },
    { kind: 'ExecEnd', sequential: false, target: at(worker, 'if class(r) is concurrent') },
  ];
}

function barrierRules(sync: PseudoListing): PseudoRule[] {
  return [
    { kind: 'SyncArrive', target: at(sync, 'barrier') },
    ...waitRules({ reason: 'barrier', target: at(sync, 'barrier') }),
    { kind: 'ExecStart', sequential: true, target: at(sync, 'if t = min') },
    { kind: 'ExecEnd', sequential: true, target: at(sync, 'if t = min') },
    { kind: 'SyncRelease', target: at(sync, 'if t = min') },
  ];
}

function cycleRules(sync: PseudoListing, barrierAfter: boolean): PseudoRule[] {
  const rules: PseudoRule[] = [
    { kind: 'SyncArrive', target: at(sync, 'if arrivals') },
    { kind: 'ExecStart', sequential: true, target: at(sync, 'execute r') },
    { kind: 'ExecEnd', sequential: true, target: at(sync, 'execute r') },
    { kind: 'SyncRelease', target: at(sync, 'arrivals[class(r)][cycle] ← 0') },
    ...waitRules({ reason: 'cycle', target: at(sync, 'else while') }),
  ];
  if (barrierAfter) {
    rules.push(...waitRules({ reason: 'barrier', target: at(sync, 'barrier') }));
  }
  return rules;
}

const SOURCE = `After the work-stealing Algorithms 5-8 of ${cite(PAPERS.steroids)}. Explained in docs/teaching/work-stealing.md.`;

function variant(id: string, sync: PseudoListing, st: PseudoListing, specific: PseudoRule[]): PseudoCode {
  return {
    schedulers: [id],
    source: SOURCE,
    listings: [scheduler, worker, sync, st],
    // Variant rules first: they decide sequential executions and waits.
    rules: [...specific, ...commonRules(st)],
  };
}

const plainSteal = steal(false, false);
const nextSteal = steal(true, false);
const optimisticSteal = steal(true, true);
const moderateSync = syncCycle(true);
const cycleSync = syncCycle(false);

export const wsConservative: PseudoCode = variant(
  'ws-conservative',
  syncBarriers,
  plainSteal,
  barrierRules(syncBarriers),
);
export const wsModerate: PseudoCode = variant('ws-moderate', moderateSync, plainSteal, cycleRules(moderateSync, true));
export const wsAggressive: PseudoCode = variant('ws-aggressive', cycleSync, nextSteal, cycleRules(cycleSync, false));
export const wsOptimistic: PseudoCode = variant(
  'ws-optimistic',
  cycleSync,
  optimisticSteal,
  cycleRules(cycleSync, false),
);
