import { describe, expect, it } from 'vitest';
import { decode, encode, make } from '../../trace/codec';
import { AUX_BASE, KIND as K, REASON as R, SCHEDULER } from '../../trace/codec';
import { crossSccEdges, epaxosGraph, lateGraph, lateLayers, sccLayers, eventsOf, type Ev } from './model';
import { epaxosStep, lateStep } from './steps';
import { ev, lateTwoRequests } from './testEvents';

const fixtures = import.meta.glob('./fixtures/*.json', { eager: true, import: 'default' }) as Record<string, Ev[]>;
const fixture = (name: string) => fixtures[`./fixtures/${name}.json`];

describe('late graph', () => {
  // #0 and #1 write shard 1; #1 waits for #0. The graph holds two requests.
  const events = lateTwoRequests;

  it('follows inserts, edges, ready, take and removal', () => {
    const g = lateGraph(events, 8);
    expect(g.nodes.map((n) => [n.req, n.state])).toEqual([
      [0, 'ready'],
      [1, 'waiting'],
    ]);
    expect(g.edges).toEqual([[1, 0]]);
    expect([g.size, g.bound]).toEqual([2, 2]);
    const h = lateGraph(events, 12);
    expect(h.schedulerBlocked).toBe(true);
    expect(h.lockQueue).toEqual([1]);
    expect(h.nodes[0]).toMatchObject({ req: 0, state: 'running', worker: 0 });
    const end = lateGraph(events);
    expect(end.nodes.map((n) => [n.req, n.state])).toEqual([[1, 'ready']]);
    expect(end.edges).toEqual([]);
    expect([end.schedulerBlocked, end.lockQueue.length, end.inserted, end.removed]).toEqual([false, 0, 2, 1]);
  });

  it('says each step on its pseudo-code line', () => {
    expect(lateStep(events[5])).toMatchObject({ listing: 'scheduler', line: 5 });
    expect(lateStep(events[10])?.sentence).toContain('graph is full');
    expect(lateStep(events[11])?.sentence).toContain("graph's lock");
    expect(lateStep(events[14])).toMatchObject({ listing: 'worker', line: 8 });
  });

  it('replays an engine trace to an empty graph, never over its bound', () => {
    const events = fixture('late-small');
    expect(events.length).toBeGreaterThan(100);
    for (let p = 0; p <= events.length; p += 7) {
      const g = lateGraph(events, p);
      expect(g.nodes.length).toBeLessThanOrEqual(4);
      // An edge always points to an earlier request still in the graph.
      for (const [from, to] of g.edges) {
        expect(to).toBeLessThan(from);
        expect(g.nodes.some((n) => n.req === to)).toBe(true);
      }
    }
    const end = lateGraph(events);
    expect([end.nodes.length, end.inserted, end.removed, end.bound]).toEqual([0, 40, 40, 4]);
  });
});

/** Fig. 1's SCCs as the engine finds them (see `epaxos/tests.rs`). */
const FIG1 = [
  [0, [6, 5]],
  [0, [7]],
  [0, [10, 9]],
  [1, [8]],
  [2, [3, 4, 2]],
  [3, [1, 0]],
];

describe('ePaxos graph', () => {
  it('rebuilds Fig. 1 from an epaxos trace: instances, SCC boxes, positions, graphs', () => {
    const g = epaxosGraph(fixture('fig1-epaxos'));
    expect(g.instances.map((i) => i.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(g.instances[0]).toMatchObject({ seq: 9, deps: [1, 2], commands: [0] });
    expect(g.sccs.map((s) => [s.position, s.members])).toEqual(FIG1);
    // C, D, then one graph (from instance 0) holding F, E, B, A.
    expect(g.sccs.map((s) => s.graph)).toEqual([0, 1, 2, 2, 2, 2]);
    expect(g.sccs.every((s) => s.state === 'done' && s.worker === 0)).toBe(true);
    expect(g.executed).toBe(11);
    expect(g.instances.every((i) => i.state === 'executed')).toBe(true);
  });

  it('shows an instance waiting for a commit, then taken', () => {
    const events = fixture('fig1-epaxos');
    const firstWait = events.findIndex((e) => e.kind === K.CommitWait);
    const g = epaxosGraph(events, firstWait + 1);
    expect(g.instances[0]).toMatchObject({ state: 'waiting-commit', waitsForCommit: 1 });
    expect(epaxosStep(events[firstWait], false)).toMatchObject({ listing: 'executor', line: 6 });
  });

  it('rebuilds the same SCCs from a pepaxos trace, each run by one worker, dependencies first', () => {
    const events = fixture('fig1-pepaxos');
    const g = epaxosGraph(events);
    expect(g.sccs.map((s) => [s.position, s.members])).toEqual(FIG1);
    expect(g.sccs.every((s) => s.worker === 0 || s.worker === 1)).toBe(true);
    // A worker may take an SCC before the SCCs it depends on ended (it then
    // waits, a cross-SCC wait), but it executes no instance before they ended.
    const execStart = new Map<number, number>();
    const end = new Map<number, number>();
    events.forEach((e, i) => {
      if (e.kind === K.ExecStart && !execStart.has(e.a)) execStart.set(e.a, i);
      if (e.kind === K.SccEnd) end.set(e.a, i);
    });
    let checked = 0;
    for (const inst of g.instances) {
      for (const d of inst.deps) {
        const [gi, gd] = [inst.group as number, g.instances[d].group as number];
        if (gi !== gd) {
          expect(end.get(gd)).toBeLessThan(execStart.get(inst.commands[0]) as number);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
    expect(epaxosStep(events.find((e) => e.kind === K.SccStart) as Ev, true)).toMatchObject({
      listing: 'worker',
      line: 2,
    });
  });

  it('tracks cross-SCC waits and the builder blocked on credit', () => {
    const builder = AUX_BASE;
    const events: Ev[] = [
      ev(SCHEDULER, K.Delivered, 0),
      ev(SCHEDULER, K.Commit, 0, 1, 0),
      ev(SCHEDULER, K.Delivered, 1),
      ev(SCHEDULER, K.Commit, 1, 2, 1),
      ev(SCHEDULER, K.DepEdge, 1, 0),
      ev(SCHEDULER, K.Delivered, 2),
      ev(SCHEDULER, K.Delivered, 3),
      ev(SCHEDULER, K.Commit, 2, 1, 0),
      ev(builder, K.GroupFound, 0, 1, 0),
      ev(builder, K.GroupMember, 0, 0),
      ev(0, K.SccStart, 0, 1),
      ev(builder, K.GroupFound, 1, 1, 0),
      ev(builder, K.GroupMember, 1, 1),
      ev(1, K.SccStart, 1, 1),
      ev(1, K.WaitStart, 1, 0, 0, R.Scc),
      ev(builder, K.GroupFound, 2, 2, 0),
      ev(builder, K.GroupMember, 2, 2),
      ev(builder, K.WaitStart, 2, 0, 0, R.Semaphore),
    ];
    const g = epaxosGraph(events);
    expect(g.waits).toEqual([{ worker: 1, instance: 1, on: 0 }]);
    expect(g.builderBlocked).toBe(true);
    expect(g.instances[1].deps).toEqual([0]);
    expect(epaxosStep(events[14], true)?.sentence).toContain('waits');
    expect(epaxosStep(events[17], true)).toMatchObject({ listing: 'builder', line: 7 });
  });
});

describe('layers and packed traces', () => {
  it('puts every SCC right of the SCCs it depends on, and layer 0 depends on none', () => {
    const events = fixture('fig1-pepaxos');
    for (let p = 0; p <= events.length; p += 5) {
      const g = epaxosGraph(events, p);
      const layers = sccLayers(g);
      const groupOf = new Map(g.instances.map((i) => [i.id, i.group]));
      const cross = crossSccEdges(g);
      for (const [from, to] of cross) {
        const [a, b] = [groupOf.get(from) as number, groupOf.get(to) as number];
        expect(a).not.toBe(b);
        expect(layers.get(a) as number).toBeGreaterThan(layers.get(b) as number);
      }
      for (const s of g.sccs) {
        if (layers.get(s.group) === 0) expect(cross.some(([f]) => groupOf.get(f) === s.group)).toBe(false);
      }
    }
    // At the end, Fig. 1's last graph (F, E, B, A) is a chain of four layers.
    const end = sccLayers(epaxosGraph(events));
    const last = epaxosGraph(events)
      .sccs.filter((s) => s.graph === 2)
      .map((s) => end.get(s.group));
    expect(new Set(last).size).toBeGreaterThan(1);
  });

  it('layers a late graph by its longest chain of waits', () => {
    const events = fixture('late-small');
    let deepest = 0;
    for (let p = 0; p <= events.length; p++) {
      const g = lateGraph(events, p);
      const layers = lateLayers(g);
      for (const [from, to] of g.edges) expect(layers.get(from) as number).toBeGreaterThan(layers.get(to) as number);
      deepest = Math.max(deepest, ...layers.values());
    }
    expect(deepest).toBeGreaterThan(0);
  });

  it('reads a packed trace built with the codec', () => {
    const made = [
      make('Delivered', { req: 0, class: 0 }, 1, SCHEDULER),
      make('Commit', { instance: 0, seq: 3, deps: 0 }, 2, SCHEDULER),
      make('GroupFound', { group: 0, size: 1, position: 0 }, 3, SCHEDULER),
      make('GroupMember', { group: 0, req: 0 }, 4, SCHEDULER),
      make('SccStart', { group: 0, size: 1 }, 5, 2),
    ];
    const trace = decode(encode(made));
    const events = eventsOf(trace);
    expect(eventsOf(trace)).toBe(events);
    const g = epaxosGraph(events, 4);
    expect(g.sccs).toEqual([{ group: 0, position: 0, members: [0], state: 'found', graph: 0 }]);
    expect(epaxosGraph(events).sccs[0]).toMatchObject({ state: 'running', worker: 2 });
    expect(epaxosGraph(events).instances[0]).toMatchObject({ seq: 3, state: 'running', group: 0 });
  });
});
