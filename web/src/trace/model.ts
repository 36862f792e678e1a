/**
 * The page-side replay model: a decoded trace, its index and checkpoints,
 * and `stateAt(p)`, which costs at most one checkpoint restore plus
 * `stride` applied events (O(K)), whatever the jump.
 */
import { PackedTrace, type TraceEvent } from './codec';
import { type Analysis, type Checkpoints, type TraceIndex, positionAtTime } from './index';
import { apply, cloneState, deserialize, type ReplayState } from './state';

export class ReplayModel {
  readonly trace: PackedTrace;
  readonly index: TraceIndex;
  readonly checkpoints: Checkpoints;
  /** The last state handed out; moving forward a little reuses it. */
  private cache: ReplayState | null = null;

  constructor(trace: PackedTrace, analysis: Analysis) {
    this.trace = trace;
    this.index = analysis.index;
    this.checkpoints = analysis.checkpoints;
  }

  get length(): number {
    return this.trace.length;
  }

  /** Restore checkpoint `k` (the state at position `k * stride`). */
  checkpoint(k: number): ReplayState {
    const { offsets, pool } = this.checkpoints;
    return deserialize(pool.subarray(offsets[k], offsets[k + 1]));
  }

  /**
   * The state after events `[0, p)`. The result is owned by the model and
   * valid until the next call; copy it (`cloneState`) to keep it.
   */
  stateAt(p: number): ReplayState {
    const n = this.trace.length;
    const pos = Math.max(0, Math.min(n, Math.floor(p)));
    const stride = this.checkpoints.stride;
    const k = Math.floor(pos / stride);
    let s = this.cache;
    // Reuse the cached state when `pos` is ahead of it and no checkpoint
    // lies in between (so the cost stays below one stride).
    if (!s || s.position > pos || Math.floor(s.position / stride) !== k) {
      s = this.checkpoint(k);
    }
    for (let i = s.position; i < pos; i++) apply(s, this.trace, i);
    this.cache = s;
    return s;
  }

  /** A state the caller may keep and mutate. */
  snapshotAt(p: number): ReplayState {
    return cloneState(this.stateAt(p));
  }

  positionAtTime(tNs: number): number {
    return positionAtTime(this.index, tNs);
  }

  /** Time shown for position p: the running max time of its last event. */
  timeAt(p: number): number {
    if (p <= 0 || this.trace.length === 0) return 0;
    return this.index.tMaxNs[Math.min(p, this.trace.length) - 1];
  }

  /** The event that brought the state to position p (event p-1), if any. */
  eventBefore(p: number): TraceEvent | null {
    if (p <= 0 || p > this.trace.length) return null;
    return this.trace.event(p - 1);
  }

  className(c: number, names?: readonly string[]): string {
    return names?.[c] ?? `C${c}`;
  }
}
