/**
 * Plain words for the engine's wait reasons (the `reasons` of the trace
 * vocabulary, `vocabulary.json`): the one table every sentence that names a
 * reason reads, so no view keeps its own switch and no view shows the
 * engine's kebab-case name. Each wording follows "T1 waits …" and
 * "T1 stops waiting …"; the record's type makes a reason the engine adds
 * without a wording here fail to compile (and `reasons.test.ts` checks the
 * committed vocabulary against it).
 */
import { REASON_NAMES } from './vocabulary.gen';

type ReasonName = (typeof REASON_NAMES)[number];

export const REASON_WORDS: Readonly<Record<ReasonName, string>> = {
  'empty-queue': 'for work (its queue is empty)',
  'full-queue': 'for room in a full queue (back-pressure)',
  barrier: "at its class's barrier",
  cycle: "for its class's cycle (busy-wait)",
  marker: "for a stealer's marker to clear",
  dependency: 'for a request it depends on',
  scc: 'for the SCCs its SCC depends on',
  'map-switch': 'for every worker to switch to the new partition map',
  'full-graph': 'for room in the full dependency graph',
  lock: 'for the graph lock',
  semaphore: 'for a credit (as many SCCs in flight as workers)',
};

/** The plain words of reason code `code` (an unknown code is said as one). */
export function reasonWords(code: number): string {
  const name = REASON_NAMES[code] as ReasonName | undefined;
  return name === undefined ? `for reason ${code} (unknown to this version)` : REASON_WORDS[name];
}
