import { describe, expect, it } from 'vitest';
import { placeLateLayers } from './GraphsView';

/** Layers 0..n-1 of one request each (a chain of conflicts), request `l` in layer `l`. */
const chain = (n: number) => new Map(Array.from({ length: n }, (_, l) => [l, [l]]));

describe('placeLateLayers', () => {
  const [w, h] = [60, 34];

  it('keeps every box inside the canvas: layers past its right edge start a band below', () => {
    const room = 600;
    const { at, width, height } = placeLateLayers(chain(9), w, h, room);
    for (const [, p] of at) expect(p.x + w).toBeLessThanOrEqual(room);
    expect(width).toBeLessThanOrEqual(room);
    // 600 px hold 6 columns (5 steps of 100 px, a 60 px box and two 10 px margins): 9 layers make two bands.
    expect(new Set([...at.values()].map((p) => p.y)).size).toBe(2);
    expect(at.get(6)!.y).toBeGreaterThan(at.get(0)!.y + h);
    expect(at.get(6)!.x).toBe(at.get(0)!.x);
    expect(height).toBeGreaterThanOrEqual(at.get(8)!.y + h);
  });

  it('draws one row of columns, in layer order, when the canvas is wide enough', () => {
    const { at, width } = placeLateLayers(chain(5), w, h, 2000);
    const xs = [0, 1, 2, 3, 4].map((r) => at.get(r)!.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(new Set([...at.values()].map((p) => p.y)).size).toBe(1);
    expect(width).toBe(20 + 4 * (w + 40) + w);
  });

  it('stacks a layer of several requests and starts the next band under its tallest column', () => {
    const cols = new Map([
      [0, [0, 1, 2]],
      [1, [3]],
      [2, [4]],
    ]);
    const { at } = placeLateLayers(cols, w, h, 20 + w + 40 + w);
    // Two columns a band: layers 0 and 1, then layer 2 under layer 0's three boxes.
    expect(at.get(4)!.y).toBeGreaterThan(at.get(2)!.y + h);
    expect(at.get(3)!.y).toBe(at.get(0)!.y);
  });

  it('gives a canvas narrower than one box one column a band', () => {
    const { at } = placeLateLayers(chain(3), w, h, 20);
    expect(new Set([...at.values()].map((p) => p.x)).size).toBe(1);
  });
});
