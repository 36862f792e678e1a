import { describe, expect, it } from 'vitest';
import { emptyState } from '../../trace/state';
import { palette } from '../display';
import { LEAST_LANE_EMS, drawLanes, heightFor, laneHeightBounds, layoutFor } from './draw';

/** A 2D context that keeps every text drawn and ignores the rest. */
function recordingContext(): { ctx: CanvasRenderingContext2D; texts: string[]; curves: number[][] } {
  const texts: string[] = [];
  const curves: number[][] = [];
  const ctx = new Proxy({} as Record<string | symbol, unknown>, {
    get(target, key) {
      if (key === 'fillText') return (t: string) => texts.push(t);
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
  return { ctx: ctx as unknown as CanvasRenderingContext2D, texts, curves };
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
