/**
 * The replay store: where the classroom views are in a traced run.
 *
 * One track leads (the first, until a jump on another track makes that
 * one lead): stepping moves its position. Every other track (compare mode,
 * 2-4 schedulers of the same scenario) follows the leader's progress in
 * the request stream: it is shown where it had completed as many requests
 * as the leader (replay/progress.ts), so start-up lag does not skew the
 * comparison. Playing advances by algorithm steps at a class pace, or by
 * run time over a slowdown (raftscope's speed slider, on a log scale).
 *
 * The store holds positions only; the states come from each track's
 * `ReplayModel.stateAt`, which costs at most one checkpoint stride.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { ClassInfo } from '../engine/protocol';
import type { ReplayModel } from '../trace/model';
import { nextStep, prevStep } from './steps';
import { completedAt, positionAtCompleted } from './progress';

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
  /** The run's label in the report (scenario `label`), when it has one. */
  run?: string;
  scheduler: string;
  /** The run's family (report `family`, else guessed from the scheduler id). */
  family?: string;
  model: ReplayModel;
  /** The report's classes (names, conflicts), when known. */
  classes?: readonly ClassInfo[];
  /** Class names by id, when known (from the mapping). */
  classNames: string[];
  mapping: MappingEntry[];
}

/** Slowdown bounds: 1x (real time) to 10^8x. */
export const MIN_SLOWDOWN = 1;
export const MAX_SLOWDOWN = 1e8;
/** A new trace plays in about this many seconds at its default slowdown (time mode). */
export const DEFAULT_PLAY_S = 40;

/**
 * Playback paces. `steps`: one algorithm step (replay/steps.ts) every
 * `stepMs`, the class pace by default; `time`: run time scaled by the
 * slowdown, to see the run as it unfolded.
 */
export type PlayMode = 'steps' | 'time';
/** Step paces offered (ms per step): class, brisk, fast. */
export const STEP_PACES_MS = [1600, 700, 250, 80] as const;
export const DEFAULT_STEP_MS = 1600;

export interface ReplayState {
  tracks: Track[];
  /** The track that steps and scrubs; the others follow its progress. */
  leader: number;
  /** Position of the leading track (events applied, 0..n). */
  position: number;
  /** Replay time (ns since the run started); tracks align on it. */
  timeNs: number;
  playing: boolean;
  /** Wall time per unit of run time while playing (time mode). */
  slowdown: number;
  mode: PlayMode;
  /** How the position last changed: views animate steps and play, not jumps or scrubbing. */
  moved: 'step' | 'play' | 'jump';
  /** Wall time per step while playing in step mode. */
  stepMs: number;
  setMode(m: PlayMode): void;
  setStepMs(ms: number): void;
  /** One algorithm step forward (+1) or back (-1) on the primary track. */
  stepAlgo(delta: 1 | -1): void;
  setTracks(tracks: Track[]): void;
  /** Make track `i` lead, at position `p` (default: where it is shown now). */
  lead(i: number, p?: number): void;
  /** Move the primary track to position `p` (clamped). */
  seek(p: number): void;
  /** Move every track to replay time `t`. */
  seekTime(tNs: number): void;
  /** `delta` trace events forward or back on the primary track. */
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
    const primary = () => get().tracks[get().leader]?.model;
    const duration = () => Math.max(0, ...get().tracks.map((t) => t.model.index.durationNs));

    let stepCarryMs = 0;
    return {
      tracks: [],
      leader: 0,
      position: 0,
      timeNs: 0,
      playing: false,
      slowdown: 1000,
      mode: 'steps',
      moved: 'jump',
      stepMs: DEFAULT_STEP_MS,

      lead(i, p) {
        const s = get();
        const t = s.tracks[i];
        if (!t) return;
        const at = p ?? s.positions()[i];
        const position = clamp(Math.round(at), 0, t.model.length);
        set({ leader: i, position, timeNs: t.model.timeAt(position) });
      },

      setMode(mode) {
        stepCarryMs = 0;
        set({ mode });
      },

      setStepMs(ms) {
        set({ stepMs: clamp(ms, 20, 10_000) });
      },

      stepAlgo(delta) {
        get().pause();
        const m = primary();
        if (!m) return;
        const p = get().position;
        get().seek(delta > 0 ? nextStep(m.trace, p) : prevStep(m.trace, p));
        set({ moved: 'step' });
      },

      setTracks(tracks) {
        const d = Math.max(0, ...tracks.map((t) => t.model.index.durationNs));
        const s = get();
        const before = s.tracks[s.leader];
        const same = before ? tracks.findIndex((t) => t.model === before.model) : -1;
        if (same >= 0) {
          // The leading trace is still loaded (a run was added to or removed
          // from the comparison): stay at the same moment, keep the pace.
          set({ tracks, leader: same, position: s.position, timeNs: clamp(s.timeNs, 0, d), playing: false });
          return;
        }
        set({ tracks, leader: 0, position: 0, timeNs: 0, playing: false, slowdown: defaultSlowdown(d) });
      },

      seek(p) {
        const m = primary();
        if (!m) return;
        const position = clamp(Math.round(p), 0, m.length);
        set({ position, timeNs: m.timeAt(position), moved: 'jump' });
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
        set({ moved: 'step' });
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
        if (get().position >= m.length) set({ timeNs: 0, position: 0 });
        // The first step comes at once; then one per stepMs.
        stepCarryMs = get().mode === 'steps' ? get().stepMs : 0;
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
        if (s.mode === 'steps') {
          // Whole steps at the chosen pace; a slow frame catches up (at most a few steps).
          stepCarryMs += dtMs;
          let p = s.position;
          let n = 0;
          while (stepCarryMs >= s.stepMs && n < 8) {
            stepCarryMs -= s.stepMs;
            p = nextStep(m.trace, p);
            n++;
          }
          if (n === 0) return;
          if (p >= m.length) {
            stepCarryMs = 0;
            set({ position: m.length, timeNs: duration(), playing: false, moved: 'play' });
          } else {
            set({ position: p, timeNs: m.timeAt(p), moved: 'play' });
          }
          return;
        }
        const timeNs = s.timeNs + (dtMs * 1e6) / s.slowdown;
        const end = duration();
        if (timeNs >= end) {
          set({ timeNs: end, position: m.length, playing: false, moved: 'play' });
        } else {
          set({ timeNs, position: m.positionAtTime(timeNs), moved: 'play' });
        }
      },

      positions() {
        const s = get();
        const lead = s.tracks[s.leader];
        if (!lead) return [];
        const done = completedAt(lead.model, s.position);
        return s.tracks.map((t, i) => (i === s.leader ? s.position : positionAtCompleted(t.model, done)));
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

/** The leading track (the one the timeline drives and the run picker names), or undefined before any. */
export function useLeadTrack(): Track | undefined {
  return useReplay((s) => s.tracks[s.leader]);
}
