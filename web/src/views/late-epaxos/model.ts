/**
 * The data model of the late-scheduling and ePaxos classroom views: pure
 * functions from a run's trace events to what the views draw at a replay
 * position, the pseudo-code line of each step and one plain sentence per
 * step. No React, no engine: all of it is
 * unit-tested on hand-made event lists and on engine traces.
 *
 * Kind and reason codes are the engine's, from the generated vocabulary
 * (`trace/codec.ts`).
 *
 * Late (CBASE): the dependency graph as it grows and drains, ready nodes,
 * the bound and a blocked scheduler, and who queues on the graph's lock.
 * ePaxos / PePaxos: instances with their seq and dependencies, SCCs boxed
 * with their position in their graph's order, the worker running each SCC,
 * cross-SCC waits and instances waiting for a commit.
 */

import {
  AUX_BASE,
  KIND as K,
  REASON as R,
  SCHEDULER,
  sccName,
  type PackedTrace,
  type TraceEvent,
} from '../../trace/codec';

/** One trace event, without its time (the codec's fields: `x` is `extra`). */
export type Ev = Omit<TraceEvent, 't_ns'>;

// ---------------------------------------------------------------------------
// Late scheduling

export type NodeState = 'waiting' | 'ready' | 'running' | 'done';

export interface LateNode {
  req: number;
  state: NodeState;
  /** Requests in the graph it still waits for (edges out). */
  waitsFor: number[];
  /** Worker running it (state `running` or `done`). */
  worker?: number;
}

/** The CBASE graph after some prefix of the trace. */
export interface LateGraph {
  /** Requests in the graph, in insertion order. */
  nodes: LateNode[];
  /** Edges `from -> to` between requests in the graph. */
  edges: [number, number][];
  size: number;
  bound: number;
  /** The scheduler waits for room in a full graph. */
  schedulerBlocked: boolean;
  /** Threads waiting for the graph's lock, in the order they started. */
  lockQueue: number[];
  /** Workers idle (nothing ready). */
  idle: number[];
  inserted: number;
  removed: number;
}

/** Replay events `[0, upto)` of a late run into its graph. */
export function lateGraph(events: readonly Ev[], upto = events.length): LateGraph {
  const nodes = new Map<number, LateNode>();
  let bound = 0;
  let size = 0;
  let schedulerBlocked = false;
  const lock: number[] = [];
  const idle = new Set<number>();
  let inserted = 0;
  let removed = 0;
  const pendingEdges: number[] = [];
  for (let i = 0; i < Math.min(upto, events.length); i++) {
    const e = events[i];
    switch (e.kind) {
      case K.DepEdge:
        // The scheduler records the edges of a request just before its
        // GraphInsert.
        pendingEdges.push(e.b);
        break;
      case K.GraphInsert:
        nodes.set(e.a, { req: e.a, state: 'waiting', waitsFor: pendingEdges.splice(0) });
        inserted++;
        break;
      case K.Ready: {
        const n = nodes.get(e.a);
        if (n) {
          n.state = 'ready';
          n.waitsFor = [];
        }
        break;
      }
      case K.Dequeued: {
        const n = nodes.get(e.a);
        if (n) {
          n.state = 'running';
          n.worker = e.thread;
        }
        break;
      }
      case K.ExecEnd: {
        const n = nodes.get(e.a);
        if (n) n.state = 'done';
        break;
      }
      case K.GraphRemove:
        nodes.delete(e.a);
        for (const n of nodes.values()) n.waitsFor = n.waitsFor.filter((r) => r !== e.a);
        removed++;
        break;
      case K.GraphSize:
        size = e.a;
        bound = e.b;
        break;
      case K.WaitStart:
        if (e.extra === R.FullGraph) schedulerBlocked = true;
        if (e.extra === R.Lock && !lock.includes(e.thread)) lock.push(e.thread);
        if (e.extra === R.EmptyQueue) idle.add(e.thread);
        break;
      case K.WaitEnd:
        if (e.extra === R.FullGraph) schedulerBlocked = false;
        if (e.extra === R.Lock) {
          const at = lock.indexOf(e.thread);
          if (at >= 0) lock.splice(at, 1);
        }
        if (e.extra === R.EmptyQueue) idle.delete(e.thread);
        break;
    }
  }
  const list = [...nodes.values()];
  return {
    nodes: list,
    edges: list.flatMap((n) => n.waitsFor.map((to) => [n.req, to] as [number, number])),
    // The nodes drawn, not the last GraphSize sample (recorded after the
    // insert or removal it follows, so it can lag one event behind).
    size: inserted > 0 ? nodes.size : size,
    bound,
    schedulerBlocked,
    lockQueue: lock,
    idle: [...idle].sort((a, b) => a - b),
    inserted,
    removed,
  };
}

// ---------------------------------------------------------------------------
// ePaxos / PePaxos

export type InstanceState = 'committed' | 'waiting-commit' | 'taken' | 'running' | 'executed';

export interface Instance {
  /** Position in commit order. */
  id: number;
  /** Its commands (request ids), from the commit thread's deliveries. */
  commands: number[];
  seq: number;
  /** Instances it depends on. */
  deps: number[];
  state: InstanceState;
  /** Its SCC, once found. */
  group?: number;
  /** The uncommitted instance it waits for, while parked. */
  waitsForCommit?: number;
}

export interface Scc {
  group: number;
  /** Position in its graph's reverse topological order (0 runs first). */
  position: number;
  /** Instances, in seq order (the order they run in). */
  members: number[];
  state: 'found' | 'running' | 'done';
  /** Worker that runs (ran) it. */
  worker?: number;
  /** Index of the graph (one per builder success) it was found in. */
  graph: number;
}

/** A cross-SCC wait in progress: `worker` waits, before instance `instance`, for `on`. */
export interface SccWait {
  worker: number;
  instance: number;
  on: number;
}

export interface EpaxosGraph {
  instances: Instance[];
  sccs: Scc[];
  waits: SccWait[];
  /** The builder waits for a credit (PePaxos's semaphore). */
  builderBlocked: boolean;
  /** Instances executed so far. */
  executed: number;
}

/** Replay events `[0, upto)` of an epaxos or pepaxos run. */
export function epaxosGraph(events: readonly Ev[], upto = events.length): EpaxosGraph {
  const instances: Instance[] = [];
  const byFirst = new Map<number, number>();
  const sccs: Scc[] = [];
  const waits: SccWait[] = [];
  let delivered: number[] = [];
  let builderBlocked = false;
  let executed = 0;
  let graph = -1;
  let lastPosition = Number.POSITIVE_INFINITY;
  const instOfReq = (req: number) => byFirst.get(req);
  for (let i = 0; i < Math.min(upto, events.length); i++) {
    const e = events[i];
    switch (e.kind) {
      case K.Delivered:
        if (e.thread === SCHEDULER) delivered.push(e.a);
        break;
      case K.Commit: {
        const inst: Instance = { id: e.a, commands: delivered, seq: e.b, deps: [], state: 'committed' };
        delivered = [];
        instances[e.a] = inst;
        if (inst.commands.length > 0) byFirst.set(inst.commands[0], e.a);
        break;
      }
      case K.DepEdge: {
        if (e.thread !== SCHEDULER) break;
        const from = instOfReq(e.a);
        const inst = from === undefined ? undefined : instances[from];
        // The target may commit later: keep its first command until then.
        if (inst) inst.deps.push(e.b);
        break;
      }
      case K.CommitWait: {
        const inst = instances[e.a];
        if (inst) {
          inst.state = 'waiting-commit';
          inst.waitsForCommit = e.b;
        }
        break;
      }
      case K.GroupFound:
        // Positions restart at 0 with each new graph.
        if (e.c <= lastPosition) graph++;
        lastPosition = e.c;
        sccs[e.a] = { group: e.a, position: e.c, members: [], state: 'found', graph };
        break;
      case K.GroupMember: {
        const id = instOfReq(e.b);
        const scc = sccs[e.a];
        if (id !== undefined && scc) {
          scc.members.push(id);
          instances[id].group = e.a;
          instances[id].state = 'taken';
          instances[id].waitsForCommit = undefined;
        }
        break;
      }
      case K.SccStart: {
        const scc = sccs[e.a];
        if (scc) {
          scc.state = 'running';
          scc.worker = e.thread;
          for (const m of scc.members) instances[m].state = 'running';
        }
        break;
      }
      case K.SccEnd: {
        const scc = sccs[e.a];
        if (scc) scc.state = 'done';
        break;
      }
      case K.ExecEnd: {
        // An instance is executed when its last command ends.
        const id = instanceOfCommand(instances, byFirst, e.a);
        if (id !== undefined) {
          const inst = instances[id];
          if (inst.commands[inst.commands.length - 1] === e.a) {
            inst.state = 'executed';
            executed++;
          }
        }
        break;
      }
      case K.WaitStart:
        if (e.extra === R.Scc) {
          const instance = instOfReq(e.a);
          const on = instOfReq(e.b);
          if (instance !== undefined && on !== undefined) waits.push({ worker: e.thread, instance, on });
        }
        if (e.extra === R.Semaphore) builderBlocked = true;
        break;
      case K.WaitEnd:
        if (e.extra === R.Scc) {
          const k = waits.findIndex((w) => w.worker === e.thread);
          if (k >= 0) waits.splice(k, 1);
        }
        if (e.extra === R.Semaphore) builderBlocked = false;
        break;
    }
  }
  // Dependencies were recorded by first command; name them by instance.
  for (const inst of instances) {
    if (inst) inst.deps = inst.deps.map((r) => byFirst.get(r) ?? -1).filter((d) => d >= 0);
  }
  return { instances: instances.filter(Boolean), sccs: sccs.filter(Boolean), waits, builderBlocked, executed };
}

/** The instance holding command `req`: commands are numbered in commit order, instance by instance. */
function instanceOfCommand(
  instances: readonly Instance[],
  byFirst: ReadonlyMap<number, number>,
  req: number,
): number | undefined {
  const direct = byFirst.get(req);
  if (direct !== undefined) return direct;
  // Binary search on first commands (instances are in commit order).
  let lo = 0;
  let hi = instances.length - 1;
  let found: number | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const first = instances[mid]?.commands[0];
    if (first === undefined) return undefined;
    if (first <= req) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

// ---------------------------------------------------------------------------
// Steps: pseudo-code line and one sentence per event

/** Which listing and line of the teaching page's pseudo-code an event is at. */
export interface Step {
  listing: 'scheduler' | 'worker' | 'commit' | 'executor' | 'builder';
  line: number;
  sentence: string;
}

const who = (thread: number) =>
  thread === SCHEDULER ? 'The scheduler' : thread >= AUX_BASE ? 'The graph builder' : `Worker ${thread}`;

/** The step of a late run's event (lines of `docs/teaching/late.md`). */
export function lateStep(e: Ev): Step | null {
  switch (e.kind) {
    case K.Delivered:
      return { listing: 'scheduler', line: 1, sentence: `Request r${e.a} is delivered.` };
    case K.WaitStart:
      if (e.extra === R.Lock)
        return {
          listing: e.thread === SCHEDULER ? 'scheduler' : 'worker',
          line: e.thread === SCHEDULER ? 2 : 2,
          sentence: `${who(e.thread)} queues for the graph's lock: someone else holds it.`,
        };
      if (e.extra === R.FullGraph)
        return {
          listing: 'scheduler',
          line: 3,
          sentence: `The graph is full: the scheduler waits for a worker to remove a request before inserting r${e.a}.`,
        };
      if (e.extra === R.EmptyQueue)
        return { listing: 'worker', line: 3, sentence: `${who(e.thread)} finds nothing ready and sleeps.` };
      return null;
    case K.DepEdge:
      return {
        listing: 'scheduler',
        line: 5,
        sentence: `Request r${e.a} conflicts with r${e.b}, still in the graph: it must wait for it.`,
      };
    case K.GraphInsert:
      return {
        listing: 'scheduler',
        line: 6,
        sentence:
          e.b === 0
            ? `Request r${e.a} enters the graph with no edge.`
            : `Request r${e.a} enters the graph waiting for ${e.b} request${e.b === 1 ? '' : 's'}.`,
      };
    case K.Ready:
      return e.thread === SCHEDULER
        ? { listing: 'scheduler', line: 7, sentence: `Request r${e.a} depends on nothing: it is ready.` }
        : { listing: 'worker', line: 8, sentence: `Request r${e.a} lost its last edge: it is ready.` };
    case K.Dequeued:
      return { listing: 'worker', line: 4, sentence: `${who(e.thread)} takes ready r${e.a} from the graph.` };
    case K.ExecStart:
      return { listing: 'worker', line: 6, sentence: `${who(e.thread)} executes r${e.a}, outside the lock.` };
    case K.ExecEnd:
      return {
        listing: 'worker',
        line: 6,
        sentence: `${who(e.thread)} has finished executing r${e.a}; next it locks the graph to remove it.`,
      };
    case K.GraphRemove:
      return { listing: 'worker', line: 8, sentence: `Request r${e.a} leaves the graph; its dependents lose an edge.` };
    default:
      return null;
  }
}

/** The step of an epaxos or pepaxos run's event (lines of `docs/teaching/{epaxos,pepaxos}.md`). */
export function epaxosStep(e: Ev, parallel: boolean): Step | null {
  const executor = parallel ? 'builder' : 'executor';
  switch (e.kind) {
    case K.Delivered:
      return e.thread === SCHEDULER
        ? {
            listing: 'commit',
            line: 1,
            sentence: `Command r${e.a} reaches the commit thread; its instance commits next.`,
          }
        : null;
    case K.Commit:
      return {
        listing: 'commit',
        line: 1,
        sentence: `Instance ${e.a} commits with seq ${e.b} and ${e.c} dependenc${e.c === 1 ? 'y' : 'ies'}.`,
      };
    case K.CommitWait:
      return {
        listing: executor,
        line: parallel ? 4 : 6,
        sentence: `Instance ${e.a}'s graph reaches instance ${e.b}, not committed yet: ${e.a} waits for that commit.`,
      };
    case K.GroupFound:
      return {
        listing: executor,
        line: parallel ? 6 : 7,
        sentence:
          e.b === 1
            ? `${sccName(e.a)}: one instance, number ${e.c + 1} in its graph's order (dependencies first).`
            : `${sccName(e.a)}: a cycle of ${e.b} instances (leaders collided), number ${e.c + 1} in its graph's order; seq orders them.`,
      };
    case K.WaitStart:
      if (e.extra === R.Semaphore)
        return {
          listing: 'builder',
          line: 7,
          sentence: 'Every credit is taken: the builder waits until a worker finishes an SCC.',
        };
      if (e.extra === R.Scc)
        return {
          listing: 'worker',
          line: 4,
          sentence: `${who(e.thread)} waits: its SCC depends on another SCC that has not finished (the instance of r${e.b}).`,
        };
      return null;
    case K.SccStart:
      return parallel
        ? {
            listing: 'worker',
            line: 2,
            sentence: `${who(e.thread)} takes ${sccName(e.a)} (${e.b} instance${e.b === 1 ? '' : 's'}).`,
          }
        : { listing: 'executor', line: 7, sentence: `The executor runs ${sccName(e.a)}.` };
    case K.ExecStart:
      return {
        listing: parallel ? 'worker' : 'executor',
        line: parallel ? 6 : 9,
        sentence: `${who(e.thread)} executes r${e.a}.`,
      };
    case K.ExecEnd:
      return {
        listing: parallel ? 'worker' : 'executor',
        line: parallel ? 7 : 10,
        sentence: `${who(e.thread)} has finished executing r${e.a}: its instance's command is executed.`,
      };
    case K.SccEnd:
      return parallel
        ? { listing: 'worker', line: 8, sentence: `${sccName(e.a)} is finished; its credit goes back.` }
        : { listing: 'executor', line: 10, sentence: `${sccName(e.a)} is executed.` };
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------
// From a packed trace, and layered layouts (no layout library: the graphs a
// classroom run shows are small, and the layers are what the lesson is about)

const unpacked = new WeakMap<PackedTrace, Ev[]>();

/** The events of a packed trace as `Ev`s (once per trace). */
export function eventsOf(trace: PackedTrace): Ev[] {
  let out = unpacked.get(trace);
  if (!out) {
    out = [];
    for (let i = 0; i < trace.length; i++) {
      out.push({
        thread: trace.thread(i),
        kind: trace.kind(i),
        extra: trace.extra(i),
        a: trace.a(i),
        b: trace.b(i),
        c: trace.c(i),
      });
    }
    unpacked.set(trace, out);
  }
  return out;
}

/**
 * Layer of every SCC: 0 for an SCC that depends on no other SCC, else one
 * more than the deepest SCC it depends on (its dependencies are drawn to
 * its left: they run first). Instances not in an SCC yet are not placed.
 */
export function sccLayers(g: EpaxosGraph): Map<number, number> {
  const groupOf = new Map<number, number>();
  for (const inst of g.instances) if (inst.group !== undefined) groupOf.set(inst.id, inst.group);
  const depsOf = new Map<number, Set<number>>();
  for (const s of g.sccs) depsOf.set(s.group, new Set());
  for (const inst of g.instances) {
    if (inst.group === undefined) continue;
    for (const d of inst.deps) {
      const dg = groupOf.get(d);
      if (dg !== undefined && dg !== inst.group) depsOf.get(inst.group)?.add(dg);
    }
  }
  const layer = new Map<number, number>();
  // SCCs are found dependencies first (reverse topological order), so one
  // pass in group order sees every dependency's layer before its dependents.
  for (const s of [...g.sccs].sort((x, y) => x.group - y.group)) {
    let l = 0;
    for (const d of depsOf.get(s.group) ?? []) l = Math.max(l, (layer.get(d) ?? 0) + 1);
    layer.set(s.group, l);
  }
  return layer;
}

/** Cross-SCC dependency edges `[from instance, to instance]` (the waits the rule asks for). */
export function crossSccEdges(g: EpaxosGraph): [number, number][] {
  const groupOf = new Map<number, number>();
  for (const inst of g.instances) if (inst.group !== undefined) groupOf.set(inst.id, inst.group);
  const out: [number, number][] = [];
  for (const inst of g.instances) {
    for (const d of inst.deps) {
      const a = groupOf.get(inst.id);
      const b = groupOf.get(d);
      if (a !== undefined && b !== undefined && a !== b) out.push([inst.id, d]);
    }
  }
  return out;
}

/** Layer of every request in a late graph: 0 = waits for nothing, else one more than the deepest it waits for. */
export function lateLayers(g: LateGraph): Map<number, number> {
  const layer = new Map<number, number>();
  // Edges point to earlier requests, and nodes are in insertion order.
  for (const n of g.nodes) {
    let l = 0;
    for (const d of n.waitsFor) l = Math.max(l, (layer.get(d) ?? 0) + 1);
    layer.set(n.req, l);
  }
  return layer;
}
