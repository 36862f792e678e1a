/**
 * The steps of late-scheduling and ePaxos runs: which pseudo-code line of
 * the teaching page an event is at, and one plain sentence for it (the
 * Classroom's step captions, `narrate.ts`). Apart from the views' graph
 * model (`model.ts`, fetched with the graph view) so that a lesson of
 * another family does not fetch the graphs' code with the captions
 * (issue 30). No React, no engine; unit-tested in `model.test.ts`.
 */

import { AUX_BASE, REASON as R, SCHEDULER, sccName } from '../../trace/codec';
import { onEvent } from '../../trace/dispatch';
import type { Ev } from './model';

/** Which listing and line of the teaching page's pseudo-code an event is at. */
export interface Step {
  listing: 'scheduler' | 'worker' | 'commit' | 'executor' | 'builder';
  line: number;
  sentence: string;
}

const who = (thread: number) =>
  thread === SCHEDULER ? 'The scheduler' : thread >= AUX_BASE ? 'The graph builder' : `Worker ${thread}`;

/** The step of a late run's event (lines of `docs/teaching/late.md`). */
const LATE_STEP = onEvent<Ev, undefined, Step | null>(
  {
    Delivered: (e) => ({ listing: 'scheduler', line: 1, sentence: `Request r${e.a} is delivered.` }),
    WaitStart: (e) => {
      if (e.extra === R.Lock)
        return {
          listing: e.thread === SCHEDULER ? 'scheduler' : 'worker',
          line: e.thread === SCHEDULER ? 2 : 2,
          sentence: `${who(e.thread)} queues for the graph's lock: someone else holds it.`,
        };
      if (e.extra === R.FullGraph)
        return {
          listing: 'scheduler',
          line: 3,
          sentence: `The graph is full: the scheduler waits for a worker to remove a request before inserting r${e.a}.`,
        };
      if (e.extra === R.EmptyQueue)
        return { listing: 'worker', line: 3, sentence: `${who(e.thread)} finds nothing ready and sleeps.` };
      return null;
    },
    DepEdge: (e) => ({
      listing: 'scheduler',
      line: 5,
      sentence: `Request r${e.a} conflicts with r${e.b}, still in the graph: it must wait for it.`,
    }),
    GraphInsert: (e) => ({
      listing: 'scheduler',
      line: 6,
      sentence:
        e.b === 0
          ? `Request r${e.a} enters the graph with no edge.`
          : `Request r${e.a} enters the graph waiting for ${e.b} request${e.b === 1 ? '' : 's'}.`,
    }),
    Ready: (e) =>
      e.thread === SCHEDULER
        ? { listing: 'scheduler', line: 7, sentence: `Request r${e.a} depends on nothing: it is ready.` }
        : { listing: 'worker', line: 8, sentence: `Request r${e.a} lost its last edge: it is ready.` },
    Dequeued: (e) => ({ listing: 'worker', line: 4, sentence: `${who(e.thread)} takes ready r${e.a} from the graph.` }),
    ExecStart: (e) => ({
      listing: 'worker',
      line: 6,
      sentence: `${who(e.thread)} executes r${e.a}, outside the lock.`,
    }),
    ExecEnd: (e) => ({
      listing: 'worker',
      line: 6,
      sentence: `${who(e.thread)} has finished executing r${e.a}; next it locks the graph to remove it.`,
    }),
    GraphRemove: (e) => ({
      listing: 'worker',
      line: 8,
      sentence: `Request r${e.a} leaves the graph; its dependents lose an edge.`,
    }),
  },
  () => null,
);

export function lateStep(e: Ev): Step | null {
  return LATE_STEP(e, undefined);
}

/** The step of an epaxos or pepaxos run's event (lines of `docs/teaching/{epaxos,pepaxos}.md`). */
/** What the handlers of an ePaxos step need to know: PePaxos (`parallel`) or ePaxos. */
interface EpaxosRun {
  parallel: boolean;
  /** The listing of the thread that builds the graph: the builder (PePaxos) or the executor (ePaxos). */
  executor: Step['listing'];
}

const EPAXOS_STEP = onEvent<Ev, EpaxosRun, Step | null>(
  {
    Delivered: (e) =>
      e.thread === SCHEDULER
        ? {
            listing: 'commit',
            line: 1,
            sentence: `Command r${e.a} reaches the commit thread; its instance commits next.`,
          }
        : null,
    Commit: (e) => ({
      listing: 'commit',
      line: 1,
      sentence: `Instance ${e.a} commits with seq ${e.b} and ${e.c} dependenc${e.c === 1 ? 'y' : 'ies'}.`,
    }),
    CommitWait: (e, c) => ({
      listing: c.executor,
      line: c.parallel ? 4 : 6,
      sentence: `Instance ${e.a}'s graph reaches instance ${e.b}, not committed yet: ${e.a} waits for that commit.`,
    }),
    GroupFound: (e, c) => ({
      listing: c.executor,
      line: c.parallel ? 6 : 7,
      sentence:
        e.b === 1
          ? `${sccName(e.a)}: one instance, number ${e.c + 1} in its graph's order (dependencies first).`
          : `${sccName(e.a)}: a cycle of ${e.b} instances (leaders collided), number ${e.c + 1} in its graph's order; seq orders them.`,
    }),
    WaitStart: (e) => {
      if (e.extra === R.Semaphore)
        return {
          listing: 'builder',
          line: 7,
          sentence: 'Every credit is taken: the builder waits until a worker finishes an SCC.',
        };
      if (e.extra === R.Scc)
        return {
          listing: 'worker',
          line: 4,
          sentence: `${who(e.thread)} waits: its SCC depends on another SCC that has not finished (the instance of r${e.b}).`,
        };
      return null;
    },
    SccStart: (e, c) =>
      c.parallel
        ? {
            listing: 'worker',
            line: 2,
            sentence: `${who(e.thread)} takes ${sccName(e.a)} (${e.b} instance${e.b === 1 ? '' : 's'}).`,
          }
        : { listing: 'executor', line: 7, sentence: `The executor runs ${sccName(e.a)}.` },
    ExecStart: (e, c) => ({
      listing: c.parallel ? 'worker' : 'executor',
      line: c.parallel ? 6 : 9,
      sentence: `${who(e.thread)} executes r${e.a}.`,
    }),
    ExecEnd: (e, c) => ({
      listing: c.parallel ? 'worker' : 'executor',
      line: c.parallel ? 7 : 10,
      sentence: `${who(e.thread)} has finished executing r${e.a}: its instance's command is executed.`,
    }),
    SccEnd: (e, c) =>
      c.parallel
        ? { listing: 'worker', line: 8, sentence: `${sccName(e.a)} is finished; its credit goes back.` }
        : { listing: 'executor', line: 10, sentence: `${sccName(e.a)} is executed.` },
  },
  () => null,
);

export function epaxosStep(e: Ev, parallel: boolean): Step | null {
  return EPAXOS_STEP(e, { parallel, executor: parallel ? 'builder' : 'executor' });
}
