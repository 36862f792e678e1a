/**
 * Progress in the request stream, for comparing runs: where each run has
 * completed its k-th request. Runs of one scenario execute the same stream,
 * so the moment two runs have completed the same number of requests is the
 * fair point to compare them (start-up lag and speed differences do not
 * shift it, as aligning by wall time since start would).
 */
import { KIND } from '../trace/codec';
import type { ReplayModel } from '../trace/model';
import { partitionPoint } from '../trace/search';

const cache = new WeakMap<ReplayModel, Int32Array>();

/** Index of every ExecEnd event of the trace, in order (from the trace index, built in the trace worker). */
export function completions(model: ReplayModel): Int32Array {
  if (model.index.execEnds) return model.index.execEnds;
  let c = cache.get(model);
  if (c) return c;
  const t = model.trace;
  const n = model.index.kindCounts[KIND.ExecEnd] ?? 0;
  c = new Int32Array(n);
  let k = 0;
  for (let i = 0; i < t.length && k < n; i++) if (t.kind(i) === KIND.ExecEnd) c[k++] = i;
  cache.set(model, c);
  return c;
}

/** Requests completed by position p (ExecEnd events among events [0, p)). */
export function completedAt(model: ReplayModel, p: number): number {
  const c = completions(model);
  return partitionPoint(c.length, (i) => c[i] < p);
}

/** The first position of `model` at which `k` requests are complete (its length if it never gets there). */
export function positionAtCompleted(model: ReplayModel, k: number): number {
  if (k <= 0) return 0;
  const c = completions(model);
  return k <= c.length ? c[k - 1] + 1 : model.length;
}
