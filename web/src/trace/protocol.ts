/** Messages between the page and the trace worker (`worker.ts`). */
import type { Analysis } from './index';

/** Decode and index `buffer`. */
export type WorkerRequest = { id: number; buffer: ArrayBuffer };

export type WorkerReply =
  { id: number; ok: true; buffer: ArrayBuffer; analysis: Analysis } | { id: number; ok: false; error: string };

/** Every buffer of an analysis, so postMessage moves instead of copying. */
export function transferablesOf(buffer: ArrayBuffer, a: Analysis): Transferable[] {
  const i = a.index;
  const arrays = [
    i.reqClass,
    i.tMaxNs,
    i.kindCounts,
    i.steals,
    i.execEnds,
    i.releases,
    i.arrivals,
    i.queueLen,
    i.activity,
    i.classThreads,
    i.classMulti,
    a.checkpoints.offsets,
    a.checkpoints.pool,
  ];
  const set = new Set<ArrayBuffer>([buffer]);
  for (const x of arrays) set.add(x.buffer as ArrayBuffer);
  return [...set];
}
