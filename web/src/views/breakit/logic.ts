/**
 * Break-it mode (issue 26, part 3), the pure part: which broken variants a
 * scheduler has (the engine's catalog: the rule each drops and the line of
 * the family's pseudo-code that rule stands on), the scenario text with one
 * selected, the oracle's sentence about the pair that ran out of order, and
 * where that pair is in the replayed trace (the moment and both threads'
 * lanes).
 */
import catalog from '../../engine/catalog.json';
import type { Violation } from '../../engine/protocol';
import { AUX_BASE, F, KIND, SCHEDULER, type PackedTrace } from '../../trace/codec';
import type { PseudoCode } from '../pseudocode/types';

/** A broken variant of a scheduler, as the catalog declares it. */
export interface BrokenVariant {
  /** The `fault` value that selects it. */
  name: string;
  /** The rule it drops, in one line. */
  rule: string;
  /** How the pseudo-code line the rule stands on begins (one per listing wording). */
  guard: string[];
}

interface CatalogEntry {
  id: string;
  faults: BrokenVariant[];
}

/** The broken variants of scheduler `id` (empty for an unknown id). */
export function brokenVariants(id: string): BrokenVariant[] {
  const entry = (catalog as { schedulers: CatalogEntry[] }).schedulers.find((s) => s.id === id);
  return entry?.faults ?? [];
}

/** A line of a listing: where the dropped rule would have been enforced. */
export interface GuardLine {
  listing: string;
  /** The listing's title, e.g. "Worker thread me (Algorithm 2)". */
  title: string;
  n: number;
  text: string;
}

/** The first line of `code`'s listings that begins with one of `guard`'s texts (null: none). */
export function guardLine(code: PseudoCode | null, guard: readonly string[]): GuardLine | null {
  if (!code) return null;
  for (const prefix of guard) {
    for (const l of code.listings) {
      const line = l.lines.find((x) => x.text.startsWith(prefix));
      if (line) return { listing: l.id, title: l.title, n: line.n, text: line.text };
    }
  }
  return null;
}

interface EntryJson {
  id: string;
  label?: string;
  fault?: string;
  [k: string]: unknown;
}

/**
 * `text` with `fault` selected on the scheduler entry named `name` (its
 * label, else its id), as `psmr run --fault` does; an entry the file does
 * not list is added. Throws on text that is not a scenario object.
 */
export function withFault(text: string, name: string, fault: string): string {
  const sc = JSON.parse(text) as { schedulers?: EntryJson[] };
  const list = sc.schedulers ?? [];
  const entry = list.find((e) => e.label === name) ?? list.find((e) => e.label === undefined && e.id === name);
  if (entry) entry.fault = fault;
  else list.push({ id: name, fault });
  sc.schedulers = list;
  return `${JSON.stringify(sc, null, 2)}\n`;
}

/**
 * The counterexample as a scenario of its own, for a share link (as `psmr
 * explore --save` writes it): only the broken entry, its fault selected,
 * the explored requests, and `run.schedule` = the token, so opening the
 * link runs the violating schedule again, event for event.
 */
export function pinnedText(text: string, name: string, fault: string, token: string, requests?: number): string {
  const sc = JSON.parse(withFault(text, name, fault)) as {
    schedulers: EntryJson[];
    workload?: { requests?: number };
    run?: Record<string, unknown>;
    expect?: unknown;
  };
  sc.schedulers = sc.schedulers.filter((e) => e.fault === fault);
  if (requests !== undefined) sc.workload = { ...sc.workload, requests };
  sc.run = { ...sc.run, schedule: token, trace: true };
  // The file's expectations are the correct schedulers'; this run is expected to break.
  sc.expect = { correct: false };
  return `${JSON.stringify(sc, null, 2)}\n`;
}

/** What a shared find's scenario names: the broken entry, its fault, the pinned token. */
export interface SharedFind {
  /** The entry's label, else its id. */
  scheduler: string;
  fault: string;
  token: string;
}

/**
 * The find a scenario text shares, as {@link pinnedText} writes it: exactly
 * one entry with a `fault` and a `run.schedule` token; null for any other
 * text (a shipped scenario, a scenario pinned without a fault, or one
 * whose JSON does not parse).
 */
export function sharedFind(text: string): SharedFind | null {
  let sc: { schedulers?: EntryJson[]; run?: { schedule?: unknown } };
  try {
    sc = JSON.parse(text) as typeof sc;
  } catch {
    return null;
  }
  const token = sc?.run?.schedule;
  const broken = (sc?.schedulers ?? []).filter((e) => typeof e.fault === 'string');
  if (typeof token !== 'string' || broken.length !== 1) return null;
  const e = broken[0];
  return { scheduler: e.label ?? e.id, fault: e.fault as string, token };
}

/** The two requests the oracle found out of order (first = first in sequential order). */
export interface Pair {
  first: number;
  second: number;
  firstClass?: string;
  secondClass?: string;
  cell: string;
}

/** The pair of an order violation, or null for another kind. */
export function pairOf(v: Violation | null | undefined): Pair | null {
  if (!v) return null;
  if (v.kind === 'order')
    return {
      first: v.first,
      second: v.second,
      firstClass: v.first_class,
      secondClass: v.second_class,
      cell: v.cell.text,
    };
  if (v.kind === 'color-order') return { first: v.first, second: v.second, cell: v.cell.text };
  return null;
}

/** "r41 (W1) ran before r17 (R1) on cell shard 1: sequential order has r17 first." */
export function pairSentence(p: Pair): string {
  const cls = (c?: string) => (c ? ` (${c})` : '');
  return (
    `r${p.second}${cls(p.secondClass)} ran before r${p.first}${cls(p.firstClass)} on cell ${p.cell}: ` +
    `sequential order has r${p.first} first.`
  );
}

/** One request a lane shows. */
export interface LaneChip {
  req: number;
  /** One of the pair. */
  pair: boolean;
}

/** A thread's executions around the pair. */
export interface Lane {
  thread: number;
  name: string;
  chips: LaneChip[];
}

/** Where the pair is in a trace. */
export interface PairMoment {
  /** Replay position just after the second request started executing. */
  position: number;
  /** Thread that executed the first and the second request. */
  firstThread: number;
  secondThread: number;
  /** Both threads' executions around the pair (one lane when one thread ran both). */
  lanes: Lane[];
}

/** "T0", "scheduler", "aux 1": how the views name a trace thread. */
export function threadName(t: number): string {
  return t === SCHEDULER ? 'scheduler' : t >= AUX_BASE ? `aux ${t - AUX_BASE}` : `T${t}`;
}

/** Requests a lane shows on each side of the pair's request. */
const LANE_SIDE = 3;

/** Executions (`ExecStart`) in trace order: index, thread, request. */
function executions(t: PackedTrace): { i: number; thread: number; req: number }[] {
  const out: { i: number; thread: number; req: number }[] = [];
  for (let i = 0; i < t.length; i++) {
    if (t.kind(i) === KIND.ExecStart) out.push({ i, thread: t.thread(i), req: t.get(i, F.ExecStart.req) });
  }
  return out;
}

/**
 * The moment the second request of `pair` starts executing in trace `t`,
 * and the lanes of the threads that ran the two; null when the trace lacks
 * either execution (a cut trace).
 */
export function pairMoment(t: PackedTrace, pair: Pick<Pair, 'first' | 'second'>): PairMoment | null {
  const all = executions(t);
  const first = all.find((x) => x.req === pair.first);
  const second = all.find((x) => x.req === pair.second);
  if (!first || !second) return null;
  const threads = first.thread === second.thread ? [second.thread] : [second.thread, first.thread];
  const lanes = threads.map((thread) => {
    const mine = all.filter((x) => x.thread === thread);
    const at = mine.findIndex((x) => x.req === pair.first || x.req === pair.second);
    const last = mine.findLastIndex((x) => x.req === pair.first || x.req === pair.second);
    const chips = mine
      .slice(Math.max(0, at - LANE_SIDE), last + LANE_SIDE + 1)
      .map((x) => ({ req: x.req, pair: x.req === pair.first || x.req === pair.second }));
    return { thread, name: threadName(thread), chips };
  });
  return { position: second.i + 1, firstThread: first.thread, secondThread: second.thread, lanes };
}
