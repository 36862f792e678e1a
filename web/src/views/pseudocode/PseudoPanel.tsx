/**
 * The pseudo-code panel: the listings of the scheduler that produced the
 * trace, with the line of the event at the replay position highlighted.
 * Listings come from the files beside this one (`early.ts`,
 * `work-stealing.ts`, ...), each exporting a `PseudoCode` (see `types.ts`)
 * that its family module registers; a new family's listing is picked up
 * without changing this panel.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import {
  F,
  FLAG_READY_FLAG,
  FOCUS,
  KIND,
  KIND_NAMES,
  REASON_NAMES,
  SCHEDULER,
  describe,
  field,
  type DescribeOptions,
  type FieldWord,
  type TraceEvent,
} from '../../trace/codec';
import { onEvent } from '../../trace/dispatch';
import type { ReplayState } from '../../trace/state';
import { profileOf } from '../families';
import { JumpButtons } from '../jumps';
import { caption } from '../narrate';
import { useReplay } from '../../replay/store';
import type { Track } from '../../replay/store';
import { useDisplay } from '../display';
import { markCutRows } from '../wholeRows';
import { useGuardLine } from '../breakit';
import {
  codes,
  lineFor,
  loadPseudoCode,
  pseudoCodePending,
  type EventKindName,
  type PseudoCode,
  type PseudoEvent,
  type PseudoTarget,
} from './types';

export { codes };

export function codeFor(scheduler: string, all: readonly PseudoCode[] = codes): PseudoCode | null {
  return all.find((c) => c.schedulers.includes(scheduler)) ?? null;
}

/** A scheduler's listings as a component sees them: there, being fetched, or not fetched (the network). */
export interface PseudoCodeState {
  code: PseudoCode | null;
  loading: boolean;
  failed: boolean;
}

/**
 * `scheduler`'s listings, fetching them on first need (a family may keep
 * its listings in a chunk of their own, views/family.ts): the component
 * renders again once they are registered.
 */
export function usePseudoCode(scheduler: string | undefined): PseudoCodeState {
  const [, setFetched] = useState(0);
  const [failedFor, setFailedFor] = useState<string | null>(null);
  const code = scheduler ? codeFor(scheduler) : null;
  const pending = !!scheduler && !code && pseudoCodePending(scheduler);
  useEffect(() => {
    if (!pending || !scheduler) return;
    let live = true;
    loadPseudoCode(scheduler).then(
      () => live && setFetched((n) => n + 1),
      () => live && setFailedFor(scheduler),
    );
    return () => {
      live = false;
    };
  }, [pending, scheduler]);
  const failed = pending && failedFor === scheduler;
  return { code, loading: pending && !failed, failed };
}

/** What the handlers below fill in for one event. */
interface Filling {
  out: PseudoEvent;
  get(w: FieldWord): number;
  /** Sets the request and, when known, its class and whether the run maps the class sequentially. */
  withReq(req: number, cls?: number): void;
}

/**
 * Per kind: the fields of a trace event the panel's listings read. The
 * kinds every family shares have a handler; any other kind (a family's
 * own) gets its request (`FOCUS`: its first request field) and the fields
 * named `executor`, `victim`, `count` and `ready`, so no family's kind is
 * named here (its rules read the rest in `fields`).
 */
const FILL = onEvent<TraceEvent, Filling, void>(
  {
    Delivered: (_e, c) => c.withReq(c.get(F.Delivered.req), c.get(F.Delivered.class)),
    Enqueued: (_e, c) => c.withReq(c.get(F.Enqueued.req)),
    Dequeued: (_e, c) => c.withReq(c.get(F.Dequeued.req)),
    ExecStart: (_e, c) => c.withReq(c.get(F.ExecStart.req)),
    ExecEnd: (_e, c) => c.withReq(c.get(F.ExecEnd.req)),
    WaitStart: (_e, c) => {
      c.out.reason = REASON_NAMES[c.get(F.WaitStart.reason)];
      c.withReq(c.get(F.WaitStart.req));
    },
    WaitEnd: (_e, c) => {
      c.out.reason = REASON_NAMES[c.get(F.WaitEnd.reason)];
      c.withReq(c.get(F.WaitEnd.req));
    },
    SyncArrive: (_e, c) => {
      c.withReq(c.get(F.SyncArrive.req), c.get(F.SyncArrive.class));
      c.out.cycle = c.get(F.SyncArrive.cycle);
    },
    SyncRelease: (_e, c) => {
      c.withReq(c.get(F.SyncRelease.req), c.get(F.SyncRelease.class));
      c.out.cycle = c.get(F.SyncRelease.cycle);
      c.out.executor = c.get(F.SyncRelease.executor);
    },
  },
  (e, c) => {
    const w = FOCUS[e.kind] ?? -1;
    if (w >= 0) c.withReq(c.get(w as FieldWord));
    const f = c.out.fields ?? {};
    if (f.executor !== undefined) c.out.executor = f.executor;
    if (f.victim !== undefined) c.out.victim = f.victim;
    if (f.count !== undefined) c.out.count = f.count;
    if (f.ready !== undefined) c.out.ready = f.ready !== 0;
  },
);

/** The panel's view of a trace event (`index`: its position in the trace, for what it needs of the events before). */
export function pseudoEvent(e: TraceEvent, track: Track, index = -1): PseudoEvent {
  const kind = KIND_NAMES[e.kind] as EventKindName;
  const out: PseudoEvent = { kind, thread: e.thread === SCHEDULER ? 'scheduler' : e.thread };
  const reqClass = track.model.index.reqClass;
  const clsOfReq = (r: number) => (r < reqClass.length ? reqClass[r] : -1);
  const withReq = (req: number, cls = clsOfReq(req)) => {
    out.req = req;
    if (cls >= 0) {
      out.class = cls;
      const m = track.mapping[cls];
      if (m) out.sequential = m.sequential;
    }
  };
  out.fields = namedFields(e, kind);
  FILL(e, { out, get: (w) => field(e, w), withReq });
  codeFor(track.scheduler)?.annotate?.(out, track.model.trace, index);
  return out;
}

/** Every field of `e` under its vocabulary name (`F`): what a rule of a kind without a handler above reads. */
function namedFields(e: TraceEvent, kind: EventKindName): Record<string, number> {
  const words: Readonly<Record<string, FieldWord>> =
    (F as Readonly<Record<string, Record<string, FieldWord>>>)[kind] ?? {};
  const out: Record<string, number> = {};
  for (const name in words) out[name] = field(e, words[name]);
  return out;
}

/**
 * The height of listing box `b` that shows: its own, or less when an
 * ancestor that clips what does not fit (its panel in compare mode's short
 * panels, the pseudo-code column) cuts it off above the box's bottom.
 * Ancestors that scroll do not count: scrolling them shows the rest.
 */
function visibleHeight(b: HTMLElement): number {
  let bottom = Infinity;
  for (let a = b.parentElement; a; a = a.parentElement) {
    const overflow = getComputedStyle(a).overflowY;
    if (overflow !== 'hidden' && overflow !== 'clip') continue;
    bottom = Math.min(bottom, a.getBoundingClientRect().top + a.clientTop + a.clientHeight);
  }
  const cut = bottom - b.getBoundingClientRect().top;
  return Math.max(0, Math.min(b.clientHeight, cut));
}

/** The rows of listing box `b` that are scrolled as units: listing titles and lines. */
function rows(b: HTMLElement): HTMLElement[] {
  return [...b.querySelectorAll<HTMLElement>('.pseudo-listing > h4, .pseudo-line, .pseudo-source')];
}

/**
 * Scroll listing box `b` (only it, never the page) so that line `first`
 * is in view, and line `also` with it when both fit; nothing moves when
 * they already are in view. The box scrolls to the top of a row, never
 * into the middle of one. Reads layout: call it in an animation frame.
 */
function reveal(b: HTMLElement, first: HTMLElement, also: HTMLElement | null): void {
  const vh = visibleHeight(b);
  const lo = Math.min(first.offsetTop, also?.offsetTop ?? Infinity);
  const hi = Math.max(first.offsetTop + first.offsetHeight, also ? also.offsetTop + also.offsetHeight : -Infinity);
  const [top, height] = hi - lo <= vh ? [lo, hi - lo] : [first.offsetTop, first.offsetHeight];
  if (top < b.scrollTop || top + height > b.scrollTop + vh) {
    // A third of the box above the lines, unless the box is too low for
    // that and the whole span (compare mode's short listings).
    const above = Math.max(0, Math.min(vh / 3, vh - height));
    const want = Math.max(0, top - above);
    // The first row that starts at or below `want` (at worst `first` itself): no row is cut at the top.
    const row = rows(b).find((r) => r.offsetTop >= want - 0.5);
    b.scrollTop = Math.min(row?.offsetTop ?? want, top);
  }
  startAtRow(b, top, top + height, vh);
  hideCutRows(b);
}

/**
 * A row of listing box `b` may straddle its top (the box was resized or
 * scrolled by hand, or its scroll stopped at the listing's end): start at
 * the next row, or where the listing's end stops that, at the straddling
 * row itself, whichever keeps the span `top`..`bottom` (the lines revealed)
 * in view; else leave the scroll (the row is hidden, a gap above the lines).
 */
function startAtRow(b: HTMLElement, top: number, bottom: number, vh: number): void {
  const was = b.scrollTop;
  const r = rows(b).find((x) => x.offsetTop < was - 0.5 && x.offsetTop + x.offsetHeight > was + 0.5);
  if (!r) return;
  const down = r.offsetTop + r.offsetHeight;
  if (down <= top) {
    b.scrollTop = down;
    if (b.scrollTop >= down - 0.5) return;
  }
  b.scrollTop = bottom <= r.offsetTop + vh ? r.offsetTop : was;
}

/** No current line: the listing starts at a row's top anyway, and shows whole rows. */
function settle(b: HTMLElement): void {
  startAtRow(b, Infinity, -Infinity, visibleHeight(b));
  hideCutRows(b);
}

/**
 * Hide the rows of listing box `b` that its visible part cuts (the top of
 * the box when scrolled by hand, its bottom or the panel's): the listing
 * shows whole lines only, never the upper or lower half of one. Hidden
 * rows keep their room (visibility), so nothing else moves.
 */
function hideCutRows(b: HTMLElement): void {
  const top = b.getBoundingClientRect().top;
  markCutRows(rows(b), top, top + visibleHeight(b));
}

/**
 * Whenever listing box `box` or its panel changes size (another run's
 * caption grew, a run was added) or the box scrolls: in the next frame,
 * bring `line` back into view if it left it, and hide the rows cut again
 * (`listings`: the box's content, which mounts it).
 */
function useWholeRows(
  box: RefObject<HTMLDivElement | null>,
  line: RefObject<HTMLLIElement | null>,
  listings: unknown,
): void {
  useEffect(() => {
    const b = box.current;
    if (!b) return;
    let frame = 0;
    const later = (f: () => void) => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(f);
    };
    const resized = () => later(() => (line.current ? reveal(b, line.current, null) : settle(b)));
    const scrolled = () => later(() => hideCutRows(b));
    const watch = new ResizeObserver(resized);
    watch.observe(b);
    const panel = b.closest('.pseudo-panel');
    if (panel) watch.observe(panel);
    b.addEventListener('scroll', scrolled, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      watch.disconnect();
      b.removeEventListener('scroll', scrolled);
    };
  }, [box, line, listings]);
}

/** A barrier has no cycles: its sync events are worded without one. */
function describeOptions(track: Track): DescribeOptions {
  return { cycle: profileOf(track.scheduler).sync?.kind !== 'barrier' };
}

/** How many events before the current one the panel lists. */
const RECENT = 5;

/** The few events just before the current one, newest first, so a step has context. */
function RecentEvents({ track, position }: { track: Track; position: number }) {
  const names = track.classNames;
  const items: { i: number; text: string }[] = [];
  const opts = describeOptions(track);
  for (let i = position - 2; i >= Math.max(0, position - 1 - RECENT); i--) {
    items.push({ i, text: describe(track.model.trace.event(i), (c) => names[c] ?? `C${c}`, opts) });
  }
  if (items.length === 0) return null;
  return (
    <ol className="recent-events" aria-label="previous events">
      {items.map((x) => (
        <li key={x.i}>
          <span className="ln">{x.i + 1}</span> {x.text}
        </li>
      ))}
    </ol>
  );
}

/** Bookkeeping events (queue samples, `ready-flag` changes): never the line a step is about. */
const quiet = (k: number) => k === KIND.QueueLen || !!FLAG_READY_FLAG[k];

/**
 * The line of the step that brought the replay to `position`: the last
 * event of the step's own thread that has a line of its own (queue samples
 * and flags skipped), so another thread's event recorded meanwhile (a
 * sleeper waking up) does not move the line away from the caption; else
 * the last event of any thread that has one.
 */
export function stepLine(code: PseudoCode, track: Track, position: number, start: number): PseudoTarget | null {
  const t = track.model.trace;
  const from = Math.max(0, start, position - 64);
  const own = start >= 0 && start < t.length ? t.thread(start) : -1;
  let other: PseudoTarget | null = null;
  for (let i = position - 1; i >= from; i--) {
    if (quiet(t.kind(i))) continue;
    const target = lineFor(code, pseudoEvent(t.event(i), track, i));
    if (!target) continue;
    if (t.thread(i) === own) return target;
    other ??= target;
  }
  return other;
}

export interface PseudoPanelProps {
  track: Track | undefined;
  position: number;
  state: ReplayState | undefined;
  /** Compare mode: the panel is one of several (title and own jump buttons). */
  index?: number;
  compare?: boolean;
  /** Compare mode: this run leads the replay (its panel gets the room; see classroom.css). */
  leading?: boolean;
}

export function PseudoPanel({ track, position, state, index = 0, compare = false, leading = false }: PseudoPanelProps) {
  const { code, loading, failed } = usePseudoCode(track?.scheduler);
  const ev = track?.model.eventBefore(position) ?? null;
  // Playing by run time moves thousands of events a second: no sentence can
  // be read at that pace, so the caption waits for a pause (or step play).
  const racing = useReplay((s) => s.playing && s.mode === 'time');
  const cap = track && state && !racing ? caption(track, position, state) : null;
  const target: PseudoTarget | null = code && ev && track ? stepLine(code, track, position, cap?.start ?? 0) : null;
  const present = useDisplay((s) => s.present);
  // Break-it mode: the line the dropped rule would have enforced.
  const guard = useGuardLine(track?.scheduler, code);
  const hl = useRef<HTMLLIElement>(null);
  const gl = useRef<HTMLLIElement>(null);
  /** A find's guard line just appeared: the next move of the current line keeps it in view. */
  const keepGuard = useRef(false);
  const guardKey = guard ? `${guard.listing}:${guard.n}` : null;
  const [pinned, setPinned] = useState<string[]>([]);
  const box = useRef<HTMLDivElement>(null);
  // Large type moves the lines, and a longer or shorter caption moves and
  // resizes the listing box: scroll again when either changes.
  const large = useDisplay((s) => s.large);
  const capText = cap?.text;
  useWholeRows(box, hl, code?.listings);
  useEffect(() => {
    // Scroll the panel only (not the page), and only when the line is out
    // of view: scrollIntoView would also scroll the page and lay it out
    // again on every replay step.
    // Read the layout in the next frame, where the browser lays the page
    // out anyway: reading it here would force a second layout per step.
    // Right after a find opened, its guard line keeps priority for one more
    // move (the find's jump to its moment), then the current line leads.
    const guardFirst = keepGuard.current;
    keepGuard.current = false;
    const id = requestAnimationFrame(() => {
      const b = box.current;
      if (guardFirst && gl.current && b) reveal(b, gl.current, hl.current);
      else if (hl.current && b) reveal(b, hl.current, gl.current);
      else if (b) settle(b);
    });
    return () => cancelAnimationFrame(id);
  }, [target?.listing, target?.line, large, capText]);
  // Break-it: when a find opens (or its line changes), its guard line comes
  // into view first (with the current line too, when both fit), wherever the
  // listing had been scrolled. Declared after the effect above, so its
  // frame runs after that one's.
  useEffect(() => {
    keepGuard.current = guardKey !== null;
    const id = requestAnimationFrame(() => {
      if (gl.current && box.current) reveal(box.current, gl.current, hl.current);
    });
    return () => cancelAnimationFrame(id);
  }, [guardKey, large]);
  if (!track) return null;
  const names = track.classNames;
  return (
    <aside className="pseudo-panel" data-testid="pseudo-panel" data-track={track.key} data-leading={leading}>
      <div className="pseudo-head">
        <h3>
          {compare ? track.label : 'What happens'}
          {(!compare || track.label !== track.scheduler) && <span className="muted"> · {track.scheduler}</span>}
        </h3>
        {compare && <JumpButtons i={index} suffix={`-${index}`} />}
      </div>
      <p className="step-caption" data-testid="step-caption" aria-live="polite" title={cap?.text}>
        {cap
          ? cap.text
          : racing
            ? 'Playing by run time: pause (space) or pick a step pace to read each step.'
            : 'Before the first step: press step ▶ or play.'}
      </p>
      <p className="pseudo-event" data-testid="current-event">
        {ev ? describe(ev, (c) => names[c] ?? `C${c}`, describeOptions(track)) : 'Before the first event.'}
      </p>
      {!present && !compare && <RecentEvents track={track} position={position} />}
      {!target && ev && code && <p className="muted">This event has no line of its own.</p>}
      {!code ? (
        <p className="muted" data-testid={loading ? 'pseudo-loading' : undefined}>
          {loading
            ? 'Loading the pseudo-code…'
            : failed
              ? `The pseudo-code of ${track.scheduler} could not be fetched; it is tried again when the panel is shown again.`
              : `No pseudo-code listing for ${track.scheduler} yet.`}
        </p>
      ) : (
        <div className="pseudo-listings" ref={box}>
          {code.listings.map((l, k) => {
            // The listing of the current line is open; the others fold to
            // their title (click to open) so the line fits on a projector.
            const current = target ? target.listing === l.id : k === 0;
            const open = current || pinned.includes(l.id) || guard?.listing === l.id;
            return (
              <div key={l.id} className="pseudo-listing" data-listing={l.id} data-open={open}>
                <h4>
                  <button
                    type="button"
                    className="listing-toggle"
                    aria-expanded={open}
                    disabled={current}
                    onClick={() => setPinned((p) => (p.includes(l.id) ? p.filter((x) => x !== l.id) : [...p, l.id]))}
                  >
                    {open ? '▾' : '▸'} {l.title}
                  </button>
                </h4>
                {open && (
                  <ol>
                    {l.lines.map((line) => {
                      const on = target?.listing === l.id && target.line === line.n;
                      const guarded = guard?.listing === l.id && guard.n === line.n;
                      return (
                        <li
                          key={line.n}
                          ref={on ? hl : guarded ? gl : undefined}
                          className={`pseudo-line${on ? ' current' : ''}${guarded ? ' guard' : ''}`}
                          data-current={on ? 'true' : undefined}
                          data-testid={guarded ? 'pseudo-guard-line' : undefined}
                          title={guarded ? 'the rule the broken variant dropped stands here' : undefined}
                          style={{ paddingLeft: `${line.indent * 1.2}em` }}
                        >
                          <span className="ln">{line.n}</span> {line.text}
                          {line.comment && <span className="pseudo-comment"> {line.comment}</span>}
                        </li>
                      );
                    })}
                  </ol>
                )}
              </div>
            );
          })}
          <p className="muted pseudo-source">{code.source}</p>
        </div>
      )}
    </aside>
  );
}
