import { describe, expect, it } from 'vitest';
import { emptyState } from '../../trace/state';
import { palette } from '../display';
import { drawLanes, layoutFor } from './draw';

/** A 2D context that keeps every text drawn and ignores the rest. */
function recordingContext(): { ctx: CanvasRenderingContext2D; texts: string[] } {
  const texts: string[] = [];
  const ctx = new Proxy({} as Record<string | symbol, unknown>, {
    get(target, key) {
      if (key === 'fillText') return (t: string) => texts.push(t);
      if (key === 'measureText') return (t: string) => ({ width: t.length * 7 });
      if (key in target) return target[key];
      return () => undefined;
    },
    set(target, key, value) {
      target[key] = value;
      return true;
    },
  });
  return { ctx: ctx as unknown as CanvasRenderingContext2D, texts };
}

describe('a lane counts every request it cannot draw', () => {
  it('stolen requests past the lane are in its "+N", as queued ones are', () => {
    const state = emptyState(2);
    // Eight stolen, none queued: the stealer's lane of a 420 px view holds fewer.
    state.lanes[1].stolen = [49, 50, 51, 52, 53, 54, 55, 56];
    const l = layoutFor(420, 16, 2);
    const { ctx, texts } = recordingContext();
    drawLanes(ctx, l, palette(false), {
      state,
      statuses: [],
      event: null,
      reqClass: new Int32Array(64),
      classNames: ['R1'],
      schedulerText: '',
    });
    const more = texts.filter((t) => /^\+\d+$/.test(t)).map((t) => Number(t.slice(1)));
    expect(more).toHaveLength(1);
    const drawn = 8 - more[0];
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(8);
  });
});
