import { describe, expect, it } from 'vitest';
import { partitionPoint } from './search';

describe('partitionPoint', () => {
  it('finds where a sorted array stops holding the condition, at every cut and length', () => {
    for (let n = 0; n < 9; n++) {
      const xs = Array.from({ length: n }, (_, i) => 2 * i);
      for (let t = -1; t <= 2 * n; t++) {
        const expected = xs.filter((x) => x < t).length;
        expect(
          partitionPoint(n, (i) => xs[i] < t),
          `n ${n}, below ${t}`,
        ).toBe(expected);
      }
    }
  });
});
