import { describe, expect, it } from 'vitest';
import { decode, encode, F, KIND, make, type PackedTrace } from '../trace/codec';
import { rng } from '../trace/synth';
import { checkpoint, replayAt, replayFromStart, strideFor, type Reducer } from './checkpoints';

/** A toy family state: requests executing per thread and the executed ones in order. */
interface Toy {
  running: Map<number, number>;
  done: number[];
}

const toy: Reducer<Toy> = {
  init: () => ({ running: new Map(), done: [] }),
  apply(s, t, i) {
    if (t.kind(i) === KIND.ExecStart) s.running.set(t.thread(i), t.get(i, F.ExecStart.req));
    else if (t.kind(i) === KIND.ExecEnd) {
      const r = s.running.get(t.thread(i));
      if (r !== undefined) s.done.push(r);
      s.running.delete(t.thread(i));
    }
  },
  clone: (s) => ({ running: new Map(s.running), done: s.done.slice() }),
};

/** A run of `n` requests on 3 threads; `truth[p]`: executed requests after p events. */
function run(seed: number, n: number): { trace: PackedTrace; truth: number[][] } {
  const pick = rng(seed);
  const evs = [];
  const truth: number[][] = [[]];
  const done: number[] = [];
  const busy = new Map<number, number>();
  let next = 0;
  let t = 0;
  while (next < n || busy.size > 0) {
    const th = Math.floor(pick() * 3);
    const r = busy.get(th);
    if (r !== undefined) {
      evs.push(make('ExecEnd', { req: r }, t++, th));
      busy.delete(th);
      done.push(r);
    } else if (next < n) {
      evs.push(make('ExecStart', { req: next }, t++, th));
      busy.set(th, next++);
    } else continue;
    truth.push(done.slice());
  }
  return { trace: decode(encode(evs)), truth };
}

describe('checkpointed family replay', () => {
  it('equals a replay from the start and what the run did, at random positions and strides', () => {
    for (const seed of [1, 2]) {
      const { trace, truth } = run(seed, 300);
      for (const stride of [1, 5, 64, 4096]) {
        const c = checkpoint(trace, toy, stride);
        expect(c.states.length).toBe(Math.ceil(trace.length / stride));
        const pick = rng(seed * 17 + stride);
        for (let k = 0; k < 30; k++) {
          const pos = Math.floor(pick() * (trace.length + 1));
          const at = replayAt(c, pos);
          expect(at).toEqual(replayFromStart(c, pos));
          expect(at.done).toEqual(truth[pos]);
        }
        expect(replayAt(c, trace.length + 5).done).toEqual(truth[trace.length]);
      }
    }
  });

  it('never lets a move change a checkpoint, and visits every event once before applying it', () => {
    const { trace, truth } = run(3, 50);
    const seen: number[] = [];
    const c = checkpoint(trace, toy, 8, (i) => seen.push(i));
    expect(seen).toEqual([...Array(trace.length).keys()]);
    replayAt(c, trace.length).done.push(-1);
    expect(replayAt(c, 8).done).toEqual(truth[8]);
    expect(replayAt(c, 0)).toEqual(toy.init());
  });

  it('spaces checkpoints every 2048 events at least, at most ~512 of them', () => {
    expect(strideFor(100)).toBe(2048);
    expect(strideFor(10_000_000)).toBe(19532);
  });
});
