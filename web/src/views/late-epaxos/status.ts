/**
 * Thread status phrases of late scheduling and of ePaxos / PePaxos, in
 * their own words (views/status.ts asks the family's module): late workers
 * take ready requests from the one graph and sleep in take() when none is
 * ready; ePaxos workers run SCCs, named with the instance each command
 * belongs to.
 */
import { F, KIND, SCHEDULER, sccName, type PackedTrace } from '../../trace/codec';
import { instanceName, sccOfReq, type FamilyStatus, type SccIndex } from '../status';

export const lateStatus: FamilyStatus = {
  // Asleep in take(): a request made ready just now wakes it a moment later.
  idle: 'idle, asleep until a request is ready',
  takenFrom: 'the graph (it was ready)',
  executing: () => ', taken from the graph',
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

export const epaxosStatus: FamilyStatus = {
  idle: 'idle (no SCC to run)',
  executing: (ctx, lane, req) => {
    const scc = lane.scc >= 0 ? lane.scc : sccOfReq(ctx, req);
    return `: ${instanceName(ctx, req)}${scc >= 0 ? ` of ${sccName(scc)}` : ''}`;
  },
  context: (track) => ({ scc: sccIndex(track.model.trace) }),
};
