/**
 * One state, one story: at random positions of synthetic and engine traces,
 * every view says the same thing about every thread, and what it says is
 * true of the replay state.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Track } from '../replay/store';
import { encode, KIND, make, NO_REQUEST, SCHEDULER, type KindName } from '../trace/codec';
import { loadTraceHere } from '../trace/load';
import type { ReplayModel } from '../trace/model';
import type { ReplayState } from '../trace/state';
import { rng, synthesizeSmall } from '../trace/synth';
import { shardedClasses } from '../engine/classes';
import { classNames as namesOf, inferMapping } from './classes';
import { REASON } from '../trace/codec';
import { profileOf } from './families';
import GraphsView from './late-epaxos/GraphsView';
import type { ViewProps } from './registry';
import { deliveryTotal, groupCard, statusContext, threadStatuses, type ThreadStatus } from './status';
import { SyncView } from './sync/SyncView';
import { ThreadsView } from './threads/ThreadsView';

function trackOf(model: ReplayModel, scheduler: string, shards: number): Track {
  const classNames = namesOf(shardedClasses(shards), model.index.classes);
  return { key: scheduler, label: scheduler, scheduler, model, classNames, mapping: inferMapping(model, classNames) };
}

/** `attr="value"` pairs of every element with `data-thread` inside the markup of `testid`. */
function threadsIn(html: string, testid: string): Map<number, { activity: string; req: string }> {
  const start = html.indexOf(`data-testid="${testid}"`);
  expect(start, `${testid} rendered`).toBeGreaterThanOrEqual(0);
  const end = html.indexOf('</ul>', start);
  const out = new Map<number, { activity: string; req: string }>();
  for (const m of html.slice(start, end).matchAll(/data-thread="(\d+)" data-activity="([\w-]+)" data-req="(-?\d+)"/g)) {
    out.set(Number(m[1]), { activity: m[2], req: m[3] });
  }
  return out;
}

/** Roles of every member of every synchronization card. */
function cardRoles(html: string): { thread: number; activity: string; req: string }[] {
  const out: { thread: number; activity: string; req: string }[] = [];
  const re = /data-thread="(\d+)" data-role="[^"]*" data-activity="([\w-]+)" data-status-req="(-?\d+)"/g;
  for (const m of html.matchAll(re)) out.push({ thread: Number(m[1]), activity: m[2], req: m[3] });
  return out;
}

/** What a status claims must be true of the replay state. */
function checkTruth(s: ReplayState, st: ThreadStatus, where: string): void {
  const lane = s.lanes[st.thread];
  const msg = `${where} T${st.thread}: "${st.text}"`;
  if (st.activity === 'idle') {
    expect(lane.queue.length, msg).toBe(0);
    expect(lane.exec, msg).toBe(-1);
    expect(lane.stealVictim, msg).toBe(-1);
  }
  if (st.activity === 'executing') expect(st.req, msg).toBe(lane.exec);
  if (lane.exec >= 0) expect(st.activity, msg).toBe('executing');
  if (lane.stealVictim >= 0) expect(['stealing', 'executing'], msg).toContain(st.activity);
  if (st.activity === 'spinning' || (st.activity === 'sync' && lane.waitReason >= 0)) {
    expect(st.req, msg).toBe(lane.waitReq);
  }
  if (st.queue > 0) expect(st.activity, msg).not.toBe('idle');
  // Late and ePaxos families: the graph lock, cross-SCC waits, a worker inside an SCC.
  if (lane.waitReason === REASON.Lock) expect(st.activity, msg).toBe('lock');
  if (lane.waitReason === REASON.Scc) expect(st.activity, msg).toBe('dependency');
  if (lane.scc >= 0) expect(st.activity, msg).not.toBe('idle');
}

/** Render the lanes and the synchronization view at position `p` and compare them. */
function checkAt(track: Track, p: number, where: string): void {
  const s = track.model.stateAt(p);
  const ctx = statusContext(track);
  const statuses = threadStatuses(s, ctx);
  for (const st of statuses) checkTruth(s, st, `${where} @${p}`);
  const props: ViewProps = {
    tracks: [track],
    positions: [p],
    states: [s],
    statuses: [statuses],
    runs: [undefined],
    allRuns: [],
  };
  const lanes = threadsIn(renderToStaticMarkup(createElement(ThreadsView, props)), 'lane-status');
  const syncHtml = renderToStaticMarkup(createElement(SyncView, props));
  const list = threadsIn(syncHtml, 'thread-list');
  expect(lanes.size, `${where} @${p}: a lane per thread`).toBe(s.lanes.length);
  expect(list, `${where} @${p}: lanes and thread list agree`).toEqual(lanes);
  // The late and ePaxos families' Dependency graph view lists the same statuses.
  const family = profileOf(track.scheduler).family;
  if (family === 'late' || family === 'epaxos') {
    const graph = threadsIn(renderToStaticMarkup(createElement(GraphsView, props)), 'thread-list');
    expect(graph, `${where} @${p}: lanes and the graph view agree`).toEqual(lanes);
  }
  for (const r of cardRoles(syncHtml)) {
    const l = lanes.get(r.thread);
    if (!l) continue; // a member the trace never mentioned
    expect({ activity: r.activity, req: r.req }, `${where} @${p}: card member T${r.thread} agrees`).toEqual(l);
  }
  // A card's headline agrees with its members' statuses.
  for (const g of s.syncs) {
    const card = groupCard(g, statuses, ctx, track.mapping[g.cls]?.threads);
    if (card.phase === 'executing') {
      expect(statuses[card.executor]?.activity, `${where} @${p}: ${card.headline}`).toBe('executing');
      expect(statuses[card.executor]?.req).toBe(g.req);
    }
    if (card.phase === 'gathering') {
      for (const r of card.roles) expect(r.role, `${where} @${p}: nobody executes r${g.req} yet`).not.toBe('executes');
    }
  }
}

function randomPositions(model: ReplayModel, seed: number, n: number): number[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => Math.floor(r() * (model.length + 1)));
}

describe('thread status agrees across views (synthetic traces)', () => {
  for (const mode of ['early', 'busy-wait', 'ws'] as const) {
    it(`${mode}: random positions`, () => {
      const synth = synthesizeSmall({
        requests: 400,
        mode,
        seed: 7,
        execTicks: 3,
        skew: mode === 'ws' ? 0.8 : undefined,
      });
      const scheduler = mode === 'ws' ? 'ws-conservative' : mode;
      const track = trackOf(loadTraceHere(synth.buffer), scheduler, 2);
      for (const p of randomPositions(track.model, 11, 80)) checkAt(track, p, `synthetic ${mode}`);
    }, 60_000);
  }
});

/**
 * Engine traces recorded in the browser by the e2e test
 * (`PSMR_SAVE_TRACES=1`, see fixtures/README.md), gzipped and base64'd:
 * `<scheduler>.<scenario>.s<shards>.trace.b64`.
 */
const FIXTURES = import.meta.glob<string>('../trace/fixtures/*.trace.b64', {
  query: '?raw',
  import: 'default',
  eager: true,
});

function fixtures(): { scheduler: string; file: string; shards: number; text: string }[] {
  return Object.entries(FIXTURES).map(([path, text]) => {
    const file = path.split('/').pop() ?? path;
    const [scheduler, , shards] = file.split('.');
    return { scheduler, file, shards: Number(shards.replace('s', '')), text };
  });
}

async function gunzipBase64(text: string): Promise<ArrayBuffer> {
  const bin = Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bin]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).arrayBuffer();
}

describe('thread status agrees across views (engine traces)', () => {
  it('has engine traces of every classroom mechanism', () => {
    const schedulers = new Set(fixtures().map((f) => f.scheduler));
    for (const s of ['early', 'busy-wait', 'ws-conservative', 'ws-aggressive', 'late', 'epaxos', 'pepaxos']) {
      expect(schedulers).toContain(s);
    }
  });

  for (const f of fixtures()) {
    it(`${f.file}: random positions`, async () => {
      const buf = await gunzipBase64(f.text);
      const track = trackOf(loadTraceHere(buf), f.scheduler, f.shards);
      expect(track.model.length).toBeGreaterThan(100);
      for (const p of randomPositions(track.model, 5, 120)) checkAt(track, p, f.file);
    }, 60_000);
  }
});

/**
 * Event-coloring runs: a color steal moves the victim's queued events of
 * that color to the stealer, which is `stealing` until it runs them; the
 * steal counts for the jumps; every view agrees at every position.
 */
describe('thread status of a color steal', () => {
  const ev = (k: KindName, f: Record<string, number>, t: number, th: number) => make(k, f, t, th);
  const buf = encode([
    ev('Registered', { parent: NO_REQUEST, child: 0, color: 5, core: 0 }, 1, SCHEDULER),
    ev('Registered', { parent: NO_REQUEST, child: 1, color: 7, core: 0 }, 2, SCHEDULER),
    ev('Registered', { parent: NO_REQUEST, child: 2, color: 5, core: 0 }, 3, SCHEDULER),
    ev('Dequeued', { req: 1 }, 4, 0),
    ev('ExecStart', { req: 1 }, 5, 0),
    ev('StealTry', { victim: 0, queued: 2 }, 6, 1),
    ev('ColorSteal', { victim: 0, color: 5, count: 2 }, 7, 1),
    ev('StealCost', { victim: 0, steal_ns: 500, left_ns: 900 }, 8, 1),
    ev('Dequeued', { req: 0 }, 9, 1),
    ev('ExecStart', { req: 0 }, 10, 1),
    ev('ExecEnd', { req: 0 }, 11, 1),
    ev('ExecEnd', { req: 1 }, 12, 0),
    ev('Dequeued', { req: 2 }, 13, 1),
    ev('ExecStart', { req: 2 }, 14, 1),
    ev('ExecEnd', { req: 2 }, 15, 1),
  ]);
  const track = trackOf(loadTraceHere(buf), 'mely', 1);

  it('moves the whole color and says who steals from whom', () => {
    expect(Array.from(track.model.index.steals)).toEqual([6]);
    const s = track.model.stateAt(7);
    expect(s.lanes[0].queue).toEqual([]);
    expect(s.lanes[1].queue).toEqual([0, 2]);
    const st = threadStatuses(s, statusContext(track));
    expect(st[1]).toMatchObject({ activity: 'stealing', victim: 0, queue: 2 });
    expect(st[1].text).toBe('stole 2 from T0');
    const mid = threadStatuses(track.model.stateAt(10), statusContext(track));
    expect(mid[1]).toMatchObject({ activity: 'executing', req: 0 });
    expect(mid[1].text).toContain('stolen from T0');
    const end = track.model.stateAt(track.model.length);
    expect(end.lanes[1].stealVictim).toBe(-1);
    expect(threadStatuses(end, statusContext(track)).map((x) => x.activity)).toEqual(['idle', 'idle']);
  });

  it('agrees across views at every position', () => {
    for (let p = 0; p <= track.model.length; p++) checkAt(track, p, 'color steal');
  });
});

describe('the scheduler line counts deliveries', () => {
  const counts = (delivered: number, registered: number) => {
    const c = new Uint32Array(KIND.Registered + 1);
    c[KIND.Delivered] = delivered;
    c[KIND.Registered] = registered;
    return c;
  };
  it('of a request stream: 1 + the largest request id (a cut trace keeps the total)', () => {
    expect(deliveryTotal({ requests: 400, kindCounts: counts(120, 0) })).toBe(400);
  });
  it('of an event stream: its roots, not the largest event id', () => {
    // 1,000 roots among 20,020 events: the last root's id is near the end.
    expect(deliveryTotal({ requests: 19_021, kindCounts: counts(1_000, 20_020) })).toBe(1_000);
  });
});
