/**
 * Thread status phrases of late scheduling and of ePaxos / PePaxos, in
 * their own words (views/status.ts asks the family's module): late workers
 * take ready requests from the one graph and sleep in take() when none is
 * ready; ePaxos workers run SCCs, named with the instance each command
 * belongs to.
 */
import { F, KIND, NO_REQUEST, REASON, SCHEDULER, sccName, type PackedTrace } from '../../trace/codec';
import type { LaneState, ReplayState } from '../../trace/state';
import { fmtInt, reqName, type FamilyStatus, type SccIndex, type StatusContext } from '../status';

/** "instance 41" of command `req` (ePaxos family), or "r12" when unknown. */
export function instanceName(ctx: StatusContext, req: number): string {
  const inst = ctx.scc?.instanceOf.get(req);
  return inst === undefined ? reqName(ctx, req) : `instance ${inst}`;
}

/** The SCC of command `req`'s instance, or -1. */
export function sccOfReq(ctx: StatusContext, req: number): number {
  const inst = ctx.scc?.instanceOf.get(req);
  return inst === undefined ? -1 : (ctx.scc?.groupOf.get(inst) ?? -1);
}

/** The late graph at one moment: how full it is and whether the scheduler waits for room. */
export interface GraphWait {
  /** The graph holds as many requests as its bound allows. */
  full: boolean;
  /** The scheduler is in its wait for room (from its WaitStart until its WaitEnd). */
  schedulerWaits: boolean;
  /** The scheduler's wait in words, true of both facts. */
  words: string;
}

/**
 * Whether the late graph is full and the scheduler waits, both from the same
 * replay state, so that no view says "full" of a graph holding fewer than its
 * bound: a worker's removal makes room before the scheduler's wait ends (the
 * removal wakes it), and in between the graph has room while the scheduler
 * still sleeps.
 */
export function graphWait(s: ReplayState): GraphWait {
  const full = s.graphBound > 0 && s.graphSize >= s.graphBound;
  const schedulerWaits = s.scheduler.waitReason === REASON.FullGraph;
  const holds = `${fmtInt(s.graphSize)} of ${s.graphBound > 0 ? fmtInt(s.graphBound) : '?'}`;
  const words = full
    ? `blocked: the graph is full (${holds} requests), waiting for a worker to remove one`
    : `waking: a worker removed a request and made room (the graph holds ${holds})`;
  return { full, schedulerWaits, words };
}

export const lateStatus: FamilyStatus = {
  // Asleep in take(): a request made ready just now wakes it a moment later.
  idle: 'idle, asleep until a request is ready',
  takenFrom: 'the graph (it was ready)',
  executing: () => ', taken from the graph',
  waits: {
    // The one lock of the graph: the scheduler inserting, a worker removing or taking.
    lock: {
      words: 'for the graph lock',
      worker: {
        activity: 'lock',
        tone: 'wait',
        say: (_lane, req, ctx) => ({
          text: `waiting for the graph lock${req >= 0 ? ` to insert ${reqName(ctx, req)}` : ''}`,
          short: 'graph lock',
        }),
      },
      scheduler: () => 'waiting for the graph lock to insert',
    },
    // Only the scheduler waits for room in a full graph.
    'full-graph': { words: 'for room in the full dependency graph', scheduler: (s) => graphWait(s).words },
  },
};

const sccIndexes = new WeakMap<PackedTrace, SccIndex>();

/** The SCC index of an ePaxos-family trace (one pass, cached per trace). */
export function sccIndex(trace: PackedTrace): SccIndex {
  let idx = sccIndexes.get(trace);
  if (idx) return idx;
  idx = { instanceOf: new Map(), groupOf: new Map() };
  // The commit thread delivers an instance's commands, then records its Commit.
  let pending: number[] = [];
  for (let i = 0; i < trace.length; i++) {
    const k = trace.kind(i);
    if (k === KIND.Delivered && trace.thread(i) === SCHEDULER) pending.push(trace.get(i, F.Delivered.req));
    else if (k === KIND.Commit) {
      const inst = trace.get(i, F.Commit.instance);
      for (const r of pending) idx.instanceOf.set(r, inst);
      pending = [];
    } else if (k === KIND.GroupMember) {
      const inst = idx.instanceOf.get(trace.get(i, F.GroupMember.req));
      if (inst !== undefined) idx.groupOf.set(inst, trace.get(i, F.GroupMember.group));
    }
  }
  sccIndexes.set(trace, idx);
  return idx;
}

/** A PePaxos worker waiting for another SCC its SCC depends on: which instance, and that SCC. */
function sccWait(lane: LaneState, req: number, ctx: StatusContext): { text: string; short: string } {
  const on = lane.waitOn === NO_REQUEST ? -1 : lane.waitOn;
  const mine = lane.scc >= 0 ? lane.scc : sccOfReq(ctx, req);
  const theirs = on >= 0 ? sccOfReq(ctx, on) : -1;
  const who = mine >= 0 ? `${sccName(mine)}'s` : `${instanceName(ctx, req)}'s`;
  const what = on >= 0 ? instanceName(ctx, on) : 'another SCC';
  const text = `waiting for ${who} dependency on ${what}${theirs >= 0 ? ` (${sccName(theirs)}, not finished)` : ''}`;
  return { text, short: `waits ${what}` };
}

export const epaxosStatus: FamilyStatus = {
  idle: 'idle (no SCC to run)',
  executing: (ctx, lane, req) => {
    const scc = lane.scc >= 0 ? lane.scc : sccOfReq(ctx, req);
    return `: ${instanceName(ctx, req)}${scc >= 0 ? ` of ${sccName(scc)}` : ''}`;
  },
  context: (track) => ({ scc: sccIndex(track.model.trace) }),
  waits: {
    scc: { words: 'for the SCCs its SCC depends on', worker: { activity: 'dependency', tone: 'wait', say: sccWait } },
    semaphore: { words: 'for a credit (as many SCCs in flight as workers)' },
  },
};
