/**
 * The three d3 pieces the Classroom's charts use (a linear scale, a band scale
 * and a straight-segment line path), written out here so that a chart
 * fetches neither d3-scale nor d3-shape nor what those pull in
 * (d3-interpolate, d3-color, d3-path): 8.5 KB gzipped off the first lesson
 * (issue 30, docs/benchmarks/frontend.md, seventh pass).
 *
 * Invariant: every function here gives exactly what d3 gives for the same
 * call (positions, ticks, tick labels, path strings), so the charts draw
 * the same pixels; `scales.test.ts` compares them with d3's own scales and
 * line. Ticks and tick labels are d3's (d3-array's `ticks`, d3-format), as
 * d3-scale computes them; `d3.axisBottom` / `d3.axisLeft` accept these
 * scales as they accept d3's (they read `ticks`, `tickFormat`, `bandwidth`,
 * `round`, `range` and `copy`).
 */
import {
  format,
  formatPrefix,
  formatSpecifier,
  precisionFixed,
  precisionPrefix,
  precisionRound,
  tickIncrement,
  ticks as d3Ticks,
  tickStep,
} from 'd3';

/** d3's `scaleLinear()` with a two-value domain and a numeric range, no clamping. */
export interface LinearScale {
  /** The range value of `x`; undefined for NaN, as d3 (typed number, as d3 types it). */
  (x: number): number;
  domain(): number[];
  range(): number[];
  copy(): LinearScale;
  /** About `count` round values over the domain (d3-array `ticks`). */
  ticks(count?: number): number[];
  /** d3-scale's tick label format for `count` ticks (`specifier` as d3-format's, default ",f"). */
  tickFormat(count?: number, specifier?: string): (d: number | { valueOf(): number }) => string;
  /** The domain value of the range value `y`. */
  invert(y: number): number;
}

/** d3-scale's `normalize`: the parameter t in [0, 1] of x in [a, b] (0.5 when a = b). */
function normalize(a: number, b: number): (x: number) => number {
  const span = b - a;
  if (span) return (x) => (x - a) / span;
  const t = Number.isNaN(span) ? NaN : 0.5;
  return () => t;
}

/** d3-interpolate's `interpolateNumber` (this exact formula: its rounding is d3's). */
function interpolateNumber(a: number, b: number): (t: number) => number {
  return (t) => a * (1 - t) + b * t;
}

/** d3-scale's `bimap`: from [d0, d1] onto [r0, r1], a descending domain included. */
function bimap([d0, d1]: readonly number[], [r0, r1]: readonly number[]): (x: number) => number {
  const [t, at] =
    d1 < d0 ? [normalize(d1, d0), interpolateNumber(r1, r0)] : [normalize(d0, d1), interpolateNumber(r0, r1)];
  return (x) => at(t(x));
}

/** d3-scale's `tickFormat(start, stop, count, specifier)`. */
function tickFormat(start: number, stop: number, count: number, specifier = ',f') {
  const step = tickStep(start, stop, count);
  const spec = formatSpecifier(specifier);
  let precision: number;
  switch (spec.type) {
    case 's': {
      const value = Math.max(Math.abs(start), Math.abs(stop));
      if (spec.precision == null && !isNaN((precision = precisionPrefix(step, value)))) spec.precision = precision;
      return formatPrefix(spec.toString(), value);
    }
    case '':
    case 'e':
    case 'g':
    case 'p':
    case 'r':
      if (
        spec.precision == null &&
        !isNaN((precision = precisionRound(step, Math.max(Math.abs(start), Math.abs(stop)))))
      )
        spec.precision = precision - (spec.type === 'e' ? 1 : 0);
      break;
    case 'f':
    case '%':
      if (spec.precision == null && !isNaN((precision = precisionFixed(step))))
        spec.precision = precision - (spec.type === '%' ? 2 : 0);
      break;
  }
  return format(spec.toString());
}

/** A linear scale from `domain` onto `range` (d3's `scaleLinear().domain(domain).range(range)`). */
export function linearScale(domain: readonly [number, number], range: readonly [number, number]): LinearScale {
  const d = [+domain[0], +domain[1]];
  const r = [+range[0], +range[1]];
  const out = bimap(d, r);
  const back = bimap(r, d);
  // As d3: a missing or NaN value has no position (its attribute is then left out).
  const scale = ((x: number) => (x == null || isNaN((x = +x)) ? undefined : out(x))) as LinearScale;
  scale.domain = () => d.slice();
  scale.range = () => r.slice();
  scale.copy = () => linearScale([d[0], d[1]], [r[0], r[1]]);
  scale.ticks = (count = 10) => d3Ticks(d[0], d[1], count);
  scale.tickFormat = (count = 10, specifier?: string) => tickFormat(d[0], d[1], count, specifier);
  scale.invert = (y) => back(y);
  return scale;
}

/**
 * d3's `nice(count)` of a linear scale: the domain widened to round values
 * (multiples of the tick step for about `count` ticks).
 */
export function niceDomain(domain: readonly [number, number], count = 10): [number, number] {
  const d: [number, number] = [+domain[0], +domain[1]];
  let [i0, i1] = [0, 1];
  let [start, stop] = d;
  if (stop < start) {
    [start, stop] = [stop, start];
    [i0, i1] = [i1, i0];
  }
  let prestep: number | undefined;
  for (let maxIter = 10; maxIter > 0; maxIter--) {
    const step = tickIncrement(start, stop, count);
    if (step === prestep) {
      d[i0] = start;
      d[i1] = stop;
      return d;
    } else if (step > 0) {
      start = Math.floor(start / step) * step;
      stop = Math.ceil(stop / step) * step;
    } else if (step < 0) {
      start = Math.ceil(start * step) / step;
      stop = Math.floor(stop * step) / step;
    } else {
      break;
    }
    prestep = step;
  }
  return d;
}

/** d3's `scaleBand()`: one band per name, evenly spaced, no rounding, centered (align 0.5). */
export interface BandScale {
  /** The start of `name`'s band; undefined for a name not in the domain. */
  (name: string): number | undefined;
  domain(): string[];
  range(): number[];
  copy(): BandScale;
  bandwidth(): number;
  /** Whether positions are rounded (never here; the axis asks). */
  round(): boolean;
}

/**
 * Bands for `names` over `range`, `padding` (d3's `.padding(p)`: inner and
 * outer) of a step between and around them. A repeated name keeps its first band.
 */
export function bandScale(names: readonly string[], range: readonly [number, number], padding = 0): BandScale {
  const index = new Map<string, number>();
  const domain: string[] = [];
  for (const n of names) if (!index.has(n)) index.set(n, domain.push(n) - 1);
  const [r0, r1] = [+range[0], +range[1]];
  const inner = Math.min(1, padding);
  const outer = +padding;
  const reverse = r1 < r0;
  let start = reverse ? r1 : r0;
  const stop = reverse ? r0 : r1;
  const n = domain.length;
  const step = (stop - start) / Math.max(1, n - inner + outer * 2);
  start += (stop - start - step * (n - inner)) * 0.5;
  const width = step * (1 - inner);
  const starts = domain.map((_, i) => start + step * i);
  if (reverse) starts.reverse();
  const scale = ((name: string) => {
    const i = index.get(name);
    return i === undefined ? undefined : starts[i % starts.length];
  }) as BandScale;
  scale.domain = () => domain.slice();
  scale.range = () => [r0, r1];
  scale.copy = () => bandScale(domain, [r0, r1], padding);
  scale.bandwidth = () => width;
  scale.round = () => false;
  return scale;
}

/** d3-path's number in a path: rounded to 3 decimals. */
const at = (v: number) => Math.round(v * 1000) / 1000;

/**
 * The SVG path of d3's `line()` with straight segments (`curveLinear`):
 * the points where `defined` holds, one subpath per unbroken run, a run of
 * one point closed on itself ("M x,y Z"), null when no point is drawn.
 */
export function linePath<T>(
  points: readonly T[],
  x: (d: T) => number,
  y: (d: T) => number,
  defined: (d: T) => boolean = () => true,
): string | null {
  let path = '';
  let run = 0;
  for (let i = 0; i <= points.length; i++) {
    if (i < points.length && defined(points[i])) {
      path += `${run === 0 ? 'M' : 'L'}${at(+x(points[i]))},${at(+y(points[i]))}`;
      run++;
    } else {
      if (run === 1) path += 'Z';
      run = 0;
    }
  }
  return path || null;
}
