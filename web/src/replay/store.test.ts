import { describe, expect, it } from 'vitest';
import { loadTraceHere } from '../trace/load';
import { synthesizeSmall } from '../trace/synth';
import { handleKey } from './keys';
import { completedAt } from './progress';
import { nextStep, startsStep } from './steps';
import { createReplayStore, type Track } from './store';

function track(key: string, mode: 'early' | 'busy-wait' | 'ws', seed: number): Track {
  const s = synthesizeSmall({ mode, seed, execTicks: 3 });
  return {
    key,
    label: mode,
    scheduler: mode,
    model: loadTraceHere(s.buffer),
    classNames: s.mapping.map((m) => m.class),
    mapping: s.mapping,
  };
}

const key = (k: string, shift = false) => ({ key: k, shiftKey: shift, ctrlKey: false, altKey: false, metaKey: false });

describe('replay store', () => {
  it('steps, clamps and jumps home and end', () => {
    const store = createReplayStore();
    const t = track('a', 'early', 1);
    store.getState().setTracks([t]);
    const s = () => store.getState();
    s().step(1);
    s().step(1);
    expect(s().position).toBe(2);
    s().step(-5);
    expect(s().position).toBe(0);
    s().end();
    expect(s().position).toBe(t.model.length);
    expect(s().timeNs).toBe(t.model.index.durationNs);
    s().step(1);
    expect(s().position).toBe(t.model.length);
    s().home();
    expect(s().position).toBe(0);
  });

  it('plays by wall time over slowdown and stops at the end', () => {
    const store = createReplayStore();
    const t = track('a', 'busy-wait', 2);
    store.getState().setTracks([t]);
    const s = () => store.getState();
    s().setMode('time');
    s().setSlowdown(1000);
    s().play();
    s().tick(1); // 1 ms wall = 1000 ns of run time
    expect(s().timeNs).toBeCloseTo(1000);
    expect(s().position).toBe(t.model.positionAtTime(1000));
    for (let i = 0; i < 100000 && s().playing; i++) s().tick(100);
    expect(s().playing).toBe(false);
    expect(s().position).toBe(t.model.length);
  });

  it('aligns compare tracks on requests completed, not on time', () => {
    const store = createReplayStore();
    const a = track('a', 'early', 3);
    const b = track('b', 'ws', 3);
    store.getState().setTracks([a, b]);
    store.getState().seek(Math.floor(a.model.length / 2));
    const [pa, pb] = store.getState().positions();
    expect(pa).toBe(Math.floor(a.model.length / 2));
    const done = completedAt(a.model, pa);
    expect(done).toBeGreaterThan(0);
    // b is just past its done-th completion.
    expect(completedAt(b.model, pb)).toBe(done);
    expect(completedAt(b.model, pb - 1)).toBe(done - 1);
    // The other track can lead: a follows b's progress.
    store.getState().lead(1, pb + 40);
    const [qa, qb] = store.getState().positions();
    expect(qb).toBe(pb + 40);
    expect(completedAt(a.model, qa)).toBe(completedAt(b.model, qb));
  });

  it('keeps the moment when a run joins the comparison', () => {
    const store = createReplayStore();
    const a = track('a', 'early', 5);
    store.getState().setTracks([a]);
    store.getState().seek(40);
    const b = track('b', 'busy-wait', 5);
    store.getState().setTracks([a, b]);
    expect(store.getState().position).toBe(40);
    expect(completedAt(b.model, store.getState().positions()[1])).toBe(completedAt(a.model, 40));
    // A different leading trace starts from the beginning.
    store.getState().setTracks([b]);
    expect(store.getState().position).toBe(0);
  });

  it('steps by algorithm steps, the same boundaries both ways, and plays them at the step pace', () => {
    const store = createReplayStore();
    const t = track('a', 'early', 6);
    store.getState().setTracks([t]);
    const s = () => store.getState();
    const forward: number[] = [0];
    for (let i = 0; i < 60; i++) {
      s().stepAlgo(1);
      forward.push(s().position);
    }
    // Every move forward crosses at least one event, and each step ends where the next one starts.
    for (let i = 1; i < forward.length; i++) {
      expect(forward[i]).toBeGreaterThan(forward[i - 1]);
      expect(startsStep(t.model.trace, forward[i])).toBe(true);
    }
    const back: number[] = [];
    for (let i = 0; i < 60; i++) {
      back.push(s().position);
      s().stepAlgo(-1);
    }
    back.push(s().position);
    expect(back.reverse()).toEqual(forward);
    // Some steps group several events (a dispatch with its enqueues, a take with its execution).
    expect(forward.some((p, i) => i > 0 && p - forward[i - 1] > 1)).toBe(true);
    // Playing in step mode: one step per stepMs.
    s().setStepMs(1000);
    s().play();
    s().tick(16); // the first step comes at once
    expect(s().position).toBe(forward[1]);
    s().tick(500);
    expect(s().position).toBe(forward[1]);
    s().tick(500);
    expect(s().position).toBe(forward[2]);
  });

  it('maps keys to replay actions', () => {
    const store = createReplayStore();
    const t = track('a', 'early', 4);
    store.getState().setTracks([t]);
    expect(handleKey(store, key('ArrowRight', true))).toBe(true);
    expect(store.getState().position).toBe(1);
    expect(handleKey(store, key('ArrowRight'))).toBe(true);
    const afterStep = store.getState().position;
    expect(afterStep).toBe(nextStep(t.model.trace, 1));
    handleKey(store, key('ArrowLeft', true));
    expect(store.getState().position).toBe(afterStep - 1);
    handleKey(store, key(' '));
    expect(store.getState().playing).toBe(true);
    handleKey(store, key(' '));
    expect(store.getState().playing).toBe(false);
    handleKey(store, key('End'));
    expect(store.getState().position).toBe(store.getState().tracks[0].model.length);
    expect(handleKey(store, key('x'))).toBe(false);
  });
});
