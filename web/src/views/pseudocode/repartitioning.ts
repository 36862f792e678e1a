/**
 * Pseudo-code of the repartitioning family (the partitioned key-value store
 * of the repartitioning paper, views/papers.ts), as explained in
 * `docs/teaching/repartitioning.md`, with the rules that put each trace
 * event of a repart-* run on its line.
 *
 * One worker listing for all four schedulers; the scheduler listing differs:
 * RR and SW never move a key, Base stops every Δp requests to partition the
 * workload graph itself, Async installs the maps a partitioner thread
 * computes beside it.
 */
import { F, KIND, NO_REQUEST, type PackedTrace } from '../../trace/codec';
import { cite, PAPERS } from '../papers';
import { lineStarting, listing, type Row, waitRules } from './build';
import type { PseudoCode, PseudoEvent, PseudoListing, PseudoRule, PseudoTarget } from './types';

/** How every scheduler routes a request (after its own first lines). */
const route: Row[] = [
  ['P ← the workers whose partitions own the keys of r', 1, 'by the map in force'],
  ['if |P| = 1: queue[the one worker of P].put(r)', 1, 'waits while that queue is full'],
  ['else: put sync(r, executor = one of P) into queue[w] for each w in P', 1, 'they meet, one executes'],
  ['hand r to the tracker', 1, 'it adds r’s keys to the workload graph'],
];

const staticScheduler = listing('scheduler', 'Scheduler (RR, SW: the map never changes)', [
  ['on deliver(r):', 0],
  ['place each key of r seen for the first time', 1, 'RR: round-robin; SW: all on T0'],
  ...route.slice(0, 3),
]);

/** Base's repartitioning, on the scheduler's own thread. */
const stopAndPartition: Row[] = [
  ['every Δp requests:', 1],
  ['stop scheduling; wait until the tracker has recorded every request', 2],
  ['partition the workload graph into n balanced parts, few edges cut', 2],
  ['install the new map; put a map-switch sync into every queue', 2, 'keys that change part move'],
  ['resume scheduling', 2],
];

const baseScheduler = listing('scheduler', 'Scheduler (Base)', [['on deliver(r):', 0], ...route, ...stopAndPartition]);

const asyncScheduler = listing('scheduler', 'Scheduler (Async)', [
  ['on deliver(r):', 0],
  ['if the partitioner has a new map ready:', 1],
  ['install it; put a map-switch sync into every queue', 2, 'keys that change part move'],
  ...route,
]);

const partitioner = listing('partitioner', 'Partitioner thread (Async)', [
  ['loop:', 0],
  ['g ← a copy of the workload graph of the last W requests', 1, 'from the tracker'],
  ['partition g into n balanced parts, few edges cut', 1, 'scheduling goes on meanwhile'],
  ['offer the new map to the scheduler', 1],
]);

const worker = listing('worker', 'Worker thread me', [
  ['loop:', 0],
  ['cmd ← queue[me].take()', 1, 'sleeps while empty'],
  ['if cmd is a map switch:', 1],
  ['wait until every worker has arrived', 2, 'all old-map work is done'],
  ['else if cmd is sync(r) over the workers P:', 1],
  ['wait until every worker of P has arrived', 2, 'phase 1'],
  ['if me is r’s executor: execute r; release the others', 2],
  ['wait until r was executed', 2, 'phase 2'],
  ['else: execute r', 1, 'all its keys are mine'],
]);

const at = lineStarting;

/** A multi-partition request (the event names one) versus a map switch (no request). */
const noReq = (e: { req?: number }) => e.req === undefined || e.req === 0xffffffff;

/** Rules of the worker loop and of routing, shared by every scheduler. */
function common(scheduler: PseudoListing): PseudoRule[] {
  return [
    { kind: 'Delivered', by: 'scheduler', target: at(scheduler, 'on deliver') },
    { kind: 'SyncQueued', target: at(scheduler, 'else: put sync') },
    ...waitRules({ reason: 'full-queue', target: at(scheduler, 'if |P| = 1') }),
    { kind: 'Enqueued', when: (e) => e.inSync === true, target: at(scheduler, 'else: put sync') },
    { kind: 'Enqueued', target: at(scheduler, 'if |P| = 1') },
    { kind: 'QueueLen', by: 'scheduler', target: at(scheduler, 'on deliver') },
    ...waitRules({ reason: 'empty-queue', target: at(worker, 'cmd ← queue') }),
    { kind: 'Dequeued', target: at(worker, 'cmd ← queue') },
    { kind: 'PartSyncArrive', when: noReq, target: at(worker, 'wait until every worker has') },
    ...waitRules({ reason: 'map-switch', target: at(worker, 'wait until every worker has') }),
    { kind: 'PartSyncRelease', when: noReq, target: at(worker, 'wait until every worker has') },
    { kind: 'PartSyncArrive', target: at(worker, 'wait until every worker of P') },
    { kind: 'WaitStart', reason: 'barrier', target: at(worker, 'wait until every worker of P') },
    { kind: 'WaitEnd', reason: 'barrier', target: at(worker, 'wait until r was executed') },
    // A step that starts an execution alone is a sync's executor (a
    // concurrent request starts with its take, whose last event is this).
    { kind: 'ExecStart', when: (e) => e.inSync === true, target: at(worker, 'if me is r’s executor') },
    { kind: 'ExecEnd', when: (e) => e.inSync === true, target: at(worker, 'if me is r’s executor') },
    { kind: 'PartSyncRelease', target: at(worker, 'if me is r’s executor') },
    { kind: 'ExecStart', target: at(worker, 'else: execute r') },
    { kind: 'ExecEnd', target: at(worker, 'else: execute r') },
  ];
}

/** The events of installing a map: the keys that move, the switch, the new map's balance. */
function installing(target: PseudoTarget): PseudoRule[] {
  return (['KeyMoved', 'MapSwitch', 'MapBalance'] as const).map((kind) => ({ kind, target }));
}

const syncRequestSets = new WeakMap<PackedTrace, Set<number>>();

/**
 * The multi-partition requests of a repartitioning trace: those its workers
 * meet at a sync for (a map switch's sync names no request). One pass, cached
 * per trace. A request is executed inside its sync however many events of
 * other threads come between the executor's arrival and its execution, so
 * this is asked of the whole trace, not of a window of events before.
 */
function syncRequests(trace: PackedTrace): Set<number> {
  let set = syncRequestSets.get(trace);
  if (set) return set;
  set = new Set();
  for (let i = 0; i < trace.length; i++) {
    if (trace.kind(i) !== KIND.PartSyncArrive) continue;
    const req = trace.get(i, F.PartSyncArrive.req);
    if (req !== NO_REQUEST) set.add(req);
  }
  syncRequestSets.set(trace, set);
  return set;
}

/** Did the scheduler queue `req` as a multi-partition sync just before event `i`? */
function syncQueued(t: PackedTrace, i: number, req: number): boolean {
  for (let j = i - 1; j >= Math.max(0, i - 64); j--) {
    if (t.kind(j) === KIND.SyncQueued && t.get(j, F.SyncQueued.req) === req) return true;
    if (t.kind(j) === KIND.Delivered) return false;
  }
  return false;
}

/** `inSync` of an execution (its request is a multi-partition one) or of an enqueue (a sync's share). */
function annotate(e: PseudoEvent, trace: PackedTrace, index: number): void {
  if (e.req === undefined) return;
  if (e.kind === 'ExecStart' || e.kind === 'ExecEnd') e.inSync = syncRequests(trace).has(e.req);
  else if (e.kind === 'Enqueued' && index >= 0) e.inSync = syncQueued(trace, index, e.req);
}

const source = `After sections 3 and 4 of ${cite(PAPERS.repartitioning)}. Explained in docs/teaching/repartitioning.md.`;

export const repartStatic: PseudoCode = {
  annotate,
  schedulers: ['repart-rr', 'repart-sw'],
  source,
  listings: [staticScheduler, worker],
  rules: common(staticScheduler),
};

export const repartBase: PseudoCode = {
  annotate,
  schedulers: ['repart-base'],
  source,
  listings: [baseScheduler, worker],
  rules: [
    { kind: 'SchedulerPause', target: at(baseScheduler, 'stop scheduling') },
    { kind: 'PartitionStart', target: at(baseScheduler, 'partition the workload') },
    { kind: 'Partitioned', target: at(baseScheduler, 'partition the workload') },
    ...installing(at(baseScheduler, 'install the new map')),
    { kind: 'SchedulerResume', target: at(baseScheduler, 'resume scheduling') },
    ...common(baseScheduler),
  ],
};

export const repartAsync: PseudoCode = {
  annotate,
  schedulers: ['repart-async'],
  source,
  listings: [asyncScheduler, partitioner, worker],
  rules: [
    { kind: 'PartitionStart', target: at(partitioner, 'partition g') },
    { kind: 'Partitioned', target: at(partitioner, 'offer the new map') },
    ...installing(at(asyncScheduler, 'install it')),
    ...common(asyncScheduler),
  ],
};
