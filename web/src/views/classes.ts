/**
 * Class names, the conflict relation and the classes-to-threads mapping as
 * the views need them. The mapping comes from the run report's
 * `info.mapping` when the engine gives it; otherwise it is read off the
 * trace itself (which threads each class's requests were put into, and
 * whether one request went to several threads), and marked as inferred.
 */
import type { ReplayModel } from '../trace/model';
import type { MappingEntry } from '../replay/store';

/** Names of the sharded app's classes for `count` class ids (R1,W1,..,Rg,Wg). */
export function shardedNames(count: number): string[] {
  if (count < 2 || count % 2 !== 0) return Array.from({ length: count }, (_, i) => `C${i}`);
  const shards = count / 2 - 1;
  const out: string[] = [];
  for (let i = 0; i < shards; i++) out.push(`R${i + 1}`, `W${i + 1}`);
  out.push('Rg', 'Wg');
  return out;
}

interface ParsedClass {
  write: boolean;
  /** Shard number, or -1 for a global class. */
  shard: number;
}

function parse(name: string): ParsedClass | null {
  const m = /^([RW])(\d+|g)$/.exec(name);
  if (!m) return null;
  return { write: m[1] === 'W', shard: m[2] === 'g' ? -1 : Number(m[2]) };
}

/**
 * Do two classes conflict? For the sharded apps' classes: at least one
 * writes, and they share a shard (a global class touches every shard).
 * Reads never conflict with reads. `null` when a name is not of that form.
 */
export function conflicts(a: string, b: string): boolean | null {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return null;
  if (!x.write && !y.write) return false;
  return x.shard === -1 || y.shard === -1 || x.shard === y.shard;
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
