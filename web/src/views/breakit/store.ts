/**
 * Break-it mode's state: pick one broken variant of the scheduler on
 * screen, explore its schedules in the engine (virtual cores, a budget of
 * schedules, cancellable), and on a find replay the violating schedule by
 * its token, so the classroom shows that exact run.
 *
 * Phases: idle -> exploring -> replaying -> found | clean | stopped | failed.
 * `found` belongs to the report of run serial `serial` (the replay).
 */
import { createStore } from 'zustand/vanilla';
import type {
  ExploreFound,
  ExploreOptions,
  ExploreOutcome,
  PollSnapshot,
  RunOptions,
  RunReport,
} from '../../engine/protocol';
import { sharedFind, withFault } from './logic';

export type BreakPhase = 'idle' | 'exploring' | 'replaying' | 'found' | 'clean' | 'stopped' | 'failed';

/** The schedules the classroom explores unless asked otherwise (as `psmr explore`). */
export const DEFAULT_BUDGET = 200;

/** What one exploration is asked. */
export interface BreakRequest {
  /** The scenario text as it ran (no fault). */
  text: string;
  /** The entry to break: its label, else its scheduler id. */
  scheduler: string;
  fault: string;
  /** Virtual cores (default: the scenario's threads). */
  cores?: number;
  /** Requests (the lesson's override, so the replay runs the same stream). */
  requests?: number;
  budget?: number;
}

export interface BreakItState {
  phase: BreakPhase;
  /** The request of the exploration under way or last done. */
  asked: BreakRequest | null;
  /** Schedules tried (found correct) so far, and the budget. */
  tried: number;
  budget: number;
  found: ExploreFound | null;
  /** Run serial of the replayed violating run (its report is the one to show), or -1. */
  serial: number;
  error: string | null;
  /** The bar is open (the classroom shows only its toggle otherwise, to keep the picture large). */
  open: boolean;
  setOpen(open: boolean): void;
  explore(r: BreakRequest): Promise<void>;
  cancel(): Promise<void>;
  /** Back to idle (another variant, another lesson). */
  reset(): void;
  /**
   * A run finished (serial `serial`, scenario `text`): if the text is a
   * shared find (`pinnedText`: one entry with a fault, a pinned token) and
   * that entry's run broke, show it as this bar's find, bar open, as if it
   * had been explored here (`found.schedule` is -1: a link does not say
   * after how many schedules). Anything else, or an exploration under way,
   * leaves the state alone.
   */
  adoptShared(text: string, serial: number, runs: readonly RunReport[]): void;
}

/** What the store needs: the engine's explore/cancel, and a way to replay a run (resolves with its serial, or null). */
export interface BreakItDeps {
  explore(text: string, options: ExploreOptions, onProgress: (poll: PollSnapshot) => void): Promise<ExploreOutcome>;
  cancel(): Promise<unknown>;
  replay(text: string, options: RunOptions): Promise<number | null>;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function createBreakItStore(deps: BreakItDeps) {
  return createStore<BreakItState>()((set, get) => ({
    phase: 'idle',
    asked: null,
    tried: 0,
    budget: DEFAULT_BUDGET,
    found: null,
    serial: -1,
    error: null,
    open: false,
    setOpen(open) {
      set({ open });
    },
    async explore(r) {
      if (get().phase === 'exploring' || get().phase === 'replaying') return;
      const budget = r.budget ?? DEFAULT_BUDGET;
      set({ phase: 'exploring', asked: r, tried: 0, budget, found: null, serial: -1, error: null });
      const options: ExploreOptions = { scheduler: r.scheduler, fault: r.fault, schedules: budget };
      if (r.cores !== undefined) options.cores = r.cores;
      if (r.requests !== undefined) options.requests = r.requests;
      let outcome: ExploreOutcome;
      try {
        outcome = await deps.explore(r.text, options, (poll) => {
          const x = poll.snapshot?.explore;
          if (x && get().asked === r) set({ tried: x.tried, budget: x.budget });
        });
      } catch (e) {
        set({ phase: 'failed', error: message(e) });
        return;
      }
      if (!outcome.ok) {
        set({ phase: 'failed', error: outcome.diagnostics.map((d) => d.message).join('; ') });
        return;
      }
      const x = outcome.explore;
      if (!x.found) {
        set({ phase: x.stopped ? 'stopped' : 'clean', tried: x.schedules });
        return;
      }
      set({ phase: 'replaying', found: x.found, tried: x.schedules });
      // The token fixes seed and cores: the replay is the explored run, event for event.
      const runOptions: RunOptions = { schedulers: [r.scheduler], schedule: x.found.token, trace: true };
      if (r.requests !== undefined) runOptions.requests = r.requests;
      try {
        const serial = await deps.replay(withFault(r.text, r.scheduler, r.fault), runOptions);
        if (serial === null) set({ phase: 'failed', error: 'the violating run could not be replayed' });
        else set({ phase: 'found', serial });
      } catch (e) {
        set({ phase: 'failed', error: message(e) });
      }
    },
    async cancel() {
      if (get().phase !== 'exploring') return;
      await deps.cancel();
    },
    reset() {
      if (get().phase === 'exploring' || get().phase === 'replaying') return;
      set({ phase: 'idle', asked: null, tried: 0, found: null, serial: -1, error: null });
    },
    adoptShared(text, serial, runs) {
      if (get().phase === 'exploring' || get().phase === 'replaying') return;
      const f = sharedFind(text);
      const run = f && runs.find((r) => r.label === f.scheduler || r.scheduler === f.scheduler);
      if (!f || !run?.violation) return;
      const found: ExploreFound = {
        schedule: -1,
        token: f.token,
        violation: run.violation,
        detail: run.violation_detail ?? null,
        trace_digest: '',
      };
      set({
        phase: 'found',
        asked: { text, scheduler: f.scheduler, fault: f.fault },
        tried: 0,
        found,
        serial,
        error: null,
        open: true,
      });
    },
  }));
}

export type BreakItStore = ReturnType<typeof createBreakItStore>;
