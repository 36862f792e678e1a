/**
 * Bookmarks: the moments a lesson points at (the first steal, the first
 * barrier where two threads meet, ...), found in a track's trace. A finder
 * scans the trace once, stops at the first match, and returns the position
 * just after the event (so the event is the current one and the state
 * includes it). Each family module declares its finders
 * (`FamilyModule.bookmarks`, views/family.ts), registered here by id.
 */
import { F, KIND } from '../trace/codec';
import type { Track } from '../replay/store';

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
export function first(track: Track, pred: (i: number) => boolean): number {
  const t = track.model.trace;
  for (let i = 0; i < t.length; i++) if (pred(i)) return i;
  return -1;
}

/** The finder of the first event of kind `kind` (a `KIND` code). */
export function firstOfKind(kind: number): Finder {
  return (track) => first(track, (i) => track.model.trace.kind(i) === kind);
}

/** The finder of the first wait (WaitStart) for `reason` (a `REASON` code). */
export function firstWait(reason: number): Finder {
  return (track) => first(track, (i) => isWait(track, i, reason));
}

/** Is event `i` of the track a WaitStart for `reason`? */
export function isWait(track: Track, i: number, reason: number): boolean {
  const t = track.model.trace;
  return t.kind(i) === KIND.WaitStart && t.get(i, F.WaitStart.reason) === reason;
}

/** Is class `cls` one several threads must meet for (sequential, two or more threads)? */
export function meets(track: Track, cls: number): boolean {
  const m = track.mapping[cls];
  return !!m && m.sequential && m.threads.length >= 2;
}

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
