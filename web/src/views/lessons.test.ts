import { describe, expect, it } from 'vitest';
import { LESSONS } from '../lessons/lessons';
import { listScenarios } from '../store/scenarios';
import { KIND, REASON } from '../trace/codec';
import { loadTraceHere } from '../trace/load';
import { rng } from '../trace/synth';
import type { Track } from '../replay/store';
import { shardedClasses } from '../engine/classes';
import { classNames as namesOf, inferMapping } from './classes';
import { findBookmark, findBookmarkIn, knownFinder } from './bookmarks';
import { caption } from './narrate';
import { allViews } from './registry';
import { applyWhatIf, WHAT_IFS } from './whatif';
import './builtin';

const FIXTURES = import.meta.glob<string>('../trace/fixtures/*.trace.b64', {
  query: '?raw',
  import: 'default',
  eager: true,
});

async function fixture(name: string): Promise<Track> {
  const entry = Object.entries(FIXTURES).find(([p]) => p.endsWith(`/${name}`));
  if (!entry) throw new Error(`no fixture ${name}`);
  const bin = Uint8Array.from(atob(entry[1].trim()), (c) => c.charCodeAt(0));
  const buf = await new Response(new Blob([bin]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
  const model = loadTraceHere(buf);
  const scheduler = name.split('.')[0];
  const classNames = namesOf(shardedClasses(2), model.index.classes);
  return { key: name, label: scheduler, scheduler, model, classNames, mapping: inferMapping(model, classNames) };
}

describe('lessons', () => {
  it('name shipped scenarios, known views and known finders', () => {
    const files = new Set(listScenarios().map((s) => s.file));
    const views = new Set(allViews().map((v) => v.id));
    expect(LESSONS.length).toBeGreaterThanOrEqual(3);
    for (const l of LESSONS) {
      expect(files, l.id).toContain(l.scenario);
      expect(views, l.id).toContain(l.view);
      expect(l.mechanism.length, l.id).toBeGreaterThan(0);
      for (const b of l.bookmarks) {
        expect(views, `${l.id}: ${b.title}`).toContain(b.view);
        expect(knownFinder(b.finder), `${l.id}: finder ${b.finder}`).toBe(true);
      }
    }
  });

  it('name runs their scenario has (by label or scheduler id)', () => {
    const scenarios = new Map(listScenarios().map((s) => [s.file, s.text]));
    for (const l of LESSONS) {
      const sc = JSON.parse(scenarios.get(l.scenario) ?? '{}') as { schedulers?: { id: string; label?: string }[] };
      const names = new Set((sc.schedulers ?? []).flatMap((s) => [s.id, s.label ?? s.id]));
      const named = [
        ...l.runs,
        ...(l.compare ?? []),
        ...l.mechanism.map((m) => m.run),
        ...l.bookmarks.flatMap((b) => (b.run ? [b.run] : [])),
        ...(l.virtual?.outcome ?? []).flatMap((o) => [o.better, o.worse]),
      ];
      for (const r of named) expect(names, `${l.id}: run ${r}`).toContain(r);
    }
  });

  it('say nothing of papers by file number', () => {
    const text = JSON.stringify(LESSONS);
    expect(text).not.toMatch(/paper 0\d\d|(?<![\d,.])\b00[0-4]\b/);
  });
});

describe('bookmarks on engine traces', () => {
  it('find the first steal, marker wait and steal done of a stealing run', async () => {
    const t = await fixture('ws-conservative.ws-classroom.s2.trace.b64');
    const steal = findBookmark(t, 'steal', 'sync', 'steal')!;
    expect(steal).not.toBeNull();
    expect(t.model.trace.kind(steal.position - 1)).toBe(KIND.Steal);
    // And it is the first one.
    expect(t.model.index.steals[0]).toBe(steal.position - 1);
    const done = findBookmark(t, 'steal-done', 'sync', 'done')!;
    expect(t.model.trace.kind(done.position - 1)).toBe(KIND.StealDone);
    expect(done.position).toBeGreaterThan(steal.position);
  });

  it('find two threads meeting at a barrier in an early run', async () => {
    const t = await fixture('early.classroom-spin.s2.trace.b64');
    const b = findBookmark(t, 'barrier-gathered', 'sync', 'x')!;
    const e = t.model.trace.event(b.position - 1);
    expect(e.kind).toBe(KIND.ExecStart);
    const cls = t.model.index.reqClass[e.a];
    expect(t.mapping[cls].threads.length).toBeGreaterThanOrEqual(2);
    const state = t.model.stateAt(b.position);
    const g = state.syncs.find((x) => x.req === e.a)!;
    expect(g.arrived.length).toBe(t.mapping[cls].threads.length);
    const spin = findBookmark(t, 'cycle-spin', 'sync', 'x');
    expect(spin).toBeNull(); // early has barriers, not cycles
  });

  it('are looked up in the run they name, else in any ticked run (compare mode)', async () => {
    const early = await fixture('early.classroom-spin.s2.trace.b64');
    const busy = await fixture('busy-wait.classroom-spin.s2.trace.b64');
    // Early first, as the busy-wait lesson's compare ticks them: early never spins.
    const spin = { finder: 'cycle-spin', view: 'sync', title: 'spin' };
    expect(findBookmark(early, 'cycle-spin', 'sync', 'x')).toBeNull();
    const found = findBookmarkIn([early, busy], spin, ['busy-wait'])!;
    expect(found.track).toBe(1);
    expect(found.mark.position).toBe(findBookmark(busy, 'cycle-spin', 'sync', 'x')!.position);
    // No run named: any track that reached it.
    expect(findBookmarkIn([early, busy], spin)?.track).toBe(1);
    // A barrier both reached: the named run wins over the first track.
    const both = { finder: 'seq-dispatch', view: 'threads', title: 'd', run: 'busy-wait' };
    expect(findBookmarkIn([early, busy], both)?.track).toBe(1);
    expect(findBookmarkIn([early, busy], { ...both, run: undefined }, ['early'])?.track).toBe(0);
    expect(findBookmarkIn([early], spin)).toBeNull();
  });

  it('find a spinning thread in a busy-wait run', async () => {
    const t = await fixture('busy-wait.classroom-spin.s2.trace.b64');
    const b = findBookmark(t, 'cycle-spin', 'sync', 'x')!;
    const e = t.model.trace.event(b.position - 1);
    expect(e.kind).toBe(KIND.WaitStart);
    expect(e.extra).toBe(REASON.Cycle);
  });
});

describe('captions', () => {
  it('give one plain sentence at any position of engine traces', async () => {
    for (const name of Object.keys(FIXTURES).map((p) => p.split('/').pop()!)) {
      const t = await fixture(name);
      const r = rng(3);
      for (let k = 0; k < 120; k++) {
        const p = 1 + Math.floor(r() * t.model.length);
        const c = caption(t, p, t.model.stateAt(p));
        expect(c, `${name} @${p}`).not.toBeNull();
        expect(c!.text, `${name} @${p}`).toMatch(/^[A-Z].*[.)]$/);
        expect(c!.text, `${name} @${p}`).not.toMatch(/undefined|NaN|\[object/);
        expect(c!.start).toBeLessThan(p);
      }
    }
  });
});

/**
 * The characters a caption may hold: stacked runs at 1280x720 in the
 * presentation layout clamp each caption to four lines of about 40
 * characters (classroom.css), and a cut sentence loses the step's point
 * (libasync's steal sentence of 176 characters was cut; one of 157 fitted).
 */
const CAPTION_CHARS = 150;

/** Positions of `t` to caption: up to `per` events of every kind, spread over the trace, and `random` positions. */
function captionPositions(t: Track, per: number, random: number): number[] {
  const byKind = new Map<number, number[]>();
  for (let i = 0; i < t.model.trace.length; i++) {
    const k = t.model.trace.kind(i);
    const at = byKind.get(k) ?? [];
    if (!byKind.has(k)) byKind.set(k, at);
    at.push(i + 1);
  }
  const out: number[] = [];
  for (const at of byKind.values()) {
    const step = Math.max(1, Math.floor(at.length / per));
    for (let j = 0, n = 0; j < at.length && n < per; j += step, n++) out.push(at[j]);
  }
  const r = rng(11);
  for (let k = 0; k < random; k++) out.push(1 + Math.floor(r() * t.model.length));
  return out;
}

describe('captions on a projector', () => {
  it(`fit a stacked caption's four lines at 1280x720 (${CAPTION_CHARS} characters), at every kind of step`, async () => {
    for (const name of Object.keys(FIXTURES).map((p) => p.split('/').pop()!)) {
      const t = await fixture(name);
      const long = new Set<string>();
      for (const p of captionPositions(t, 12, 200)) {
        const text = caption(t, p, t.model.stateAt(p))?.text ?? '';
        if (text.length > CAPTION_CHARS) long.add(`${text.length}: ${text}`);
      }
      expect([...long], name).toEqual([]);
    }
  }, 120_000);
});

describe('what-ifs', () => {
  const base = JSON.stringify({
    threads: 2,
    workload: { seed: 3, requests: 10, writes: 0.2 },
    schedulers: [{ id: 'early' }],
    run: { pace_ns: 1000 },
  });
  const byId = (id: string) => WHAT_IFS.find((w) => w.id === id)!;

  it('change the scenario on the same seed', () => {
    const r = applyWhatIf(byId('writes'), base);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const s = JSON.parse(r.text);
    expect(s.workload.writes).toBeCloseTo(0.4);
    expect(s.workload.seed).toBe(3);
    const h = applyWhatIf(byId('hot'), base);
    expect(h.ok && JSON.parse(h.text).workload.skew).toEqual({ kind: 'skewed', hot: 0, share: 0.9 });
    const t = applyWhatIf(byId('threads'), base);
    expect(t.ok && JSON.parse(t.text).threads).toBe(4);
  });

  it('say why a change does not apply', () => {
    const mix = JSON.stringify({ threads: 2, workload: { mix: { R1: 1 } }, schedulers: [] });
    expect(applyWhatIf(byId('writes'), mix)).toEqual({ ok: false, why: 'the workload gives an explicit class mix' });
    const explicit = JSON.stringify({
      threads: 2,
      workload: {},
      schedulers: [{ id: 'early', mapping: { kind: 'explicit' } }],
    });
    expect(applyWhatIf(byId('threads'), explicit).ok).toBe(false);
    expect(applyWhatIf(byId('writes'), '{ not json').ok).toBe(false);
  });

  it('slow one thread down through the per-thread pace', () => {
    const w = byId('slow-t0');
    expect(w.needs).toBe('thread-pace');
    const r = applyWhatIf(w, base);
    expect(r.ok && r.options.thread_pace_ns).toEqual([5000, 1000]);
  });
});
