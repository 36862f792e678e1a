/**
 * Class names, the conflict relation and the classes-to-threads mapping as
 * the views need them. Classes and their conflicts are the engine's (the
 * report's `classes`); the mapping comes from the run report's
 * `info.mapping` when the engine gives it; otherwise it is read off the
 * trace itself (which threads each class's requests were put into, and
 * whether one request went to several threads), and marked as inferred.
 */
import type { ClassInfo } from '../engine/protocol';
import type { ReplayModel } from '../trace/model';
import type { MappingEntry } from '../replay/store';

/** Names of class ids `0..count`: the engine's, `C<id>` past its table. */
export function classNames(classes: readonly ClassInfo[], count: number): string[] {
  return Array.from({ length: Math.max(count, classes.length) }, (_, i) => classes[i]?.name ?? `C${i}`);
}

/** The conflict graph of the classes named `names` (the report's relation; unknown names have no edges). */
export function conflictGraph(
  classes: readonly ClassInfo[],
  names: readonly string[],
): { edges: [number, number][]; selfLoops: number[] } {
  const ids = names.map((n) => classes.findIndex((c) => c.name === n));
  const conflicts = (i: number, j: number) => ids[i] >= 0 && ids[j] >= 0 && classes[ids[i]].conflicts.includes(ids[j]);
  const edges: [number, number][] = [];
  const selfLoops: number[] = [];
  for (let i = 0; i < names.length; i++) {
    if (conflicts(i, i)) selfLoops.push(i);
    for (let j = i + 1; j < names.length; j++) if (conflicts(i, j)) edges.push([i, j]);
  }
  return { edges, selfLoops };
}

/** The mapping as the trace shows it: threads each class was enqueued to (computed by the trace index). */
export function inferMapping(model: ReplayModel, names: readonly string[]): MappingEntry[] {
  const { classes, threads, classThreads, classMulti } = model.index;
  return Array.from({ length: classes }, (_, c) => ({
    class: names[c] ?? `C${c}`,
    sequential: classMulti[c] === 1,
    threads: Array.from({ length: threads }, (_, t) => t).filter((t) => classThreads[c * threads + t] === 1),
  }));
}
