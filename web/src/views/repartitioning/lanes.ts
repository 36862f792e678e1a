/**
 * The workers a repartitioning sync involves, from its lane mask: read by
 * the step captions (`narrate.ts`) and the partitions view's strip chart.
 * Apart from the view's model (`model.ts`, fetched with the view) so that a
 * lesson of another family does not fetch the model with the captions
 * (issue 30).
 */

/** Workers of a sync's lane mask, ascending. */
export function lanesOf(mask: number): number[] {
  const out: number[] = [];
  for (let w = 0; w < 32; w++) if ((mask >>> w) & 1) out.push(w);
  return out;
}
