/**
 * Captions: one plain sentence per algorithm step (replay/steps.ts) saying
 * what happens and why, shown next to the highlighted pseudo-code line.
 *
 * A family's module declares its narrators (`FamilyModule.captions`,
 * views/family.ts, which registers them here); the first narrator of the
 * run's family that returns a sentence wins, then the generic one,
 * which only restates the event. Narrators read the step's events and the
 * replay state after them, and say nothing the trace does not show.
 */
import { describe, named, SCHEDULER, type NamedEvent, type TraceEvent } from '../trace/codec';
import { onNamed, type EventOf, type KindName, type NamedHandlers } from '../trace/dispatch';
import type { ReplayState } from '../trace/state';
import type { Track } from '../replay/store';
import { stepStartBefore } from '../replay/steps';
import { profileOf, type Family, type SchedulerProfile } from './profiles';

export interface StepContext {
  track: Track;
  profile: SchedulerProfile;
  /** State after the step (at the replay position). */
  state: ReplayState;
  /**
   * The step's first event (its start) and every event of it up to the
   * position (at most 64), with their fields by name (from the engine's
   * vocabulary).
   */
  start: NamedEvent;
  events: NamedEvent[];
  /** The same events in packed form, for `describe`. */
  raw: TraceEvent[];
  className(c: number): string;
  /** Class of a request (-1 unknown). */
  classOf(req: number): number;
  /** Is the class sequential in this run's mapping (every thread of it gets the request)? */
  sequential(cls: number): boolean;
  /** The threads a class is mapped to. */
  members(cls: number): number[];
}

export type Narrator = (c: StepContext) => string | null;

/** A narrator from one sentence maker per kind of the step's first event (other kinds: null, the next narrator speaks). */
export function narratorOf(sentences: NamedHandlers<StepContext, string | null>): Narrator {
  const sentence = onNamed(sentences, () => null);
  return (c) => sentence(c.start, c);
}

/** The step's events of one kind, with their fields by name. */
export function eventsOf<K extends KindName>(c: StepContext, kind: K): EventOf<K>[] {
  return c.events.filter((e): e is EventOf<K> => e.kind === kind);
}

const narrators = new Map<Family | 'all', Narrator[]>();

export function registerNarrator(family: Family | 'all', n: Narrator): void {
  const list = narrators.get(family) ?? [];
  list.push(n);
  narrators.set(family, list);
}

/** "r12 (W1)" */
export function reqName(c: StepContext, req: number): string {
  const cls = c.classOf(req);
  return cls >= 0 ? `r${req} (${c.className(cls)})` : `r${req}`;
}

/** "The scheduler" or "T3". */
export function who(thread: number): string {
  return thread === SCHEDULER ? 'The scheduler' : `T${thread}`;
}

/** "T0 and T1", "T0, T1 and T2". */
export function threadList(ts: readonly number[]): string {
  const names = ts.map((t) => `T${t}`);
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** The sentence for the step that brought `track` to position p (null before the first event). */
export function caption(track: Track, p: number, state: ReplayState): { text: string; start: number } | null {
  const t = track.model.trace;
  const s = stepStartBefore(t, p);
  if (s < 0 || s >= t.length) return null;
  const raw: TraceEvent[] = [];
  for (let i = s; i < Math.min(p, s + 64); i++) raw.push(t.event(i));
  const events = raw.map(named);
  const reqClass = track.model.index.reqClass;
  const ctx: StepContext = {
    track,
    profile: profileOf(track.scheduler),
    state,
    start: events[0],
    events,
    raw,
    className: (cls) => (cls < 0 ? '?' : (track.classNames[cls] ?? `C${cls}`)),
    classOf: (req) => (req >= 0 && req < reqClass.length ? reqClass[req] : -1),
    sequential: (cls) => track.mapping[cls]?.sequential ?? false,
    members: (cls) => track.mapping[cls]?.threads ?? [],
  };
  const family = (track.family as Family | undefined) ?? ctx.profile.family;
  for (const n of [...(narrators.get(family) ?? []), ...(narrators.get('all') ?? [])]) {
    const text = n(ctx);
    if (text) return { text, start: s };
  }
  return { text: plainSentence(ctx), start: s };
}

/**
 * The generic sentence: the step's start event in plain words (never its
 * trace name), with the start of an execution when the step holds it.
 */
function plainSentence(c: StepContext): string {
  const e = c.start;
  if (e.kind === 'Dequeued') {
    const runs = c.events.some((x) => x.kind === 'ExecStart' && x.thread === e.thread && x.req === e.req);
    return `${who(e.thread)} takes ${reqName(c, e.req)} from its queue${runs ? ' and starts executing it' : ''}.`;
  }
  if (e.kind === 'ExecStart') return `${who(e.thread)} starts executing ${reqName(c, e.req)}.`;
  if (e.kind === 'ExecEnd') return `${who(e.thread)} has finished executing ${reqName(c, e.req)}.`;
  const line = describe(c.raw[0], c.className);
  // A sentence: capital first letter ("scheduler delivered..." -> "Scheduler delivered...").
  return `${line.charAt(0).toUpperCase()}${line.slice(1)}.`;
}
