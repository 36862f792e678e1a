import { describe, expect, it } from 'vitest';
import { emptyState } from '../../trace/state';
import { palette } from '../display';
import {
  LEAST_CHIP_LABEL_EMS,
  cutToFit,
  LEAST_LANE_EMS,
  drawLanes,
  heightFor,
  laneHeightBounds,
  layoutFor,
  runFit,
  type DrawInput,
} from './draw';

/** A text drawn: where it starts and the width it was squeezed into, if any. */
interface Placed {
  text: string;
  x: number;
  maxWidth?: number;
}

/** A text or a filled rectangle, in the order drawn (a text's box: its measured width, the line's height left to the test). */
interface Op {
  kind: 'text' | 'rect';
  /** The text, or the rectangle's fill style. */
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * A 2D context that keeps every text drawn (the font it was drawn in, where
 * and in what width) and ignores the rest; a text measures 7 px a character.
 */
function recordingContext(): {
  ctx: CanvasRenderingContext2D;
  texts: string[];
  fonts: string[];
  placed: Placed[];
  curves: number[][];
  ops: Op[];
} {
  const texts: string[] = [];
  const fonts: string[] = [];
  const placed: Placed[] = [];
  const curves: number[][] = [];
  const ops: Op[] = [];
  const ctx = new Proxy({} as Record<string | symbol, unknown>, {
    get(target, key) {
      if (key === 'fillText')
        return (t: string, x: number, y: number, maxWidth?: number) => {
          texts.push(t);
          fonts.push(String(target.font));
          placed.push({ text: t, x, maxWidth });
          ops.push({ kind: 'text', text: t, x, y, w: t.length * 7, h: 0 });
        };
      // Filled rectangles, a path's rectangles (chips are one path a color) and outlines alike.
      if (key === 'fillRect' || key === 'rect')
        return (x: number, y: number, w: number, h: number) =>
          ops.push({ kind: 'rect', text: String(target.fillStyle), x, y, w, h });
      if (key === 'strokeRect')
        return (x: number, y: number, w: number, h: number) =>
          ops.push({ kind: 'rect', text: String(target.strokeStyle), x, y, w, h });
      if (key === 'bezierCurveTo') return (...a: number[]) => curves.push(a);
      if (key === 'measureText') return (t: string) => ({ width: t.length * 7 });
      if (key in target) return target[key];
      return () => undefined;
    },
    set(target, key, value) {
      target[key] = value;
      return true;
    },
  });
  return { ctx: ctx as unknown as CanvasRenderingContext2D, texts, fonts, placed, curves, ops };
}

/** The lanes of `state` drawn `width` px wide in 16 px type (requests below 64, one class): what the context recorded. */
function drawn(state: ReturnType<typeof emptyState>, width: number): ReturnType<typeof recordingContext> {
  const rec = recordingContext();
  const input = {
    state,
    statuses: [],
    event: null,
    reqClass: new Int32Array(64),
    classNames: ['R1'],
    schedulerText: '',
  };
  drawLanes(rec.ctx, layoutFor(width, 16, state.lanes.length), palette(false), input);
  return rec;
}

describe('a lane counts every request it cannot draw', () => {
  it('stolen requests past the lane are in its "+N", as queued ones are', () => {
    const state = emptyState(2);
    // Eight stolen, none queued: the stealer's lane of a 420 px view holds fewer.
    state.lanes[1].stolen = [49, 50, 51, 52, 53, 54, 55, 56];
    const { texts } = drawn(state, 420);
    const more = texts.filter((t) => /^\+\d+$/.test(t)).map((t) => Number(t.slice(1)));
    expect(more).toHaveLength(1);
    const shown = 8 - more[0];
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(8);
  });
});

describe('steal arrows', () => {
  it('two opposite steals (T0 from T1, T1 from T0) are two arcs, not one drawn twice', () => {
    const state = emptyState(2);
    state.lanes[0].stealVictim = 1;
    state.lanes[1].stealVictim = 0;
    const { curves } = drawn(state, 1200);
    expect(curves).toHaveLength(2);
    // The end points (where the arrowheads are) differ, and so do the curves' bulges.
    const ends = curves.map((c) => `${c[4]},${c[5]}`);
    expect(new Set(ends).size).toBe(2);
    expect(curves[0][0]).not.toBe(curves[1][0]);
  });
});

describe('layoutFor', () => {
  it('fits every lane in a tight height: the header gives up its spare room, then lanes shrink to their least', () => {
    const font = 18;
    // Two stacked runs of 4 workers at 1280x720 in large type left 119 px of lanes a run (repartitioning lesson), 132 (mapping).
    for (const fit of [119, 132, 150, 176]) {
      const l = layoutFor(900, font, 4, fit);
      expect(heightFor(l, 4)).toBeLessThanOrEqual(fit);
      expect(l.laneH).toBeGreaterThanOrEqual(Math.round(font * LEAST_LANE_EMS));
      expect(l.laneH).toBeLessThan(laneHeightBounds(font).min);
    }
  });

  it('keeps the usual lanes and header where they fit', () => {
    const font = 18;
    const roomy = layoutFor(900, font, 4, 600);
    expect(roomy.headerH).toBe(Math.round(font * 3.2));
    expect(roomy.laneH).toBeGreaterThanOrEqual(laneHeightBounds(font).min);
    expect(heightFor(roomy, 4)).toBeLessThanOrEqual(600);
    // No height given (a measure before layout): the usual least lane.
    expect(layoutFor(900, font, 4).laneH).toBe(laneHeightBounds(font).min);
  });
});

/** Lanes of `state` in 18 px type (large type), `width` wide in a `fit` px height, drawn with `more` of the input. */
function drawnLarge(state: ReturnType<typeof emptyState>, width: number, fit: number, more: Partial<DrawInput> = {}) {
  const rec = recordingContext();
  const input: DrawInput = {
    state,
    statuses: [],
    event: null,
    reqClass: new Int32Array(64),
    classNames: ['R1'],
    schedulerText: 'delivered 73 of 8,000',
    ...more,
  };
  const layout = layoutFor(width, 18, state.lanes.length, fit);
  drawLanes(rec.ctx, layout, palette(false), input);
  return { ...rec, layout };
}

/** Four workers, each with a few requests queued and one executing. */
function busy(): ReturnType<typeof emptyState> {
  const state = emptyState(4);
  state.lanes.forEach((l, t) => {
    l.exec = t;
    l.queue = [10 + t, 20 + t, 30 + t];
  });
  return state;
}

describe('two runs stacked at 1280x720 in large type', () => {
  // The view is about 400 px tall there, the runs' shared class legend two lines (70 px with its margin).
  const fit = runFit(400, 2, 70);

  it('draw every lane with chip ids of at least 0.7 em (they were 7 px under a title line)', () => {
    const { texts, fonts, layout } = drawnLarge(busy(), 735, fit);
    expect(heightFor(layout, 4)).toBeLessThanOrEqual(fit);
    const ids = texts.map((t, k) => ({ t, px: parseFloat(fonts[k]) })).filter(({ t }) => /^r\d+$/.test(t));
    // Four executing, twelve queued: every chip has its id.
    expect(ids).toHaveLength(16);
    for (const { t, px } of ids) expect(px, t).toBeGreaterThanOrEqual(Math.floor(18 * LEAST_CHIP_LABEL_EMS));
  });

  it("say each run's name in its scheduler's row, with the scheduler's status", () => {
    const { texts } = drawnLarge(busy(), 735, fit, { run: 'repart-async (Async W=500 Q=64)' });
    expect(texts).toContain('repart-async (Async W=500 Q=64)');
    expect(texts).toContain('delivered 73 of 8,000');
    expect(texts).not.toContain('Scheduler');
    // One run alone keeps the word.
    expect(drawnLarge(busy(), 735, fit).texts).toContain('Scheduler');
  });

  it('cut a long run name with an ellipsis and leave the status its whole width', () => {
    // A compare of two schedulers with long labels, and one of the longest statuses.
    const run = 'mely-time-left-penalty-locality (Mely, batch 10, steal cost 1000 ns)';
    const status = 'delivered 1,234 of 8,000 · blocked: a full queue (back-pressure)';
    const { placed } = drawnLarge(busy(), 735, fit, { run, schedulerText: status });
    const width = (t: string) => t.length * 7;
    const name = placed.find((p) => p.text.startsWith('mely-time-left'))!;
    const said = placed.find((p) => p.text === status)!;
    expect(name.text).not.toBe(run);
    expect(name.text.endsWith('\u2026')).toBe(true);
    expect(run.startsWith(name.text.slice(0, -1))).toBe(true);
    // Neither is squeezed: each gets at least its own width, and they do not overlap.
    if (name.maxWidth !== undefined) expect(name.maxWidth).toBeGreaterThanOrEqual(width(name.text));
    expect(said.maxWidth ?? Infinity).toBeGreaterThanOrEqual(width(status));
    expect(said.x).toBeGreaterThanOrEqual(name.x + width(name.text));
    expect(said.x + width(status)).toBeLessThanOrEqual(735);
    // A name that fits is said whole.
    const short = drawnLarge(busy(), 735, fit, { run: 'mely', schedulerText: status }).texts;
    expect(short).toContain('mely');
  });

  it("let a chip flying in from the scheduler's row pass under the run's name, not over it", () => {
    const run = 'libasync (libasync-smp stealing the first color under half)';
    const rec = recordingContext();
    const layout = layoutFor(1400, 18, 4, fit);
    const input: DrawInput = {
      state: busy(),
      statuses: [],
      event: null,
      reqClass: new Int32Array(64),
      classNames: ['R1'],
      schedulerText: 'delivered 1 of 2',
      run,
    };
    // Every chip is new (nothing was on screen): each starts its flight in the scheduler's row.
    const none = { byKey: new Map(), byLaneReq: new Map(), byReq: new Map() };
    drawLanes(rec.ctx, layout, palette(false), input, { from: none, t: 0.05 });
    const at = rec.ops.findIndex((o) => o.kind === 'text' && o.text === run);
    expect(at).toBeGreaterThan(-1);
    const name = rec.ops[at];
    const box = { x0: name.x, x1: name.x + name.w, y0: name.y - 9, y1: name.y + 9 };
    const hits = (o: Op) => o.x < box.x1 && o.x + o.w > box.x0 && o.y < box.y1 && o.y + o.h > box.y0;
    const chipColor = palette(false).classColor(0);
    // The flight does cross the name (else this test shows nothing) ...
    expect(rec.ops.slice(0, at).some((o) => o.kind === 'rect' && o.text === chipColor && hits(o))).toBe(true);
    // ... and nothing is painted over the name after it, and it is written on the background.
    const over = rec.ops.slice(at + 1).filter((o) => (o.kind === 'rect' || /^r\d+$/.test(o.text)) && hits(o));
    expect(over).toEqual([]);
    const under = rec.ops[at - 1];
    expect(
      under.kind === 'rect' && under.text === palette(false).bg && under.x <= box.x0 && under.x + under.w >= box.x1,
    ).toBe(true);
  });
});

describe('cutToFit', () => {
  const width = (t: string) => t.length * 10;
  it('keeps a text that fits, else the longest start that fits with an ellipsis', () => {
    expect(cutToFit('abcdef', 60, width)).toBe('abcdef');
    expect(cutToFit('abcdefgh', 60, width)).toBe('abcde\u2026');
    // A space before the cut is dropped.
    expect(cutToFit('abc defgh', 50, width)).toBe('abc\u2026');
    expect(cutToFit('abcdef', 5, width)).toBe('\u2026');
  });
});

describe("chip ids in the family's words", () => {
  it('an event run names every chip e12, queued, stolen, executing or held alike', () => {
    const state = busy();
    state.lanes[1].stolen = [40, 41];
    const { texts } = drawnLarge(state, 1200, 600, { item: 'e' });
    const ids = texts.filter((t) => /^[a-z]?\d+$/.test(t));
    expect(ids.length).toBeGreaterThan(10);
    expect(ids.filter((t) => !t.startsWith('e'))).toEqual([]);
  });
});
