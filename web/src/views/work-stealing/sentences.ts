/**
 * `describe`'s sentences for the event kinds only work stealing records: a
 * steal of a queue, its end, the ready flag. Declared by the family's
 * module (index.ts) and registered with trace/codec.ts, so the kinds are
 * named here and in the engine's vocabulary only.
 */
import { F, type Sentence } from '../../trace/codec';
import type { ByKind } from '../../trace/dispatch';

/** The sentence of each of the family's own kinds. */
export const stealingSentences: ByKind<Sentence> = {
  Steal: (_e, c) =>
    `${c.who} steals ${c.f(F.Steal.count)} request(s) from T${c.f(F.Steal.victim)}, first r${c.f(F.Steal.first)}`,
  StealDone: (_e, c) => `${c.who} finished the work stolen from T${c.f(F.StealDone.victim)}`,
  // A flag, said up or down as every view says it (never "= 0/1", which read as a count).
  Flag: (_e, c) =>
    c.f(F.Flag.ready) === 1
      ? `${c.who} puts its flag up (a sequential request is queued)`
      : `${c.who} puts its flag down (no sequential request queued)`,
};
