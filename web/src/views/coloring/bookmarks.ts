/**
 * Lesson bookmarks of the event-coloring runtimes (paper 002): whole colors
 * stolen, a steal costlier than the work it moved, and steals refused.
 */
import { F, KIND } from '../../trace/codec';
import { first, firstOfKind, type Finder } from '../bookmarks';

export const coloringBookmarks: Record<string, Finder> = {
  /**
   * A whole color moving: the first steal of several events (what "the
   * whole color" means is visible), else the first steal.
   */
  'color-steal': (track) => {
    const t = track.model.trace;
    const several = first(track, (i) => t.kind(i) === KIND.ColorSteal && t.get(i, F.ColorSteal.count) >= 2);
    return several >= 0 ? several : firstOfKind(KIND.ColorSteal)(track);
  },

  /** A steal that took longer than the annotated work it moved: the naive steal of Libasync-smp on short events. */
  'costly-steal': (track) => {
    const t = track.model.trace;
    const cost = first(
      track,
      (i) => t.kind(i) === KIND.StealCost && t.get(i, F.StealCost.steal_ns) > t.get(i, F.StealCost.left_ns),
    );
    if (cost < 0) return -1;
    // The steal itself: the stealer's ColorSteal just before its cost.
    const th = t.thread(cost);
    for (let i = cost - 1; i >= 0 && i >= cost - 4096; i--) {
      if (t.thread(i) === th && t.kind(i) === KIND.ColorSteal) return i;
    }
    return cost;
  },

  'steal-refused': firstOfKind(KIND.StealRefused),

  /**
   * Mely's time-left heuristic: the color's time left is below the cost of
   * a steal (the first such refusal; else the first time-left refusal, one
   * whose color was judged against an earlier steal cost).
   */
  'time-left-refused': (track) => {
    const t = track.model.trace;
    const timeLeft = (i: number) => t.kind(i) === KIND.StealRefused && t.get(i, F.StealRefused.heuristic) === 2;
    const below = first(
      track,
      (i) => timeLeft(i) && t.get(i, F.StealRefused.left_ns) < t.get(i, F.StealRefused.cost_ns),
    );
    return below >= 0 ? below : first(track, timeLeft);
  },
};
