/**
 * Lesson bookmarks of the early family (and of work stealing, whose classes
 * meet the same way): a dispatch to every thread of a sequential class, the
 * threads gathered at its barrier or cycle, its release, a full queue.
 */
import { nextStep } from '../../replay/steps';
import { F, KIND, REASON, SCHEDULER } from '../../trace/codec';
import { first, firstWait, isWait, meets, type Finder } from '../bookmarks';

export const earlyBookmarks: Record<string, Finder> = {
  'seq-dispatch': (track) => {
    const t = track.model.trace;
    const cls = track.model.index.reqClass;
    // The last Enqueued of the first request of a class with 2+ threads.
    const d = first(track, (i) => t.kind(i) === KIND.Delivered && meets(track, t.get(i, F.Delivered.class)));
    if (d < 0) return -1;
    const req = t.get(d, F.Delivered.req);
    let last = -1;
    for (let i = d + 1; i < Math.min(t.length, d + 256); i++) {
      if (t.kind(i) === KIND.Enqueued && t.get(i, F.Enqueued.req) === req) last = i;
      if (t.kind(i) === KIND.Delivered && t.thread(i) === SCHEDULER && t.get(i, F.Delivered.req) !== req) break;
    }
    if (last < 0 || cls[req] < 0) return d;
    // Stop where the dispatch step ends (a worker may take the request before
    // the scheduler has put it in every queue): the caption is the dispatch's.
    return Math.min(last, nextStep(t, d) - 1);
  },

  'barrier-gathered': (track) => {
    const t = track.model.trace;
    const cls = track.model.index.reqClass;
    // The executor starting a request of a class whose threads all met.
    return first(track, (i) => {
      if (t.kind(i) !== KIND.ExecStart) return false;
      const req = t.get(i, F.ExecStart.req);
      return req < cls.length && meets(track, cls[req]);
    });
  },

  'barrier-release': (track) => {
    const t = track.model.trace;
    return first(track, (i) => t.kind(i) === KIND.SyncRelease && meets(track, t.get(i, F.SyncRelease.class)));
  },

  'cycle-spin': firstWait(REASON.Cycle),

  'cycle-release': (track) => {
    const t = track.model.trace;
    // A release after someone spun in that cycle.
    const spin = first(track, (i) => isWait(track, i, REASON.Cycle));
    if (spin < 0) return -1;
    const req = t.get(spin, F.WaitStart.req);
    for (let i = spin + 1; i < t.length; i++) {
      if (t.kind(i) === KIND.SyncRelease && t.get(i, F.SyncRelease.req) === req) return i;
    }
    return -1;
  },

  'full-queue': firstWait(REASON.FullQueue),
};
