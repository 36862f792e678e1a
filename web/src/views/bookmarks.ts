/**
 * Bookmarks: the moments a lesson points at (the first steal, the first
 * barrier where two threads meet, ...), found in a track's trace. A finder
 * scans the trace once, stops at the first match, and returns the position
 * just after the event (so the event is the current one and the state
 * includes it). New families add finders with `registerFinder`.
 */
import { F, KIND, NO_REQUEST, REASON, SCHEDULER } from '../trace/codec';
import type { Track } from '../replay/store';
import { nextStep } from '../replay/steps';

export interface Bookmark {
  /** Position to seek to (the matching event is event position-1). */
  position: number;
  /** The view to show it in. */
  view: string;
  title: string;
}

/** Returns the index of the first matching event, or -1. */
export type Finder = (track: Track) => number;

const finders = new Map<string, Finder>();

export function registerFinder(id: string, f: Finder): void {
  finders.set(id, f);
}

/** Is `id` a registered finder? (lessons.json names finders by id.) */
export function knownFinder(id: string): boolean {
  return finders.has(id);
}

/** The first event `pred` accepts, or -1 (one pass over the packed words). */
function first(track: Track, pred: (i: number) => boolean): number {
  const t = track.model.trace;
  for (let i = 0; i < t.length; i++) if (pred(i)) return i;
  return -1;
}

/** Is class `cls` one several threads must meet for (sequential, two or more threads)? */
function meets(track: Track, cls: number): boolean {
  const m = track.mapping[cls];
  return !!m && m.sequential && m.threads.length >= 2;
}

registerFinder('seq-dispatch', (track) => {
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
});

registerFinder('barrier-gathered', (track) => {
  const t = track.model.trace;
  const cls = track.model.index.reqClass;
  // The executor starting a request of a class whose threads all met.
  return first(track, (i) => {
    if (t.kind(i) !== KIND.ExecStart) return false;
    const req = t.get(i, F.ExecStart.req);
    return req < cls.length && meets(track, cls[req]);
  });
});

registerFinder('barrier-release', (track) => {
  const t = track.model.trace;
  return first(track, (i) => t.kind(i) === KIND.SyncRelease && meets(track, t.get(i, F.SyncRelease.class)));
});

registerFinder('cycle-spin', (track) => {
  const t = track.model.trace;
  return first(track, (i) => t.kind(i) === KIND.WaitStart && t.get(i, F.WaitStart.reason) === REASON.Cycle);
});

registerFinder('cycle-release', (track) => {
  const t = track.model.trace;
  // A release after someone spun in that cycle.
  const spin = first(track, (i) => t.kind(i) === KIND.WaitStart && t.get(i, F.WaitStart.reason) === REASON.Cycle);
  if (spin < 0) return -1;
  const req = t.get(spin, F.WaitStart.req);
  for (let i = spin + 1; i < t.length; i++) {
    if (t.kind(i) === KIND.SyncRelease && t.get(i, F.SyncRelease.req) === req) return i;
  }
  return -1;
});

registerFinder('full-queue', (track) => {
  const t = track.model.trace;
  return first(track, (i) => t.kind(i) === KIND.WaitStart && t.get(i, F.WaitStart.reason) === REASON.FullQueue);
});

registerFinder('steal', (track) => {
  const t = track.model.trace;
  return first(track, (i) => t.kind(i) === KIND.Steal);
});

registerFinder('marker-wait', (track) => {
  const t = track.model.trace;
  return first(track, (i) => t.kind(i) === KIND.WaitStart && t.get(i, F.WaitStart.reason) === REASON.Marker);
});

registerFinder('steal-done', (track) => {
  const t = track.model.trace;
  return first(track, (i) => t.kind(i) === KIND.StealDone);
});

// ---------------------------------------------------------------------------
// Late scheduling (CBASE): the one graph, its bound and its lock.

registerFinder('graph-full', (track) => {
  const t = track.model.trace;
  return first(track, (i) => t.kind(i) === KIND.WaitStart && t.get(i, F.WaitStart.reason) === REASON.FullGraph);
});

registerFinder('graph-lock', (track) => {
  const t = track.model.trace;
  // A worker (not the scheduler) queued on the graph's lock: everyone takes the same lock.
  return first(
    track,
    (i) => t.kind(i) === KIND.WaitStart && t.get(i, F.WaitStart.reason) === REASON.Lock && t.thread(i) !== SCHEDULER,
  );
});

registerFinder('graph-ready', (track) => {
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
});

// ---------------------------------------------------------------------------
// ePaxos / PePaxos: SCCs.

registerFinder('scc-cycle', (track) => {
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
});

registerFinder('scc-wait', (track) => {
  const t = track.model.trace;
  return first(track, (i) => t.kind(i) === KIND.WaitStart && t.get(i, F.WaitStart.reason) === REASON.Scc);
});

registerFinder('scc-parallel', (track) => {
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
});

// ---------------------------------------------------------------------------
// Repartitioning.

registerFinder('scheduler-pause', (track) => {
  const t = track.model.trace;
  return first(track, (i) => t.kind(i) === KIND.SchedulerPause);
});

registerFinder('map-switch', (track) => {
  const t = track.model.trace;
  return first(track, (i) => t.kind(i) === KIND.MapSwitch);
});

registerFinder('part-sync', (track) => {
  const t = track.model.trace;
  // A request over several partitions released after its workers met.
  return first(track, (i) => t.kind(i) === KIND.PartSyncRelease && t.get(i, F.PartSyncRelease.req) !== NO_REQUEST);
});

// ---------------------------------------------------------------------------
// Event-coloring runtimes (paper 002): whole colors stolen, and steals refused.

registerFinder('color-steal', (track) => {
  const t = track.model.trace;
  return first(track, (i) => t.kind(i) === KIND.ColorSteal);
});

/** A steal that took longer than the annotated work it moved: the naive steal of Libasync-smp on short events. */
registerFinder('costly-steal', (track) => {
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
});

registerFinder('steal-refused', (track) => {
  const t = track.model.trace;
  return first(track, (i) => t.kind(i) === KIND.StealRefused);
});

/** Mely's time-left heuristic: the color's time left is not above the cost of a steal. */
registerFinder('time-left-refused', (track) => {
  const t = track.model.trace;
  return first(track, (i) => t.kind(i) === KIND.StealRefused && t.get(i, F.StealRefused.heuristic) === 2);
});

/** The bookmark `finder` of `track`, or null when the run never did it (or the finder is unknown). */
export function findBookmark(track: Track, finder: string, view: string, title: string): Bookmark | null {
  const f = finders.get(finder);
  if (!f) return null;
  const i = f(track);
  return i < 0 ? null : { position: i + 1, view, title };
}

/** The run a bookmark belongs to: its `run` (label or scheduler id), else the lesson's first run. */
export interface BookmarkSpec {
  finder: string;
  view: string;
  title: string;
  run?: string;
}

/**
 * Look a lesson bookmark up in the track of the run it names, else in the
 * first track that reached it (compare mode ticks several runs, and the
 * first may be one that never does it: early has no busy-wait cycle).
 * Returns the track index with the bookmark, or null.
 */
export function findBookmarkIn(
  tracks: readonly Track[],
  b: BookmarkSpec,
  fallback: readonly string[] = [],
): { track: number; mark: Bookmark } | null {
  // Track labels are `scheduler` or `scheduler (label)` (views/tracks.ts runLabel).
  const named = (t: Track, run: string) =>
    t.run === run || t.scheduler === run || t.label === run || t.label === `${t.scheduler} (${run})`;
  const order: number[] = [];
  const add = (i: number) => {
    if (i >= 0 && !order.includes(i)) order.push(i);
  };
  if (b.run) add(tracks.findIndex((t) => named(t, b.run as string)));
  for (const r of fallback) add(tracks.findIndex((t) => named(t, r)));
  tracks.forEach((_, i) => add(i));
  for (const i of order) {
    const mark = findBookmark(tracks[i], b.finder, b.view, b.title);
    if (mark) return { track: i, mark };
  }
  return null;
}
