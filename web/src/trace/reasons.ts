/**
 * Plain words for the engine's wait reasons (the `reasons` of the trace
 * vocabulary, `vocabulary.json`): the one table every sentence that names a
 * reason reads, so no view keeps its own switch and no view shows the
 * engine's kebab-case name. Each wording follows "T1 waits …" and
 * "T1 stops waiting …".
 *
 * This file words the reasons several families share; a reason only one
 * family records is worded by that family (its status's `waits`, registered
 * through `registerFamily`, views/family.ts), so a new family with a new
 * reason edits nothing here. `reasons.test.ts` checks that, with every
 * family registered, each reason of the committed vocabulary has words.
 */
import { REASON_NAMES } from './vocabulary.gen';

export type ReasonName = (typeof REASON_NAMES)[number];

const words: Partial<Record<ReasonName, string>> = {
  'empty-queue': 'for work (its queue is empty)',
  'full-queue': 'for room in a full queue (back-pressure)',
  barrier: "at its class's barrier",
  cycle: "for its class's cycle (busy-wait)",
  dependency: 'for a request it depends on',
};

/** A family's wording of a reason it owns (called by `registerFamilyStatus`, views/status.ts). */
export function registerReasonWords(name: ReasonName, text: string): void {
  words[name] = text;
}

/** Every reason worded so far, by name (the shared ones and those of the registered families). */
export function reasonWordTable(): Readonly<Partial<Record<ReasonName, string>>> {
  return words;
}

/** The plain words of reason code `code` (an unknown code, or one no family words, is said as one). */
export function reasonWords(code: number): string {
  const name = REASON_NAMES[code] as ReasonName | undefined;
  const text = name === undefined ? undefined : words[name];
  return text ?? `for reason ${code} (unknown to this version)`;
}
