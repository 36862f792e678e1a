/**
 * Family phrases of the thread status (late scheduling, ePaxos / PePaxos,
 * repartitioning), the same in the lanes and the Dependency graph view, and
 * one SCC numbering everywhere: the event line, the step sentence, the
 * status and the graph's boxes all say `SCC #k` for group k-1.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe as suite, expect, it } from 'vitest';
import { loadTraceHere } from '../trace/load';
import type { Track } from '../replay/store';
import { shardedClasses } from '../engine/classes';
import { classNames as namesOf, inferMapping } from './classes';
import { findBookmark } from './bookmarks';
import './families';
import GraphsView from './late-epaxos/GraphsView';
import {
  AUX_BASE,
  describe,
  encode,
  KIND,
  KIND as K,
  NO_REQUEST,
  REASON,
  REASON as R,
  SCHEDULER,
  sccName,
} from '../trace/codec';
import { epaxosGraph, lateGraph, type Ev } from './late-epaxos/model';
import { epaxosStep } from './late-epaxos/steps';
import { ev, lateTwoRequests } from './late-epaxos/testEvents';
import type { ViewProps } from './registry';
import { schedulerStatus, statusContext, threadStatuses, type ThreadStatus } from './status';
import { ThreadsView } from './threads/ThreadsView';

const fixtures = import.meta.glob('./late-epaxos/fixtures/*.json', { eager: true, import: 'default' }) as Record<
  string,
  Ev[]
>;
const fixture = (name: string) => fixtures[`./late-epaxos/fixtures/${name}.json`];

/** A replay track of hand-made or engine events (1 µs apart). */
function trackOf(events: readonly Ev[], scheduler: string): Track {
  const model = loadTraceHere(encode(events.map((e, i) => ({ ...e, t_ns: i * 1000 }))));
  const classNames = namesOf(shardedClasses(2), model.index.classes);
  return { key: scheduler, label: scheduler, scheduler, model, classNames, mapping: inferMapping(model, classNames) };
}

function statusesAt(track: Track, p: number): ThreadStatus[] {
  return threadStatuses(track.model.stateAt(p), statusContext(track));
}

function props(track: Track, p: number): ViewProps {
  const s = track.model.stateAt(p);
  return {
    tracks: [track],
    positions: [p],
    states: [s],
    statuses: [threadStatuses(s, statusContext(track))],
    runs: [undefined],
    allRuns: [],
  };
}

/** `data-thread` -> activity/req of the list `testid` (first one) in `html`. */
function listIn(html: string, testid: string): Map<number, string> {
  const start = html.indexOf(`data-testid="${testid}"`);
  expect(start, `${testid} rendered`).toBeGreaterThanOrEqual(0);
  const out = new Map<number, string>();
  const part = html.slice(start, html.indexOf('</ul>', start));
  for (const m of part.matchAll(/data-thread="(\d+)" data-activity="([\w-]+)" data-req="(-?\d+)"/g)) {
    out.set(Number(m[1]), `${m[2]} ${m[3]}`);
  }
  return out;
}

/** The lanes and the Dependency graph view list the same statuses at `p`. */
function expectViewsAgree(track: Track, p: number): void {
  const lanes = listIn(renderToStaticMarkup(createElement(ThreadsView, props(track, p))), 'lane-status');
  const graph = renderToStaticMarkup(createElement(GraphsView, props(track, p)));
  expect(listIn(graph, 'thread-list'), `@${p}`).toEqual(lanes);
  // Threads the drawing marks idle or waiting for an SCC are so in the lanes.
  for (const m of graph.matchAll(/data-testid="late-idle" data-threads="([\d,]*)"/g)) {
    for (const t of m[1].split(',').filter(Boolean)) expect(lanes.get(Number(t)), `@${p} T${t}`).toMatch(/^idle /);
  }
  for (const m of graph.matchAll(/data-testid="scc-wait" data-worker="(\d+)"/g)) {
    expect(lanes.get(Number(m[1])), `@${p} T${m[1]}`).toMatch(/^dependency /);
  }
}

suite('late scheduling statuses', () => {
  const events = lateTwoRequests;
  const track = trackOf(events, 'late');

  it('say the graph lock, the graph and the full graph in the family words', () => {
    expect(statusesAt(track, 9)[0]).toMatchObject({
      activity: 'next',
      req: 0,
      text: 'took r0 from the graph (it was ready)',
    });
    const atLock = statusesAt(track, 12);
    expect(atLock[1]).toMatchObject({ activity: 'lock', text: 'waiting for the graph lock', short: 'graph lock' });
    expect(statusesAt(track, 13)[0]).toMatchObject({
      activity: 'executing',
      text: 'executing r0, taken from the graph',
    });
    const s = track.model.stateAt(11);
    expect(schedulerStatus(s, statusContext(track), 3)).toContain('blocked: the graph is full (2 of 2 requests)');
    for (let p = 0; p <= events.length; p++) expectViewsAgree(track, p);
  });

  it('call a worker asleep in the graph idle, in the lanes and the graph view alike (engine trace)', () => {
    const real = trackOf(fixture('late-small'), 'late');
    let idle = 0;
    for (let p = 0; p <= real.model.length; p += 3) {
      for (const st of statusesAt(real, p)) {
        if (st.activity === 'idle') {
          expect(st.text).toBe('idle, asleep until a request is ready');
          idle++;
        }
        expect(st.text).not.toMatch(/\(full-graph\)|\(lock\)|queue\)/);
      }
      expectViewsAgree(real, p);
    }
    expect(idle).toBeGreaterThan(0);
  });
});

suite('ePaxos / PePaxos statuses', () => {
  const events = fixture('fig1-pepaxos');
  const track = trackOf(events, 'pepaxos');
  const g = epaxosGraph(events);
  const instOfFirst = (req: number) => g.instances.find((i) => i.commands[0] === req)!;

  it('name the SCC and the instance a cross-SCC wait waits for, as the graph numbers them', () => {
    const w = events.findIndex((e) => e.kind === K.WaitStart && e.extra === R.Scc);
    expect(w).toBeGreaterThan(0);
    const e = events[w];
    const mine = instOfFirst(e.a);
    const theirs = instOfFirst(e.b);
    const st = statusesAt(track, w + 1)[e.thread];
    expect(st.activity).toBe('dependency');
    expect(st.text).toBe(
      `waiting for ${sccName(mine.group!)}'s dependency on instance ${theirs.id} (${sccName(theirs.group!)}, not finished)`,
    );
    // The graph view draws the same wait, from the same worker.
    const html = renderToStaticMarkup(createElement(GraphsView, props(track, w + 1)));
    expect(html).toContain(`data-testid="scc-wait" data-worker="${e.thread}"`);
    expect(html).toContain(`data-order="${theirs.group! + 1}"`);
  });

  it('never call a worker inside an SCC idle, and agree with the graph view everywhere', () => {
    let inside = 0;
    for (let p = 0; p <= events.length; p++) {
      const s = track.model.stateAt(p);
      for (const st of threadStatuses(s, statusContext(track))) {
        const lane = s.lanes[st.thread];
        if (lane.scc >= 0) {
          inside++;
          expect(st.activity, `@${p} T${st.thread}: ${st.text}`).not.toBe('idle');
          if (st.activity === 'executing') expect(st.text).toContain(`of ${sccName(lane.scc)}`);
        }
      }
      expectViewsAgree(track, p);
    }
    expect(inside).toBeGreaterThan(0);
  });
});

suite('repartitioning statuses', () => {
  it('say the sync of a request and the map switch', () => {
    const events: Ev[] = [
      ev(SCHEDULER, K.Delivered, 5, 0),
      ev(SCHEDULER, 1 /* Enqueued */, 5, 0),
      ev(SCHEDULER, 1, 5, 1),
      ev(0, K.Dequeued, 5),
      ev(0, 33 /* PartSyncArrive */, 5, 2),
      ev(0, K.WaitStart, 5, NO_REQUEST, 0, REASON.Barrier),
      ev(1, K.WaitStart, NO_REQUEST, NO_REQUEST, 0, REASON.MapSwitch),
    ];
    expect(KIND.Enqueued).toBe(1);
    expect(KIND.PartSyncArrive).toBe(33);
    const track = trackOf(events, 'repart-async');
    const [t0, t1] = statusesAt(track, events.length);
    expect(t0).toMatchObject({ activity: 'sync', req: 5, text: 'waiting at the sync of r5' });
    expect(t1).toMatchObject({ activity: 'blocked', req: -1 });
    expect(t1.text).toMatch(/^waiting at the map switch/);
  });
});

suite('one SCC numbering', () => {
  it('the event line, the step sentence and the graph boxes all say SCC #k for group k-1', () => {
    const events = fixture('fig1-pepaxos');
    const track = trackOf(events, 'pepaxos');
    const names = (c: number) => `C${c}`;
    let named = 0;
    events.forEach((e, i) => {
      if (e.kind !== K.GroupFound && e.kind !== K.SccStart && e.kind !== K.SccEnd && e.kind !== K.GroupMember) return;
      const line = describe(track.model.trace.event(i), names);
      expect(line, line).toContain(sccName(e.a));
      expect(line, line).not.toMatch(/\bgroup \d|SCC \d/);
      if (e.kind !== K.GroupMember) expect(epaxosStep(e, true)?.sentence).toContain(sccName(e.a));
      named++;
    });
    expect(named).toBeGreaterThan(10);
    expect(sccName(0)).toBe('SCC #1');
    const html = renderToStaticMarkup(createElement(GraphsView, props(track, events.length)));
    const boxes = [...html.matchAll(/data-testid="scc-box" data-order="(\d+)"[^>]*>.*?<text[^>]*>(SCC #\d+)/g)];
    expect(boxes.length).toBe(epaxosGraph(events).sccs.length);
    for (const [, order, label] of boxes) expect(label).toBe(`SCC #${order}`);
  });
});

suite('bookmarks of the late, ePaxos and repartitioning lessons', () => {
  it('find the full graph and a request made ready by a worker in an engine late trace', () => {
    const track = trackOf(fixture('late-small'), 'late');
    const full = findBookmark(track, 'graph-full', 'graph', 'x')!;
    const t = track.model.trace;
    expect(t.kind(full.position - 1)).toBe(KIND.WaitStart);
    expect(t.extra(full.position - 1)).toBe(REASON.FullGraph);
    // The removal that made a request ready (the Ready is recorded inside it, just before).
    const ready = findBookmark(track, 'graph-ready', 'graph', 'x')!;
    const at = ready.position - 1;
    expect(t.kind(at)).toBe(KIND.GraphRemove);
    const made = [...Array(at).keys()].reverse().find((i) => t.kind(i) === KIND.Ready && t.thread(i) === t.thread(at));
    expect(made).toBeDefined();
    expect(t.thread(at)).not.toBe(SCHEDULER);
    const node = lateGraph(fixture('late-small'), ready.position).nodes.find((n) => n.req === t.a(made!));
    expect(node?.state).toBe('ready');
  });

  it('find the first SCC of several instances with its members, a cross-SCC wait and SCCs side by side', () => {
    const events = fixture('fig1-pepaxos');
    const track = trackOf(events, 'pepaxos');
    const cycle = findBookmark(track, 'scc-cycle', 'graph', 'x')!;
    const g = epaxosGraph(events, cycle.position);
    const big = g.sccs.find((s) => s.members.length > 1)!;
    expect(big).toBeDefined();
    const found = events.find((e) => e.kind === K.GroupFound && e.a === big.group)!;
    expect(big.members.length, 'every member recorded at the bookmark').toBe(found.b);
    const wait = findBookmark(track, 'scc-wait', 'graph', 'x')!;
    expect(events[wait.position - 1]).toMatchObject({ kind: K.WaitStart, extra: R.Scc });
    const side = findBookmark(track, 'scc-parallel', 'graph', 'x')!;
    const at = events[side.position - 1];
    expect(at.kind).toBe(K.SccStart);
    const running = epaxosGraph(events, side.position - 1).sccs.filter((s) => s.state === 'running');
    expect(running.some((s) => s.worker !== at.thread)).toBe(true);
    expect(at.thread).toBeLessThan(AUX_BASE);
  });

  it('find a map switch, a scheduler pause and a sync of several workers', () => {
    const events: Ev[] = [
      ev(SCHEDULER, 37 /* SchedulerPause */, 1),
      ev(0, 34 /* PartSyncRelease */, NO_REQUEST, 0),
      ev(0, 34, 7, 0),
      ev(SCHEDULER, 15 /* MapSwitch */, 1, 12),
    ];
    expect([KIND.SchedulerPause, KIND.PartSyncRelease, KIND.MapSwitch]).toEqual([37, 34, 15]);
    const track = trackOf(events, 'repart-base');
    expect(findBookmark(track, 'scheduler-pause', 'partitions', 'x')?.position).toBe(1);
    expect(findBookmark(track, 'part-sync', 'threads', 'x')?.position).toBe(3);
    expect(findBookmark(track, 'map-switch', 'partitions', 'x')?.position).toBe(4);
  });
});
