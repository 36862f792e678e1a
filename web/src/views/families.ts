/**
 * What the views know about each scheduler: its family, how the threads of
 * a sequential class meet (a blocking barrier, a busy-wait arrival cycle,
 * or a cycle followed by a barrier), which thread executes the request,
 * whether it steals, and its color (one color per scheduler on every tab).
 *
 * A new family registers its schedulers here (`registerScheduler`); every
 * view, caption and status phrase reads this table instead of testing
 * scheduler names, so a new family plugs in without special cases.
 * See docs/views.md.
 */

import type { Family } from '../engine/protocol';

/** Scheduler families, as the run report's `family` names them (the engine's list, generated). */
export type { Family };

/** How the threads of a sequential class synchronize on one request. */
export interface SyncMechanism {
  /** `barrier`: every thread blocks until all arrived; `cycle`: arrival counter, waiters spin (or steal). */
  kind: 'barrier' | 'cycle';
  /** A second, blocking barrier after the execution (moderate work stealing). */
  barrierAfter: boolean;
  /** Which thread executes the request: the smallest id of the class, or the last to arrive. */
  executor: 'smallest' | 'last';
}

export interface SchedulerProfile {
  id: string;
  family: Family;
  /** Null when the scheduler has no per-class synchronization. */
  sync: SyncMechanism | null;
  /** Idle (or waiting) threads take queued work from other threads. */
  steals: boolean;
  /** Waiting threads may steal (not only idle ones). */
  stealsWhileWaiting: boolean;
  /** One color for this scheduler in every tab (Run, Classroom, Sweep, exports). */
  color: string;
  /** A high-contrast variant of the same hue, for the black projector theme. */
  colorHc: string;
}

const BARRIER: SyncMechanism = { kind: 'barrier', barrierAfter: false, executor: 'smallest' };
const CYCLE: SyncMechanism = { kind: 'cycle', barrierAfter: false, executor: 'last' };

const profiles = new Map<string, SchedulerProfile>();

export function registerScheduler(p: SchedulerProfile): void {
  profiles.set(p.id, p);
}

function add(
  id: string,
  family: Family,
  sync: SyncMechanism | null,
  color: string,
  colorHc: string,
  steals = false,
  stealsWhileWaiting = false,
): void {
  registerScheduler({ id, family, sync, steals, stealsWhileWaiting, color, colorHc });
}

// Colors: one hue per scheduler, the same hue (brighter) on black.
add('sequential', 'sequential', null, '#667085', '#d0d5dd');
add('early', 'early', BARRIER, '#2f6fde', '#5fa8ff');
add('busy-wait', 'early', CYCLE, '#d92d20', '#ff6b5e');
add('ws-conservative', 'work-stealing', BARRIER, '#7a5af8', '#b69cff', true);
add('ws-moderate', 'work-stealing', { ...CYCLE, barrierAfter: true }, '#0e9384', '#2ee6cf', true, true);
add('ws-aggressive', 'work-stealing', CYCLE, '#dc6803', '#ffa53d', true, true);
add('ws-optimistic', 'work-stealing', CYCLE, '#2e9e44', '#4ee67a', true, true);
add('late', 'late', null, '#c11574', '#ff6fc1');
add('epaxos', 'epaxos', null, '#9e7700', '#ffd43b');
add('pepaxos', 'epaxos', null, '#6b4f00', '#e6c200');
for (const r of ['repart-rr', 'repart-sw', 'repart-base', 'repart-async'])
  add(r, 'repartitioning', null, '#475467', '#98a2b3');
add('libasync', 'coloring', null, '#155b75', '#5ad1ff');
add('mely', 'coloring', null, '#4e5ba6', '#9aa8ff');

/** Guess a family from a scheduler id (used while the report has no `family`). */
function guessFamily(scheduler: string): Family {
  if (scheduler === 'early' || scheduler === 'busy-wait') return 'early';
  if (scheduler.startsWith('ws-')) return 'work-stealing';
  if (scheduler === 'late') return 'late';
  if (scheduler === 'epaxos' || scheduler === 'pepaxos') return 'epaxos';
  if (scheduler.startsWith('repart-')) return 'repartitioning';
  if (scheduler === 'libasync' || scheduler === 'mely') return 'coloring';
  return 'sequential';
}

/** The profile of a scheduler id; an unknown id gets a neutral one of its guessed family. */
export function profileOf(scheduler: string): SchedulerProfile {
  return (
    profiles.get(scheduler) ?? {
      id: scheduler,
      family: guessFamily(scheduler),
      sync: null,
      steals: false,
      stealsWhileWaiting: false,
      color: '#667085',
      colorHc: '#d0d5dd',
    }
  );
}

/** A run's family: the report's `family` when the engine gives it, else the profile's. */
export function familyOfRun(run: { scheduler: string; family?: string } | undefined): Family {
  if (!run) return 'sequential';
  const f = run.family as Family | undefined;
  return f ?? profileOf(run.scheduler).family;
}

/** The color of a scheduler, on white or (high contrast) on black. */
export function schedulerColor(scheduler: string, highContrast = false): string {
  const p = profileOf(scheduler);
  return highContrast ? p.colorHc : p.color;
}

/** "barrier", "cycle" or "cycle + barrier": the word the views use for a class's meeting point. */
export function mechanismWord(m: SyncMechanism | null): string {
  if (!m) return 'sync';
  return m.kind === 'barrier' ? 'barrier' : m.barrierAfter ? 'cycle + barrier' : 'cycle';
}
