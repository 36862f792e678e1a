/**
 * The binary search the replay and the views share: where a sorted array (of events,
 * times, steps...) stops satisfying a condition.
 */

/**
 * The first index in `[0, n)` at which `holds` is false, or `n`: `holds`
 * must be true on a prefix of the indices and false after it (the array is
 * sorted by what it tests). O(log n) calls of `holds`.
 */
export function partitionPoint(n: number, holds: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (holds(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
