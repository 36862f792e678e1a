/**
 * Run overrides chosen in the sidebar: which of the scenario's schedulers
 * to run, how many worker threads, and a pace (extra busy time per request)
 * to slow a run down to watching speed. The scenario text is not changed;
 * the engine applies the overrides to this run only and validates them
 * like the file's own values (a thread count over the browser's limit is a
 * located error).
 */
import type { RunOptions } from '../engine/protocol';
import { virtualCoresProblem } from '../engine/virtualCores';
import { entryName, scenarioDoc, schedulerEntries } from '../engine/scenario';

export interface Overrides {
  /** Labels (or ids) unticked by the user; empty = run them all. */
  skipped: string[];
  /** Worker threads, or null for the scenario's. */
  threads: number | null;
  /** Extra busy time per request in microseconds, or null for the scenario's. */
  paceUs: number | null;
  /**
   * Virtual cores (replacing the worker threads; engine/virtualCores.ts), or
   * null/absent for real threads, the default.
   */
  virtualCores?: number | null;
}

export const NO_OVERRIDES: Overrides = { skipped: [], threads: null, paceUs: null };

/** The schedulers a scenario text lists (label, else id), or [] when it does not parse. */
export function schedulerNames(text: string): string[] {
  return schedulerEntries(scenarioDoc(text)).flatMap((e) => entryName(e) ?? []);
}

/** Engine run options for these overrides over the scenario `text`. */
export function toRunOptions(o: Overrides, text: string): RunOptions {
  const options: RunOptions = {};
  const names = schedulerNames(text);
  if (o.skipped.length > 0 && names.length > 0) {
    options.schedulers = names.filter((n) => !o.skipped.includes(n));
  }
  // Virtual cores replace the worker threads.
  if (o.threads !== null && o.virtualCores == null) options.threads = o.threads;
  if (o.paceUs !== null) options.pace_ns = Math.round(o.paceUs * 1000);
  if (o.virtualCores != null) options.virtual_cores = o.virtualCores;
  return options;
}

/** Largest pace accepted, in microseconds (the engine's bound, 100 ms per request). */
export const MAX_PACE_US = 100_000;

/** A problem with an override, named by its field as the panel shows it. */
export interface OverrideProblem {
  field: 'threads' | 'pace' | 'virtual-cores';
  message: string;
}

/**
 * Check the overrides before they reach the engine, in the units the panel
 * uses (threads, microseconds): a bad value is named at its own field, not
 * at a line of the scenario file.
 */
export function checkOverrides(
  o: Overrides,
  maxThreads: number,
  /** The engine's pool, once it is up (before: the worker limit only). */
  pool: { maxVirtualCores: number; poolThreads: number | null } = { maxVirtualCores: maxThreads, poolThreads: null },
): OverrideProblem[] {
  const out: OverrideProblem[] = [];
  if (
    o.threads !== null &&
    o.virtualCores == null &&
    (!Number.isInteger(o.threads) || o.threads < 1 || o.threads > maxThreads)
  ) {
    out.push({
      field: 'threads',
      message: `This run › threads: expected a whole number of worker threads from 1 to ${maxThreads} (the browser's limit), got ${o.threads}`,
    });
  }
  if (o.paceUs !== null && (!(o.paceUs >= 0) || o.paceUs > MAX_PACE_US)) {
    out.push({
      field: 'pace',
      message: `This run › pace: expected 0 to ${MAX_PACE_US.toLocaleString('en-US')} µs per request, got ${o.paceUs} µs`,
    });
  }
  const virtual =
    o.virtualCores == null ? null : virtualCoresProblem(o.virtualCores, pool.maxVirtualCores, pool.poolThreads);
  if (virtual) out.push({ field: 'virtual-cores', message: virtual });
  return out;
}
