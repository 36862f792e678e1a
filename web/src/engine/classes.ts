/**
 * The engine's class tables of sharded apps (`ClassTable::sharded`), as a
 * report's `classes` gives them, for code that has no report: the trace
 * simulator (`trace/synth.ts`) and tests. The fixture is the engine's own
 * output (a cargo test in psmr-scenario fails when it is stale).
 */
import type { ClassInfo } from './contract.gen';
import SHARDED from './fixtures/sharded-classes.json';

const tables = SHARDED as Record<string, ClassInfo[]>;

/** The report's `classes` for a sharded app of `shards` shards (1 to 8). */
export function shardedClasses(shards: number): ClassInfo[] {
  const t = tables[String(shards)];
  if (!t) throw new Error(`no engine class table for ${shards} shards (fixtures/sharded-classes.json has 1-8)`);
  return t;
}
