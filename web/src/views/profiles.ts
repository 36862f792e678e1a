/**
 * What the views know about each scheduler: its family, how the threads of
 * a sequential class meet (a blocking barrier, a busy-wait arrival cycle,
 * or a cycle followed by a barrier), which thread executes the request,
 * whether it steals, and its color (one color per scheduler on every tab).
 *
 * The table is filled by the family modules (`views/family.ts`,
 * `registerFamily`, listed in `views/families.ts`); every view, caption and
 * status phrase reads it instead of testing scheduler names, so a new
 * family plugs in without special cases. See docs/views.md.
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

/** Blocking barrier, executed by the smallest thread id (early, conservative work stealing). */
export const BARRIER: SyncMechanism = { kind: 'barrier', barrierAfter: false, executor: 'smallest' };
/** Arrival cycle, executed by the last to arrive (busy-wait and the spinning work-stealing variants). */
export const CYCLE: SyncMechanism = { kind: 'cycle', barrierAfter: false, executor: 'last' };

const profiles = new Map<string, SchedulerProfile>();
/** Families that claim scheduler ids they did not list (e.g. every `ws-*`), in registration order. */
const claims: { family: Family; owns: (scheduler: string) => boolean }[] = [];

export function registerScheduler(p: SchedulerProfile): void {
  profiles.set(p.id, p);
}

/** A family claims the unknown scheduler ids `owns` accepts (its guessed family when the report names none). */
export function registerClaim(family: Family, owns: (scheduler: string) => boolean): void {
  claims.push({ family, owns });
}

/** Guess a family from a scheduler id (used while the report has no `family`). */
function guessFamily(scheduler: string): Family {
  return claims.find((c) => c.owns(scheduler))?.family ?? 'sequential';
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
