/**
 * Pseudo-code of the event-coloring runtimes, Libasync-smp (`libasync`:
 * one FIFO per core, the stealing of its section II-B) and Mely (`mely`:
 * color-queues, batches, a stealing queue and the time-left heuristic),
 * as written in docs/teaching/event-coloring.md (same lines, same
 * numbers), with the rules that put each trace event of a run on its line.
 *
 * The steps are the paper's, in our words: registration claims a free
 * color for a core or follows its owner; a core runs its queue; an idle
 * core visits victims and moves one whole color, never the running one.
 */
import { cite, PAPERS } from '../papers';
import { lineStarting, listing, type Row, waitRules } from './build';
import type { PseudoCode, PseudoEvent, PseudoListing, PseudoRule } from './types';

function register(mely: boolean): PseudoListing {
  return listing('register', 'Registering an event (the driver or a handler)', [
    ['on deliver(root e):', 0],
    ['wait while the core e would go to holds queue_capacity events', 1, 'back-pressure, roots only'],
    ['register(e)', 1],
    ['register(e):', 0, 'any core may register into any core'],
    ['k ← owner of color(e); if the color is free, claim it for the home core of e', 1],
    ['lock k; if the color moved meanwhile (a steal), unlock k and start again', 1],
    mely
      ? ["append e to its color's color-queue at k (linking it at the tail of k's list if new)", 1]
      : ["append e to k's FIFO", 1, 'one list of all colors'],
    ...(mely
      ? ([
          [
            'time_left(color) += cost(e) / penalty(e); file the color in its interval if time-left is off or it is worth more than stealing one event, else take it out of the stealing queue',
            1,
            'time-left, penalty-aware',
          ],
        ] as Row[])
      : []),
    ['unlock k; wake k if it sleeps', 1],
  ]);
}

function worker(mely: boolean): PseudoListing {
  const take: Row[] = mely
    ? [
        ['lock k', 1],
        [
          'if the head color-queue has run batch events or is empty: move it to the tail, or drop it (color free)',
          1,
          'batch: 10 by default',
        ],
        ['e ← first event of the head color-queue; unlock k', 1, 'the running color leaves the stealing queue'],
      ]
    : [["lock k; e ← first event of k's FIFO; release a color that has nothing left here; unlock k", 1]];
  return listing('worker', 'Core k (one thread per core)', [
    ['loop:', 0],
    ...take,
    ['if there was an event e:', 1],
    ["run e's handler", 2, 'one event at a time on this core'],
    ['register(c) for each event c the handler posted', 2],
    ['else if stealing is on and Steal(k) moved a color here: go on', 1],
    ['else: spin, yield, then sleep until woken', 1, 'idle'],
  ]);
}

const libasyncSteal = listing('steal', 'Steal(k), Libasync-smp (section II-B, Figure 2)', [
  ['Steal(k):', 0],
  ['victims ← the most loaded core first, then the following cores by number', 1],
  ['for each victim v ≠ k:', 1],
  ['lock v and k, lowest number first', 2],
  ['if v holds fewer than two colors: unlock both; try the next victim', 2, 'the running color cannot go'],
  ["c ← first color from the head that v is not running and that holds under half of v's events", 2],
  [
    "walk v's FIFO from the head, unlinking the events of c in order, until c's pending count is reached",
    2,
    "the cost: up to c's last queued event, under the lock",
  ],
  ["append them to k's FIFO; owner of c ← k; unlock both; return success", 2],
  ['return failure', 1],
]);

const melySteal = listing('steal', 'Steal(k), Mely (sections III and IV-B)', [
  ['Steal(k):', 0],
  ["victims ← cores sharing k's cache first (locality-aware), else the most loaded first", 1],
  ['for each victim v ≠ k:', 1],
  ['lock v and k, lowest number first', 2],
  [
    "c ← a color of the highest non-empty interval of v's stealing queue still worth more than stealing one event costs now (base stealing: Libasync-smp's choice)",
    2,
    'never the running color',
  ],
  ['if there is none: refuse (time-left); try the next victim', 2, 'not worth it'],
  ["unlink c's color-queue from v and link it at the tail of k's list: all its events at once", 2, 'a few pointers'],
  ["owner of c ← k; unlock both; fold the steal's time per event into the cost estimate; return success", 2],
  ['return failure', 1],
]);

/** A rule's target: the line of a listing that starts with `prefix`. */
const at = lineStarting;

/** A refusal by rule `h` (`StealRefused.heuristic`, the engine's `Refusal`: 0 two colors, 1 half, 2 time left, 3 nothing). */
const is = (h: number) => (e: PseudoEvent) => e.fields?.heuristic === h;

function rules(reg: PseudoListing, w: PseudoListing, st: PseudoListing, mely: boolean): PseudoRule[] {
  const out: PseudoRule[] = [
    { kind: 'Delivered', by: 'scheduler', target: at(reg, 'on deliver') },
    ...waitRules({ reason: 'full-queue', target: at(reg, 'wait while') }),
    { kind: 'ColorHome', target: at(reg, 'k ← owner') },
    { kind: 'Registered', target: at(reg, 'append e') },
    { kind: 'Dequeued', target: at(w, mely ? 'e ← first event' : 'lock k; e ←') },
    { kind: 'ExecStart', target: at(w, "run e's handler") },
    { kind: 'ExecEnd', target: at(w, "run e's handler") },
    ...waitRules({ reason: 'empty-queue', target: at(w, 'else: spin') }),
    { kind: 'StealTry', target: at(st, 'lock v and k') },
    { kind: 'ColorSteal', target: at(st, mely ? 'unlink c' : 'append them') },
    { kind: 'StealCost', target: at(st, mely ? 'owner of c' : 'append them') },
  ];
  if (mely) {
    out.push(
      // `ColorQueue.op`: 0 joined, 1 left, 2 to the tail after a batch.
      { kind: 'ColorQueue', when: (e) => e.fields?.op === 0, target: at(reg, 'append e') },
      { kind: 'ColorQueue', target: at(w, 'if the head color-queue') },
      { kind: 'StealRefused', when: is(2), target: at(st, 'if there is none') },
      { kind: 'StealRefused', target: at(st, 'c ← a color') },
    );
  } else {
    out.push(
      { kind: 'StealRefused', when: is(0), target: at(st, 'if v holds fewer') },
      { kind: 'StealRefused', target: at(st, 'c ← first color') },
    );
  }
  return out;
}

function code(id: 'libasync' | 'mely'): PseudoCode {
  const mely = id === 'mely';
  const reg = register(mely);
  const w = worker(mely);
  const st = mely ? melySteal : libasyncSteal;
  return {
    schedulers: [id],
    source: `${mely ? 'Mely' : 'Libasync-smp'} as ${cite(PAPERS.eventWorkstealing)} describes it. Explained in docs/teaching/event-coloring.md.`,
    listings: [reg, w, st],
    rules: rules(reg, w, st, mely),
  };
}

export const libasync: PseudoCode = code('libasync');
export const mely: PseudoCode = code('mely');
