/**
 * `describe`'s sentences for the event kinds only the late scheduler
 * (its dependency graph) or the ePaxos executors (commits, SCCs) record.
 * Declared by the families' modules (index.ts) and registered with
 * trace/codec.ts, so the kinds are named here and in the engine's
 * vocabulary only.
 */
import { F, sccName, type Sentence } from '../../trace/codec';
import type { ByKind } from '../../trace/dispatch';

/** The late scheduler's dependency graph. */
export const lateSentences: ByKind<Sentence> = {
  GraphInsert: (_e, c) =>
    `${c.who} inserts r${c.f(F.GraphInsert.req)} in the graph with ${c.f(F.GraphInsert.deps)} dependencies`,
  GraphRemove: (_e, c) => `${c.who} removes r${c.f(F.GraphRemove.req)} from the graph`,
  Ready: (_e, c) => `r${c.f(F.Ready.req)} has no dependency left in the graph: ready to execute`,
  GraphSize: (_e, c) =>
    `the dependency graph holds ${c.f(F.GraphSize.size)} of at most ${c.f(F.GraphSize.bound)} requests`,
};

/** ePaxos's commits and SCCs. */
export const epaxosSentences: ByKind<Sentence> = {
  GroupFound: (_e, c) =>
    `${c.who} found ${sccName(c.f(F.GroupFound.group))} (${c.f(F.GroupFound.size)} instances), number ${c.f(F.GroupFound.position) + 1} in its graph's order`,
  GroupMember: (_e, c) => `the instance of r${c.f(F.GroupMember.req)} belongs to ${sccName(c.f(F.GroupMember.group))}`,
  Commit: (_e, c) =>
    `instance ${c.f(F.Commit.instance)} committed (seq ${c.f(F.Commit.seq)}, ${c.f(F.Commit.deps)} dependencies)`,
  SccStart: (_e, c) =>
    `${c.who} starts executing ${sccName(c.f(F.SccStart.group))} (${c.f(F.SccStart.size)} instances)`,
  SccEnd: (_e, c) => `${c.who} finished every instance of ${sccName(c.f(F.SccEnd.group))}`,
  CommitWait: (_e, c) => `instance ${c.f(F.CommitWait.instance)} waits for instance ${c.f(F.CommitWait.on)} to commit`,
};
