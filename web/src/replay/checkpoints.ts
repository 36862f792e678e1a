/**
 * One replay mechanism for the state a family's view keeps beside the
 * shared replay state (`trace/state.ts`): the family gives a reducer over
 * the decoded trace's events; the trace is read once, keeping a copy of the
 * state every `stride` events, and the state at any position is the
 * nearest copy before it plus the events since (one copy and fewer than
 * `stride` events per move, however far the jump).
 *
 * Invariant: `replayAt(c, p)` equals `replayFromStart(c, p)` for every p,
 * because `apply` is the only way the state changes and `clone` copies all
 * of it (checkpoints.test.ts; each family's model tests its own reducer
 * at random positions).
 */
import type { PackedTrace } from '../trace/codec';

export interface Reducer<S> {
  /** The state before the first event. */
  init(): S;
  /** Apply event `i` of the trace. */
  apply(state: S, trace: PackedTrace, i: number): void;
  /** A copy that later `apply` calls on either side leave alone. */
  clone(state: S): S;
}

export interface Checkpointed<S> {
  trace: PackedTrace;
  reducer: Reducer<S>;
  stride: number;
  /** `states[k]`: the state after the first `k * stride` events. */
  states: S[];
}

/** Checkpoint spacing: at most ~512 checkpoints, at least every 2048 events. */
export function strideFor(events: number): number {
  return Math.max(2048, Math.ceil(events / 512));
}

/**
 * Read `trace` once through `reducer`, keeping a copy every `stride` events.
 * `visit(i)`, when given, sees each event just before the reducer applies it
 * (a model that also collects lists from the trace reads it in the same pass).
 */
export function checkpoint<S>(
  trace: PackedTrace,
  reducer: Reducer<S>,
  stride = strideFor(trace.length),
  visit?: (i: number) => void,
): Checkpointed<S> {
  const out: Checkpointed<S> = { trace, reducer, stride: Math.max(1, stride), states: [] };
  const s = reducer.init();
  for (let i = 0; i < trace.length; i++) {
    if (i % out.stride === 0) out.states.push(reducer.clone(s));
    visit?.(i);
    reducer.apply(s, trace, i);
  }
  return out;
}

/** The state after the first `pos` events, replayed from the start (the reference for `replayAt`). */
export function replayFromStart<S>(c: Checkpointed<S>, pos: number): S {
  const s = c.reducer.init();
  const end = Math.min(pos, c.trace.length);
  for (let i = 0; i < end; i++) c.reducer.apply(s, c.trace, i);
  return s;
}

/** The state after the first `pos` events: a copy of the nearest checkpoint, then the events since. */
export function replayAt<S>(c: Checkpointed<S>, pos: number): S {
  const end = Math.max(0, Math.min(pos, c.trace.length));
  const k = Math.min(Math.floor(end / c.stride), c.states.length - 1);
  if (k < 0) return c.reducer.init();
  const s = c.reducer.clone(c.states[k]);
  for (let i = k * c.stride; i < end; i++) c.reducer.apply(s, c.trace, i);
  return s;
}
