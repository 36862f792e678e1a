/**
 * The replay store: where the classroom views are in a traced run.
 *
 * The first track is the primary one: stepping moves its position one
 * event at a time. Every other track (compare mode, 2-4 schedulers of the
 * same scenario) follows the primary's replay time, so all timelines show
 * the same instant. Playing advances the replay time by wall time divided
 * by the slowdown (raftscope's speed slider, on a log scale).
 *
 * The store holds positions only; the states come from each track's
 * `ReplayModel.stateAt`, which costs at most one checkpoint stride.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { ReplayModel } from '../trace/model';

/** One class's place in a classes-to-threads mapping (report `info.mapping`). */
export interface MappingEntry {
  class: string;
  sequential: boolean;
  threads: number[];
}

export interface Track {
  /** Stable key, e.g. `run-0`. */
  key: string;
  /** Shown above the track, e.g. `early (optimizer)`. */
  label: string;
  scheduler: string;
  /** The run's family (report `family`, else guessed from the scheduler id). */
  family?: string;
  model: ReplayModel;
  /** Class names by id, when known (from the mapping). */
  classNames: string[];
  mapping: MappingEntry[];
}

/** Slowdown bounds: 1x (real time) to 10^8x. */
export const MIN_SLOWDOWN = 1;
export const MAX_SLOWDOWN = 1e8;
/** A new trace plays in about this many seconds at its default slowdown. */
export const DEFAULT_PLAY_S = 40;

export interface ReplayState {
  tracks: Track[];
  /** Position of the primary track (events applied, 0..n). */
  position: number;
  /** Replay time (ns since the run started); tracks align on it. */
  timeNs: number;
  playing: boolean;
  /** Wall time per unit of run time while playing. */
  slowdown: number;
  setTracks(tracks: Track[]): void;
  /** Move the primary track to position `p` (clamped). */
  seek(p: number): void;
  /** Move every track to replay time `t`. */
  seekTime(tNs: number): void;
  /** One event forward (+1) or back (-1) on the primary track. */
  step(delta: number): void;
  home(): void;
  end(): void;
  play(): void;
  pause(): void;
  toggle(): void;
  setSlowdown(s: number): void;
  /** Advance playback by `dtMs` of wall time (the animation loop calls it). */
  tick(dtMs: number): void;
  /** Positions of every track at the current time (primary: `position`). */
  positions(): number[];
}

export function clamp(x: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, x));
}

/** Default slowdown for a run of `durationNs`: plays in DEFAULT_PLAY_S. */
export function defaultSlowdown(durationNs: number): number {
  if (durationNs <= 0) return MIN_SLOWDOWN;
  return clamp((DEFAULT_PLAY_S * 1e9) / durationNs, MIN_SLOWDOWN, MAX_SLOWDOWN);
}

export type ReplayStore = ReturnType<typeof createReplayStore>;

/** `raf` drives playback in the browser; tests pass none and call `tick`. */
export function createReplayStore(raf?: (cb: (tMs: number) => void) => unknown) {
  return createStore<ReplayState>()((set, get) => {
    let lastFrameMs: number | null = null;
    const loop = (tMs: number) => {
      if (!get().playing) {
        lastFrameMs = null;
        return;
      }
      if (lastFrameMs !== null) get().tick(Math.min(100, tMs - lastFrameMs));
      lastFrameMs = tMs;
      raf?.(loop);
    };
    const primary = () => get().tracks[0]?.model;
    const duration = () => Math.max(0, ...get().tracks.map((t) => t.model.index.durationNs));

    return {
      tracks: [],
      position: 0,
      timeNs: 0,
      playing: false,
      slowdown: 1000,

      setTracks(tracks) {
        const d = Math.max(0, ...tracks.map((t) => t.model.index.durationNs));
        const before = get().tracks[0];
        const first = tracks[0];
        if (before && first && before.model === first.model) {
          // Same primary trace (a run was added to or removed from the
          // comparison): stay at the same moment, keep the speed.
          const timeNs = clamp(get().timeNs, 0, d);
          set({ tracks, timeNs, position: get().position, playing: false });
          return;
        }
        set({ tracks, position: 0, timeNs: 0, playing: false, slowdown: defaultSlowdown(d) });
      },

      seek(p) {
        const m = primary();
        if (!m) return;
        const position = clamp(Math.round(p), 0, m.length);
        set({ position, timeNs: m.timeAt(position) });
      },

      seekTime(tNs) {
        const m = primary();
        if (!m) return;
        const timeNs = clamp(tNs, 0, duration());
        set({ timeNs, position: m.positionAtTime(timeNs) });
      },

      step(delta) {
        get().pause();
        get().seek(get().position + delta);
      },

      home() {
        get().pause();
        get().seek(0);
      },

      end() {
        get().pause();
        const m = primary();
        if (m) set({ position: m.length, timeNs: duration() });
      },

      play() {
        const m = primary();
        if (!m || get().playing) return;
        // Playing from the end starts over, as a video player does.
        if (get().timeNs >= duration()) set({ timeNs: 0, position: 0 });
        set({ playing: true });
        lastFrameMs = null;
        raf?.(loop);
      },

      pause() {
        if (get().playing) set({ playing: false });
      },

      toggle() {
        if (get().playing) get().pause();
        else get().play();
      },

      setSlowdown(s) {
        set({ slowdown: clamp(s, MIN_SLOWDOWN, MAX_SLOWDOWN) });
      },

      tick(dtMs) {
        const s = get();
        const m = primary();
        if (!m || !s.playing) return;
        const timeNs = s.timeNs + (dtMs * 1e6) / s.slowdown;
        const end = duration();
        if (timeNs >= end) {
          set({ timeNs: end, position: m.length, playing: false });
        } else {
          set({ timeNs, position: m.positionAtTime(timeNs) });
        }
      },

      positions() {
        const s = get();
        return s.tracks.map((t, i) => (i === 0 ? s.position : t.model.positionAtTime(s.timeNs)));
      },
    };
  });
}

const browserRaf = typeof requestAnimationFrame === 'function' ? requestAnimationFrame : undefined;

/** The app's replay store. */
export const replayStore = createReplayStore(browserRaf ? (cb) => browserRaf(cb) : undefined);

export function useReplay<T>(selector: (s: ReplayState) => T): T {
  return useStore(replayStore, selector);
}
