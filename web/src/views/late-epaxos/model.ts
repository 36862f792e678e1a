/**
 * The data model of the late-scheduling and ePaxos classroom views: pure
 * functions from a run's trace events to what the views draw at a replay
 * position (the pseudo-code line and sentence of each step are in
 * `steps.ts`). No React, no engine: all of it is
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

import { REASON as R, SCHEDULER, type PackedTrace, type TraceEvent } from '../../trace/codec';
import { onEvent } from '../../trace/dispatch';

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

/** The late graph being replayed. */
interface LateReading {
  nodes: Map<number, LateNode>;
  bound: number;
  size: number;
  schedulerBlocked: boolean;
  lock: number[];
  idle: Set<number>;
  inserted: number;
  removed: number;
  /** Edges of the next inserted request (recorded just before its insert). */
  pendingEdges: number[];
}

/** What each kind does to a late run's graph; other kinds change nothing. */
const LATE_GRAPH = onEvent<Ev, LateReading, void>(
  {
    DepEdge: (e, g) => {
      // The scheduler records the edges of a request just before its
      // GraphInsert.
      g.pendingEdges.push(e.b);
    },
    GraphInsert: (e, g) => {
      g.nodes.set(e.a, { req: e.a, state: 'waiting', waitsFor: g.pendingEdges.splice(0) });
      g.inserted++;
    },
    Ready: (e, g) => {
      const n = g.nodes.get(e.a);
      if (n) {
        n.state = 'ready';
        n.waitsFor = [];
      }
    },
    Dequeued: (e, g) => {
      const n = g.nodes.get(e.a);
      if (n) {
        n.state = 'running';
        n.worker = e.thread;
      }
    },
    ExecEnd: (e, g) => {
      const n = g.nodes.get(e.a);
      if (n) n.state = 'done';
    },
    GraphRemove: (e, g) => {
      g.nodes.delete(e.a);
      for (const n of g.nodes.values()) n.waitsFor = n.waitsFor.filter((r) => r !== e.a);
      g.removed++;
    },
    GraphSize: (e, g) => {
      g.size = e.a;
      g.bound = e.b;
    },
    WaitStart: (e, g) => {
      if (e.extra === R.FullGraph) g.schedulerBlocked = true;
      if (e.extra === R.Lock && !g.lock.includes(e.thread)) g.lock.push(e.thread);
      if (e.extra === R.EmptyQueue) g.idle.add(e.thread);
    },
    WaitEnd: (e, g) => {
      if (e.extra === R.FullGraph) g.schedulerBlocked = false;
      if (e.extra === R.Lock) {
        const at = g.lock.indexOf(e.thread);
        if (at >= 0) g.lock.splice(at, 1);
      }
      if (e.extra === R.EmptyQueue) g.idle.delete(e.thread);
    },
  },
  () => undefined,
);

/** Replay events `[0, upto)` of a late run into its graph. */
export function lateGraph(events: readonly Ev[], upto = events.length): LateGraph {
  const g: LateReading = {
    nodes: new Map(),
    bound: 0,
    size: 0,
    schedulerBlocked: false,
    lock: [],
    idle: new Set(),
    inserted: 0,
    removed: 0,
    pendingEdges: [],
  };
  for (let i = 0; i < Math.min(upto, events.length); i++) LATE_GRAPH(events[i], g);
  const list = [...g.nodes.values()];
  return {
    nodes: list,
    edges: list.flatMap((n) => n.waitsFor.map((to) => [n.req, to] as [number, number])),
    // The nodes drawn, not the last GraphSize sample (recorded after the
    // insert or removal it follows, so it can lag one event behind).
    size: g.inserted > 0 ? g.nodes.size : g.size,
    bound: g.bound,
    schedulerBlocked: g.schedulerBlocked,
    lockQueue: g.lock,
    idle: [...g.idle].sort((a, b) => a - b),
    inserted: g.inserted,
    removed: g.removed,
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

/** The ePaxos graph being replayed. */
interface EpaxosReading {
  instances: Instance[];
  /** Instance of each first command. */
  byFirst: Map<number, number>;
  sccs: Scc[];
  waits: SccWait[];
  /** Commands delivered since the last commit (the next instance's). */
  delivered: number[];
  builderBlocked: boolean;
  executed: number;
  /** Index of the current graph, and the position of the last SCC found in it. */
  graph: number;
  lastPosition: number;
}

/** What each kind does to an ePaxos run's graph; other kinds change nothing. */
const EPAXOS_GRAPH = onEvent<Ev, EpaxosReading, void>(
  {
    Delivered: (e, g) => {
      if (e.thread === SCHEDULER) g.delivered.push(e.a);
    },
    Commit: (e, g) => {
      const inst: Instance = { id: e.a, commands: g.delivered, seq: e.b, deps: [], state: 'committed' };
      g.delivered = [];
      g.instances[e.a] = inst;
      if (inst.commands.length > 0) g.byFirst.set(inst.commands[0], e.a);
    },
    DepEdge: (e, g) => {
      if (e.thread !== SCHEDULER) return;
      const from = g.byFirst.get(e.a);
      const inst = from === undefined ? undefined : g.instances[from];
      // The target may commit later: keep its first command until then.
      if (inst) inst.deps.push(e.b);
    },
    CommitWait: (e, g) => {
      const inst = g.instances[e.a];
      if (inst) {
        inst.state = 'waiting-commit';
        inst.waitsForCommit = e.b;
      }
    },
    GroupFound: (e, g) => {
      // Positions restart at 0 with each new graph.
      if (e.c <= g.lastPosition) g.graph++;
      g.lastPosition = e.c;
      g.sccs[e.a] = { group: e.a, position: e.c, members: [], state: 'found', graph: g.graph };
    },
    GroupMember: (e, g) => {
      const id = g.byFirst.get(e.b);
      const scc = g.sccs[e.a];
      if (id !== undefined && scc) {
        scc.members.push(id);
        g.instances[id].group = e.a;
        g.instances[id].state = 'taken';
        g.instances[id].waitsForCommit = undefined;
      }
    },
    SccStart: (e, g) => {
      const scc = g.sccs[e.a];
      if (scc) {
        scc.state = 'running';
        scc.worker = e.thread;
        for (const m of scc.members) g.instances[m].state = 'running';
      }
    },
    SccEnd: (e, g) => {
      const scc = g.sccs[e.a];
      if (scc) scc.state = 'done';
    },
    ExecEnd: (e, g) => {
      // An instance is executed when its last command ends.
      const id = instanceOfCommand(g.instances, g.byFirst, e.a);
      if (id !== undefined) {
        const inst = g.instances[id];
        if (inst.commands[inst.commands.length - 1] === e.a) {
          inst.state = 'executed';
          g.executed++;
        }
      }
    },
    WaitStart: (e, g) => {
      if (e.extra === R.Scc) {
        const instance = g.byFirst.get(e.a);
        const on = g.byFirst.get(e.b);
        if (instance !== undefined && on !== undefined) g.waits.push({ worker: e.thread, instance, on });
      }
      if (e.extra === R.Semaphore) g.builderBlocked = true;
    },
    WaitEnd: (e, g) => {
      if (e.extra === R.Scc) {
        const k = g.waits.findIndex((w) => w.worker === e.thread);
        if (k >= 0) g.waits.splice(k, 1);
      }
      if (e.extra === R.Semaphore) g.builderBlocked = false;
    },
  },
  () => undefined,
);

/** Replay events `[0, upto)` of an epaxos or pepaxos run. */
export function epaxosGraph(events: readonly Ev[], upto = events.length): EpaxosGraph {
  const g: EpaxosReading = {
    instances: [],
    byFirst: new Map(),
    sccs: [],
    waits: [],
    delivered: [],
    builderBlocked: false,
    executed: 0,
    graph: -1,
    lastPosition: Number.POSITIVE_INFINITY,
  };
  for (let i = 0; i < Math.min(upto, events.length); i++) EPAXOS_GRAPH(events[i], g);
  // Dependencies were recorded by first command; name them by instance.
  for (const inst of g.instances) {
    if (inst) inst.deps = inst.deps.map((r) => g.byFirst.get(r) ?? -1).filter((d) => d >= 0);
  }
  return {
    instances: g.instances.filter(Boolean),
    sccs: g.sccs.filter(Boolean),
    waits: g.waits,
    builderBlocked: g.builderBlocked,
    executed: g.executed,
  };
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
