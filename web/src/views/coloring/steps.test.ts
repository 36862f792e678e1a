/**
 * Captions and bookmarks of event-coloring runs, on a hand-made Mely trace
 * (the engine's vocabulary, the engine's order of events).
 */
import { describe, expect, it } from 'vitest';
import type { Track } from '../../replay/store';
import { encode, make, NO_REQUEST, SCHEDULER, type KindName } from '../../trace/codec';
import { loadTraceHere } from '../../trace/load';
import { findBookmark } from '../bookmarks';
import { shardedClasses } from '../../engine/classes';
import { caption } from '../narrate';
import { statusContext, threadStatus } from '../status';
import '../builtin';

const ev = (k: KindName, f: Record<string, number>, t: number, th: number) => make(k, f, t, th);

/** T0 gets colors 5 (two events) and 7; T1 is refused once on time left, then steals color 5. */
function track(scheduler: string, stealNs = 9000): Track {
  const model = loadTraceHere(
    encode([
      ev('Delivered', { req: 0, class: 0 }, 1, SCHEDULER),
      ev('ColorHome', { color: 5, core: 0, how: 2 }, 2, SCHEDULER),
      ev('ColorQueue', { color: 5, core: 0, len: 1, op: 0 }, 3, SCHEDULER),
      ev('Registered', { parent: NO_REQUEST, child: 0, color: 5, core: 0 }, 4, SCHEDULER),
      ev('Dequeued', { req: 0 }, 5, 0),
      ev('ExecStart', { req: 0 }, 6, 0),
      ev('ExecEnd', { req: 0 }, 7, 0),
      ev('ColorHome', { color: 7, core: 0, how: 1 }, 8, 0),
      ev('ColorQueue', { color: 7, core: 0, len: 1, op: 0 }, 9, 0),
      ev('Registered', { parent: 0, child: 1, color: 7, core: 0 }, 10, 0),
      ev('Registered', { parent: 0, child: 2, color: 5, core: 0 }, 11, 0),
      ev('Registered', { parent: 0, child: 3, color: 5, core: 0 }, 12, 0),
      ev('Dequeued', { req: 1 }, 13, 0),
      ev('ExecStart', { req: 1 }, 14, 0),
      ev('StealTry', { victim: 0, queued: 2 }, 15, 1),
      ev('StealRefused', { heuristic: 2, color: 5, left_ns: 3000, cost_ns: 8000 }, 16, 1),
      ev('StealTry', { victim: 0, queued: 2 }, 17, 1),
      ev('ColorSteal', { victim: 0, color: 5, count: 2 }, 18, 1),
      ev('StealCost', { victim: 0, steal_ns: stealNs, left_ns: 3000 }, 19, 1),
      ev('Dequeued', { req: 2 }, 20, 1),
      ev('ExecStart', { req: 2 }, 21, 1),
      ev('ExecEnd', { req: 2 }, 22, 1),
      ev('ExecEnd', { req: 1 }, 23, 0),
    ]),
  );
  return {
    key: scheduler,
    label: scheduler,
    scheduler,
    model,
    classNames: shardedClasses(2).map((c) => c.name),
    mapping: [],
  };
}

describe('coloring captions', () => {
  it('say each step in one sentence, at every position', () => {
    for (const s of ['libasync', 'mely']) {
      const t = track(s);
      for (let p = 1; p <= t.model.length; p++) {
        const c = caption(t, p, t.model.stateAt(p));
        expect(c, `${s} @${p}`).not.toBeNull();
        expect(c!.text, `${s} @${p}`).toMatch(/^[A-Z].*[.)]$/);
        expect(c!.text, `${s} @${p}`).not.toMatch(/undefined|NaN|\[object/);
      }
    }
  });

  it('name the color, the core and the reason', () => {
    const t = track('mely');
    const at = (p: number) => caption(t, p, t.model.stateAt(p))!.text;
    expect(at(4)).toBe(
      "The driver delivers root event e0 of color 5: it goes into T0's queue, because color 5 was free and is now claimed for T0.",
    );
    expect(at(12)).toContain("its handler registers e1 (color 7, T0's queue), e2 (color 5, T0's queue)");
    expect(at(16)).toBe(
      "T1 has nothing to run and looks at T0's queue (2 events) for a color to steal: refused color 5, time left 3 µs < steal cost 8 µs.",
    );
    expect(at(19)).toContain(
      "T1 steals color 5 (2 events) from T0: its color-queue moves whole from T0's list to T1's tail",
    );
    expect(at(19)).toContain('more than it gains');
    expect(caption(track('libasync'), 19, track('libasync').model.stateAt(19))!.text).toContain(
      "T1 steals color 5 (2 events) from T0: taken out of T0's FIFO from the head, in order",
    );
  });
});

describe('one name per thing', () => {
  it('the thread status says event e1 where the caption says e1, never r1', () => {
    const t = track('mely');
    const at = t.model.stateAt(14);
    expect(caption(t, 14, at)!.text).toContain('e1');
    const st = threadStatus(at, 0, statusContext(t));
    expect(st.text).toBe('executing e1');
    expect(st.short).toBe('exec e1');
  });
});

describe('a steal faster than the clock resolves', () => {
  it('reads "under 1 µs", never "took 0 ns"', () => {
    const t = track('mely', 0);
    const text = caption(t, 19, t.model.stateAt(19))!.text;
    expect(text).toContain('it took under 1 µs for 3 µs of work');
    expect(text).not.toMatch(/took 0 ns/);
  });
});

describe('coloring bookmarks', () => {
  it('find the first color steal, a costly steal and a time-left refusal', () => {
    const t = track('mely');
    const kind = (p: number) => t.model.trace.event(p - 1).kind;
    const steal = findBookmark(t, 'color-steal', 'coloring', 'x')!;
    expect(steal.position).toBe(18);
    expect(findBookmark(t, 'costly-steal', 'coloring', 'x')!.position).toBe(18);
    const refused = findBookmark(t, 'time-left-refused', 'coloring', 'x')!;
    expect(refused.position).toBe(16);
    expect(findBookmark(t, 'steal-refused', 'coloring', 'x')!.position).toBe(16);
    expect(kind(refused.position)).toBe(make('StealRefused', {}, 0, 0).kind);
  });
});

describe('the whole-color steal bookmark', () => {
  it('shows a steal that moves several events, not the first one-event steal', () => {
    const model = loadTraceHere(
      encode([
        ev('Registered', { parent: NO_REQUEST, child: 0, color: 5, core: 0 }, 1, SCHEDULER),
        ev('Registered', { parent: NO_REQUEST, child: 1, color: 6, core: 0 }, 2, SCHEDULER),
        ev('Registered', { parent: NO_REQUEST, child: 2, color: 7, core: 0 }, 3, SCHEDULER),
        ev('Registered', { parent: NO_REQUEST, child: 3, color: 7, core: 0 }, 4, SCHEDULER),
        ev('Dequeued', { req: 0 }, 5, 0),
        ev('ColorSteal', { victim: 0, color: 6, count: 1 }, 6, 1),
        ev('ColorSteal', { victim: 0, color: 7, count: 2 }, 7, 1),
      ]),
    );
    const t: Track = { key: 'l', label: 'l', scheduler: 'libasync', model, classNames: [], mapping: [] };
    expect(findBookmark(t, 'color-steal', 'coloring', 'x')!.position).toBe(7);
  });
});
