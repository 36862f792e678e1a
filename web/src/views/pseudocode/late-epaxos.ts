/**
 * Pseudo-code of late scheduling (CBASE), ePaxos's execution (Algorithm 2)
 * and PePaxos's (Algorithm 3), as written in docs/teaching/{late,epaxos,
 * pepaxos}.md (same lines, same numbers), with the rules that put each
 * trace event of a `late`, `epaxos` or `pepaxos` run on its line.
 */
import { cite, PAPERS } from '../papers';
import { listing, waitRules } from './build';
import type { PseudoCode } from './types';

const lateScheduler = listing('scheduler', 'Scheduler (CBASE)', [
  ['on deliver(r):', 0],
  ['lock(graph)', 1, 'the one lock everyone queues on'],
  ['while graph holds graph_bound requests: wait for a removal', 1, 'graph full: scheduler blocked'],
  ['for each request n in the graph:', 1],
  ['if r conflicts with n: add edge r → n', 2],
  ['add r to the graph', 1],
  ['if r has no edge: mark r ready', 1],
  ['unlock(graph)', 1],
  ['at the end of the stream (or on cancel): close the graph', 0],
]);

const lateWorker = listing('worker', 'Worker (CBASE)', [
  ['loop:', 0],
  ['lock(graph)', 1],
  ['wait until some request is ready (stop once the graph is closed and empty)', 1],
  ['r ← a ready request; mark it running', 1],
  ['unlock(graph)', 1],
  ['execute r', 1, 'outside the lock'],
  ['lock(graph)', 1],
  ['remove r and its incoming edges; every request left with no edge becomes ready', 1],
  ['unlock(graph)', 1],
]);

export const late: PseudoCode = {
  schedulers: ['late'],
  source: `Late scheduling (CBASE) as ${cite(PAPERS.earlyScheduling)} describes it. Explained in docs/teaching/late.md.`,
  listings: [lateScheduler, lateWorker],
  rules: [
    { kind: 'Delivered', by: 'scheduler', target: { listing: 'scheduler', line: 1 } },
    ...waitRules({ reason: 'lock', by: 'scheduler', target: { listing: 'scheduler', line: 2 } }),
    ...waitRules({ reason: 'full-graph', target: { listing: 'scheduler', line: 3 } }),
    { kind: 'DepEdge', target: { listing: 'scheduler', line: 5 } },
    { kind: 'GraphInsert', target: { listing: 'scheduler', line: 6 } },
    { kind: 'Ready', by: 'scheduler', target: { listing: 'scheduler', line: 7 } },
    { kind: 'GraphSize', by: 'scheduler', target: { listing: 'scheduler', line: 6 } },
    ...waitRules({ reason: 'lock', by: 'worker', target: { listing: 'worker', line: 2 } }),
    ...waitRules({ reason: 'empty-queue', target: { listing: 'worker', line: 3 } }),
    { kind: 'Dequeued', target: { listing: 'worker', line: 4 } },
    { kind: 'ExecStart', target: { listing: 'worker', line: 6 } },
    { kind: 'ExecEnd', target: { listing: 'worker', line: 6 } },
    { kind: 'GraphRemove', target: { listing: 'worker', line: 8 } },
    { kind: 'Ready', by: 'worker', target: { listing: 'worker', line: 8 } },
    { kind: 'GraphSize', by: 'worker', target: { listing: 'worker', line: 8 } },
  ],
};

const commit = listing('commit', 'Commit thread', [
  ['on commit(i):', 0, 'it never waits'],
  ['state[i] ← committed; wake the executor', 1],
]);

const executor = listing('executor', 'Executor (Algorithm 2)', [
  ['on commit(i):', 0],
  ['state[i] ← committed; wake the executor', 1],
  ['executor, for each committed instance i, in commit order:', 0],
  ['G ← dependency graph of i over instances not yet executed', 1],
  ['if G reaches an instance u that is not committed:', 1],
  ['park i until u commits; continue with the next commit', 2],
  ['for each SCC S of G, dependencies first (Tarjan):', 1],
  ['for each instance j of S, by (seq, commit position):', 2],
  ['execute the commands of j', 3],
  ['state[j] ← executed', 3],
]);

const SOURCE_004 = cite(PAPERS.generalizedConsensus);

export const epaxos: PseudoCode = {
  schedulers: ['epaxos'],
  source: `ePaxos's execution (Algorithm 2) as ${SOURCE_004} gives it. Explained in docs/teaching/epaxos.md.`,
  listings: [executor],
  rules: [
    { kind: 'Delivered', by: 'scheduler', target: { listing: 'executor', line: 1 } },
    { kind: 'Commit', target: { listing: 'executor', line: 2 } },
    { kind: 'DepEdge', target: { listing: 'executor', line: 2 } },
    { kind: 'CommitWait', target: { listing: 'executor', line: 6 } },
    { kind: 'GroupFound', target: { listing: 'executor', line: 7 } },
    { kind: 'GroupMember', target: { listing: 'executor', line: 8 } },
    { kind: 'SccStart', target: { listing: 'executor', line: 7 } },
    { kind: 'ExecStart', target: { listing: 'executor', line: 9 } },
    { kind: 'ExecEnd', target: { listing: 'executor', line: 10 } },
    { kind: 'SccEnd', target: { listing: 'executor', line: 10 } },
  ],
};

const builder = listing('builder', 'Graph builder (Algorithm 3)', [
  ['for each committed instance i, in commit order:', 0],
  ['G ← dependency graph of i over instances neither executing nor executed', 1],
  ['if G reaches an instance u that is not committed:', 1],
  ['park i until u commits; continue', 2],
  ['mark every instance of G executing', 1],
  ['for each SCC S of G, dependencies first (Tarjan):', 1],
  ['take a credit (wait while nWT SCCs are in flight)', 2],
  ['hand S to a worker', 2],
]);

const pworker = listing('worker', 'Worker (Algorithm 3)', [
  ['loop:', 0],
  ['S ← the next SCC handed out (stop once the builder is done)', 1],
  ['for each SCC T that an instance of S depends on, T ≠ S:', 1],
  ['wait until T has finished', 2, 'cross-SCC wait'],
  ['for each instance j of S, by (seq, commit position):', 1],
  ['execute the commands of j', 2],
  ['state[j] ← executed', 2],
  ['mark S finished; give the credit back', 1],
]);

export const pepaxos: PseudoCode = {
  schedulers: ['pepaxos'],
  source: `PePaxos (Algorithm 3) as ${SOURCE_004} gives it. Explained in docs/teaching/pepaxos.md.`,
  listings: [commit, builder, pworker],
  rules: [
    { kind: 'Delivered', by: 'scheduler', target: { listing: 'commit', line: 1 } },
    { kind: 'Commit', target: { listing: 'commit', line: 2 } },
    { kind: 'DepEdge', target: { listing: 'commit', line: 2 } },
    { kind: 'CommitWait', target: { listing: 'builder', line: 4 } },
    { kind: 'GroupFound', target: { listing: 'builder', line: 6 } },
    { kind: 'GroupMember', target: { listing: 'builder', line: 6 } },
    ...waitRules({ reason: 'semaphore', target: { listing: 'builder', line: 7 } }),
    ...waitRules({ reason: 'empty-queue', target: { listing: 'worker', line: 2 } }),
    { kind: 'SccStart', target: { listing: 'worker', line: 2 } },
    ...waitRules({ reason: 'scc', target: { listing: 'worker', line: 4 } }),
    { kind: 'ExecStart', target: { listing: 'worker', line: 6 } },
    { kind: 'ExecEnd', target: { listing: 'worker', line: 7 } },
    { kind: 'SccEnd', target: { listing: 'worker', line: 8 } },
  ],
};
