import * as d3 from 'd3';
import { describe, expect, it } from 'vitest';
import { bandScale, linearScale, linePath, niceDomain } from './scales';

/** A seeded generator (mulberry32): the same cases on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Domain ends as the charts make them (0 to a maximum, often small or large) and some odd ones. */
function domains(): [number, number][] {
  const r = random(30);
  const out: [number, number][] = [
    [0, 0],
    [0, 1],
    [0, 1.05],
    [0, 7],
    [0, 10],
    [0, 99.9],
    [0, 1234567],
    [0, 0.00042],
    [3, 3],
    [10, 0],
    [-5, 17],
  ];
  for (let i = 0; i < 200; i++) {
    const scale = 10 ** Math.floor(r() * 12 - 4);
    out.push([0, r() * scale]);
    out.push([r() * scale, r() * scale]);
  }
  return out;
}

const RANGES: [number, number][] = [
  [0, 640],
  [220, 0],
  [0, 0],
  [37.5, 911.25],
];

describe('linearScale and niceDomain give what d3.scaleLinear gives', () => {
  it('nice(), positions, invert, ticks and tick labels', () => {
    const r = random(7);
    let compared = 0;
    for (const d of domains()) {
      for (const count of [4, 5, 6, 10]) {
        expect(niceDomain(d, count)).toEqual(d3.scaleLinear().domain(d).nice(count).domain());
      }
      expect(niceDomain(d)).toEqual(d3.scaleLinear().domain(d).nice().domain());
      for (const range of RANGES) {
        for (const dom of [d, niceDomain(d)]) {
          const ours = linearScale(dom, range);
          const theirs = d3.scaleLinear().domain(dom).range(range);
          const xs = [dom[0], dom[1], NaN, ...Array.from({ length: 8 }, () => dom[0] + (dom[1] - dom[0]) * r() * 1.2)];
          for (const x of xs) expect(ours(x)).toBe(theirs(x));
          for (const y of [range[0], range[1], (range[0] + range[1]) / 3])
            expect(ours.invert(y)).toBe(theirs.invert(y));
          expect(ours.domain()).toEqual(theirs.domain());
          expect(ours.range()).toEqual(theirs.range());
          for (const [count, spec] of [
            [undefined, undefined],
            [6, undefined],
            [5, 's'],
            [4, '~s'],
            [5, '.2f'],
            [3, ''],
          ] as const) {
            const ticks = ours.ticks(count);
            expect(ticks).toEqual(theirs.ticks(count));
            expect(ticks.map(ours.tickFormat(count, spec))).toEqual(ticks.map(theirs.tickFormat(count, spec)));
            compared += ticks.length;
          }
          const copy = ours.copy();
          expect(copy(dom[1])).toBe(ours(dom[1]));
        }
      }
    }
    // The comparisons above did compare labels (a broken generator would give no ticks).
    expect(compared).toBeGreaterThan(10_000);
  });
});

describe('bandScale gives what d3.scaleBand().padding(p) gives', () => {
  it('bands, bandwidth and unknown names', () => {
    const names = ['early', 'busy-wait', 'late', 'early', 'ws', 'epaxos', 'libasync'];
    for (let n = 0; n <= names.length; n++) {
      for (const padding of [0, 0.05, 0.2, 0.5, 1]) {
        for (const range of RANGES) {
          const ours = bandScale(names.slice(0, n), range, padding);
          const theirs = d3.scaleBand().domain(names.slice(0, n)).range(range).padding(padding);
          for (const name of [...names, 'nobody']) expect(ours(name)).toBe(theirs(name));
          expect(ours.bandwidth()).toBe(theirs.bandwidth());
          expect(ours.domain()).toEqual(theirs.domain());
          expect(ours.range()).toEqual(theirs.range());
          expect(ours.round()).toBe(theirs.round());
          expect(ours.copy()('early')).toBe(theirs.copy()('early'));
        }
      }
    }
  });
});

describe('linePath gives what d3.line() gives', () => {
  it('straight segments, gaps where a point is not defined, single points, no points', () => {
    const r = random(11);
    type P = { x: number; y: number };
    const defined = (p: P) => Number.isFinite(p.y);
    const cases: P[][] = [[], [{ x: 1, y: NaN }], [{ x: 1, y: 2 }]];
    for (let i = 0; i < 300; i++) {
      cases.push(
        Array.from({ length: Math.floor(r() * 12) }, (_, k) => ({
          x: k * r() * 1000,
          y: r() < 0.25 ? NaN : (r() - 0.3) * 10 ** Math.floor(r() * 8 - 3),
        })),
      );
    }
    for (const points of cases) {
      const theirs = d3
        .line<P>()
        .defined(defined)
        .x((p) => p.x / 7)
        .y((p) => p.y * 3);
      expect(
        linePath(
          points,
          (p) => p.x / 7,
          (p) => p.y * 3,
          defined,
        ),
      ).toBe(theirs(points));
      // Without `defined` every point is drawn (NaN included), as d3 draws it.
      expect(
        linePath(
          points,
          (p) => p.x,
          (p) => p.y,
        ),
      ).toBe(
        d3
          .line<P>()
          .x((p) => p.x)
          .y((p) => p.y)(points),
      );
    }
  });
});
