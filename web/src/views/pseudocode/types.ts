/**
 * The shape of a pseudo-code listing for the classroom panel.
 *
 * Each executor family (early, busy-wait, work stealing, ...) exports one
 * `PseudoCode` value from its own file in this folder (`early.ts`,
 * `work-stealing.ts`, ...), which its family module lists
 * (`FamilyModule.pseudocode`, views/family.ts). The panel shows the
 * listings of the scheduler that produced the trace and highlights the line
 * that the trace event at the replay position corresponds to.
 *
 * The mapping from events to lines is pure data plus one small function, so
 * the panel needs no knowledge of any particular algorithm.
 */

import type { KindName, PackedTrace, ReasonName } from '../../trace/codec';

/**
 * Kind names of the trace vocabulary (generated from the engine's table,
 * `web/src/trace/vocabulary.gen.ts`): a listing that binds an event the
 * engine does not emit does not compile.
 */
export type EventKindName = KindName;

/** Wait reasons of WaitStart / WaitEnd, as the engine names them. */
export type WaitReasonName = ReasonName;

/** One line of a listing. `n` is the number printed in the margin. */
export interface PseudoLine {
  n: number;
  /** The text without leading indentation. */
  text: string;
  /** Indentation depth (0 = top level). */
  indent: number;
  /** Optional short comment shown dimmed at the right. */
  comment?: string;
}

/** One algorithm listing, e.g. "Algorithm 2: worker thread". */
export interface PseudoListing {
  /** Stable id used by rules, e.g. `scheduler`, `worker`, `steal`. */
  id: string;
  title: string;
  lines: PseudoLine[];
}

/**
 * What the panel knows about the event at the replay position. `thread` is
 * the worker index or `'scheduler'`; the other fields are the packed
 * event's fields under their trace names (absent when the kind has none).
 */
export interface PseudoEvent {
  kind: EventKindName;
  thread: number | 'scheduler';
  reason?: WaitReasonName;
  req?: number;
  class?: number;
  /** Whether the request's class is sequential in the run's mapping. */
  sequential?: boolean;
  /** The executing thread (a sync's release), when the kind has an `executor` field. */
  executor?: number;
  /** The thread stolen from, when the kind has a `victim` field. */
  victim?: number;
  cycle?: number;
  ready?: boolean;
  /** How many requests or events moved (a steal), when the kind has a `count` field. */
  count?: number;
  /**
   * Every field of the event under its name in the engine's vocabulary (`F`, e.g. `heuristic`, `op`):
   * a family's rules read a new kind's fields here, with nothing added to this type or the panel.
   */
  fields?: Readonly<Record<string, number>>;
  /**
   * Set by the repartitioning listings' `annotate`: ExecStart / ExecEnd of a multi-partition sync's
   * request (its thread arrived at it); Enqueued of a sync's share (the scheduler queued r as a sync just before).
   */
  inSync?: boolean;
}

/** Where an event puts the reader: a listing and a line number in it. */
export interface PseudoTarget {
  listing: string;
  line: number;
}

/**
 * A rule maps events to a line. The first rule whose fields all match wins;
 * fields left out match anything. Use `when` for conditions that fields
 * cannot express (e.g. "the executor is the thread itself").
 */
export interface PseudoRule {
  kind: EventKindName;
  reason?: WaitReasonName;
  sequential?: boolean;
  /** `'scheduler'` or `'worker'` (any worker). */
  by?: 'scheduler' | 'worker';
  when?: (e: PseudoEvent) => boolean;
  target: PseudoTarget;
}

/** A family's pseudo-code: which scheduler ids it covers, listings, rules. */
export interface PseudoCode {
  /** Scheduler ids, e.g. `['early']`, `['ws-conservative', 'ws-moderate']`. */
  schedulers: string[];
  /** Short source note naming the paper by title and authors (views/papers.ts), never by a file number. */
  source: string;
  listings: PseudoListing[];
  rules: PseudoRule[];
  /**
   * What the rules need from the trace around event `index` (-1: unknown), added to `e` before they
   * are matched, for the listing's schedulers only (e.g. repartitioning's `inSync`).
   */
  annotate?: (e: PseudoEvent, trace: PackedTrace, index: number) => void;
}

/** The first target whose rule matches `e`, or `null`. */
export function lineFor(code: PseudoCode, e: PseudoEvent): PseudoTarget | null {
  for (const r of code.rules) {
    if (r.kind !== e.kind) continue;
    if (r.reason !== undefined && r.reason !== e.reason) continue;
    if (r.sequential !== undefined && r.sequential !== e.sequential) continue;
    if (r.by === 'scheduler' && e.thread !== 'scheduler') continue;
    if (r.by === 'worker' && e.thread === 'scheduler') continue;
    if (r.when && !r.when(e)) continue;
    return r.target;
  }
  return null;
}

/** Every registered listing (`registerFamily` adds its family's, views/family.ts). */
export const codes: PseudoCode[] = [];

export function registerPseudoCode(code: PseudoCode): void {
  if (!codes.includes(code)) codes.push(code);
}

/** A family's listings not fetched yet (a chunk of their own): whose they are and how to fetch them. */
interface PendingCode {
  covers: (scheduler: string) => boolean;
  load: () => Promise<PseudoCode[]>;
  /** The fetch under way (one per family, however many panels ask). */
  loading?: Promise<void>;
}

/** Invariant: a family's listings are either in `codes` or here, never both (a fetch moves them). */
const pending: PendingCode[] = [];

/** Registers listings fetched on first need: `load` gives those of every scheduler `covers` accepts. */
export function registerPseudoCodeLoader(
  covers: (scheduler: string) => boolean,
  load: () => Promise<PseudoCode[]>,
): void {
  pending.push({ covers, load });
}

/** Whether `scheduler`'s listings are still to be fetched. */
export function pseudoCodePending(scheduler: string): boolean {
  return pending.some((p) => p.covers(scheduler));
}

function fetchPending(p: PendingCode): Promise<void> {
  p.loading ??= p.load().then(
    (loaded) => {
      for (const c of loaded) registerPseudoCode(c);
      pending.splice(pending.indexOf(p), 1);
    },
    (e: unknown) => {
      // Dropped, so that the next need fetches again (the network may be back).
      p.loading = undefined;
      throw e;
    },
  );
  return p.loading;
}

/** Fetches and registers `scheduler`'s listings if they are pending; resolves at once when nothing is. */
export function loadPseudoCode(scheduler: string): Promise<void> {
  const p = pending.find((x) => x.covers(scheduler));
  return p ? fetchPending(p) : Promise.resolve();
}

/** Fetches every pending listing (tests and checks that read them all). */
export async function loadAllPseudoCode(): Promise<void> {
  await Promise.all([...pending].map(fetchPending));
}
