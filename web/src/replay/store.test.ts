import { describe, expect, it } from 'vitest';
import { loadTraceHere } from '../trace/load';
import { synthesize } from '../trace/synth';
import { handleKey } from './keys';
import { createReplayStore, type Track } from './store';

function track(key: string, mode: 'early' | 'busy-wait' | 'ws', seed: number): Track {
  const s = synthesize({ threads: 4, requests: 200, shards: 2, writes: 0.3, global: 0.1, mode, seed, execTicks: 3 });
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
    s().setSlowdown(1000);
    s().play();
    s().tick(1); // 1 ms wall = 1000 ns of run time
    expect(s().timeNs).toBeCloseTo(1000);
    expect(s().position).toBe(t.model.positionAtTime(1000));
    for (let i = 0; i < 100000 && s().playing; i++) s().tick(100);
    expect(s().playing).toBe(false);
    expect(s().position).toBe(t.model.length);
  });

  it('aligns compare tracks on the primary track time', () => {
    const store = createReplayStore();
    const a = track('a', 'early', 3);
    const b = track('b', 'ws', 3);
    store.getState().setTracks([a, b]);
    store.getState().seek(Math.floor(a.model.length / 2));
    const [pa, pb] = store.getState().positions();
    const t = store.getState().timeNs;
    expect(pa).toBe(Math.floor(a.model.length / 2));
    expect(pb).toBe(b.model.positionAtTime(t));
    if (pb > 0) expect(b.model.timeAt(pb)).toBeLessThanOrEqual(t);
  });

  it('keeps the moment when a run joins the comparison', () => {
    const store = createReplayStore();
    const a = track('a', 'early', 5);
    store.getState().setTracks([a]);
    store.getState().seek(40);
    const t = store.getState().timeNs;
    const b = track('b', 'busy-wait', 5);
    store.getState().setTracks([a, b]);
    expect(store.getState().position).toBe(40);
    expect(store.getState().timeNs).toBe(t);
    expect(store.getState().positions()[1]).toBe(b.model.positionAtTime(t));
    // A different primary trace starts from the beginning.
    store.getState().setTracks([b]);
    expect(store.getState().position).toBe(0);
  });

  it('maps keys to replay actions', () => {
    const store = createReplayStore();
    store.getState().setTracks([track('a', 'early', 4)]);
    expect(handleKey(store, key('ArrowRight'))).toBe(true);
    expect(handleKey(store, key('ArrowRight', true))).toBe(true);
    expect(store.getState().position).toBe(11);
    handleKey(store, key('ArrowLeft'));
    expect(store.getState().position).toBe(10);
    handleKey(store, key(' '));
    expect(store.getState().playing).toBe(true);
    handleKey(store, key(' '));
    expect(store.getState().playing).toBe(false);
    handleKey(store, key('End'));
    expect(store.getState().position).toBe(store.getState().tracks[0].model.length);
    expect(handleKey(store, key('x'))).toBe(false);
  });
});
