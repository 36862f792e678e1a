/**
 * Naming a replay moment so it survives a re-run of the scenario (a shared
 * link runs it again: same requests, new timings): the n-th steal, the n-th
 * release or arrival, the moment k requests were completed, or a lesson
 * bookmark. Event numbers would point elsewhere in another run.
 */
import type { Track } from '../replay/store';
import { completedAt, positionAtCompleted } from '../replay/progress';
import { findBookmark } from './bookmarks';

const MARKS = { steal: 'steals', release: 'releases', arrive: 'arrivals' } as const;
type MarkName = keyof typeof MARKS;

/** The name of position p in track t: `steal:3` when the event before p is its 3rd steal, else `done:k`. */
export function nameMoment(t: Track, p: number): string {
  const idx = t.model.index;
  for (const [name, field] of Object.entries(MARKS) as [MarkName, (typeof MARKS)[MarkName]][]) {
    const n = idx[field].indexOf(p - 1);
    if (n >= 0) return `${name}:${n + 1}`;
  }
  return `done:${completedAt(t.model, p)}`;
}

/** The position a moment name points at in track t (the nearest such moment if the run had fewer), or null. */
export function findMoment(t: Track, at: string): number | null {
  const [name, arg] = at.split(':');
  const n = Number(arg);
  if (name === 'done' && Number.isFinite(n)) return positionAtCompleted(t.model, n);
  if (name in MARKS && Number.isFinite(n) && n >= 1) {
    const xs = t.model.index[MARKS[name as MarkName]];
    return xs.length === 0 ? null : xs[Math.min(n, xs.length) - 1] + 1;
  }
  return findBookmark(t, name, '', '')?.position ?? null;
}
