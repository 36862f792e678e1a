/**
 * Lesson bookmarks of late scheduling (CBASE: the one graph, its bound and
 * its lock) and of ePaxos / PePaxos (SCCs).
 */
import { F, KIND, REASON, SCHEDULER } from '../../trace/codec';
import { first, firstWait, type Finder } from '../bookmarks';

export const graphBookmarks: Record<string, Finder> = {
  'graph-full': firstWait(REASON.FullGraph),

  'graph-lock': (track) => {
    const t = track.model.trace;
    // A worker (not the scheduler) queued on the graph's lock: everyone takes the same lock.
    return first(
      track,
      (i) => t.kind(i) === KIND.WaitStart && t.get(i, F.WaitStart.reason) === REASON.Lock && t.thread(i) !== SCHEDULER,
    );
  },

  'graph-ready': (track) => {
    const t = track.model.trace;
    // A request that entered with edges becomes ready when a worker removes
    // its last dependency: the worker's removal (its step, after the Ready).
    const ready = first(track, (i) => t.kind(i) === KIND.Ready && t.thread(i) !== SCHEDULER);
    if (ready < 0) return -1;
    const w = t.thread(ready);
    for (let i = ready + 1; i < Math.min(t.length, ready + 256); i++) {
      if (t.thread(i) === w && t.kind(i) === KIND.GraphRemove) return i;
    }
    return ready;
  },
};

export const sccBookmarks: Record<string, Finder> = {
  'scc-cycle': (track) => {
    const t = track.model.trace;
    // The first SCC of several instances, once all its members are recorded
    // (its box is drawn with them).
    const found = first(track, (i) => t.kind(i) === KIND.GroupFound && t.get(i, F.GroupFound.size) > 1);
    if (found < 0) return -1;
    const group = t.get(found, F.GroupFound.group);
    let last = found;
    for (let i = found + 1; i < t.length; i++) {
      if (t.kind(i) === KIND.GroupMember && t.get(i, F.GroupMember.group) === group) last = i;
      else if (t.kind(i) === KIND.GroupFound) break;
    }
    return last;
  },

  'scc-wait': firstWait(REASON.Scc),

  'scc-parallel': (track) => {
    const t = track.model.trace;
    // An SCC started while another one runs on another worker.
    const running = new Map<number, number>();
    return first(track, (i) => {
      const k = t.kind(i);
      if (k === KIND.SccStart) {
        for (const w of running.values()) if (w !== t.thread(i)) return true;
        running.set(t.get(i, F.SccStart.group), t.thread(i));
      } else if (k === KIND.SccEnd) running.delete(t.get(i, F.SccEnd.group));
      return false;
    });
  },
};
