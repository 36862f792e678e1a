/**
 * Captions of early and work-stealing steps (one vocabulary for both
 * families): a dispatch to the class's threads, arrivals at a barrier or
 * cycle, the execution and its release, waits, steals. Declared by both
 * family modules (`captions`), registered with the view framework's
 * narrators (views/narrate.ts).
 */
import { describe, REASON, SCHEDULER } from '../../trace/codec';
import type { EventOf } from '../../trace/dispatch';
import { narratorOf, reqName, threadList, who, type Narrator, type StepContext } from '../narrate';
import { groupFor } from '../status';

/** What class `cls` is, as the report's classes say: a read or a write, of one shard (1-based) or of every shard. */
function classGloss(c: StepContext, cls: number): string {
  const info = c.track.classes?.[cls];
  if (!info) return '';
  const op = info.write ? 'a write' : 'a read';
  return info.shard === undefined ? `${op} of every shard` : `${op} on shard ${info.shard + 1}`;
}

function dispatch(c: StepContext, e: EventOf<'Delivered'>): string {
  const req = e.req;
  const cls = e.class;
  const name = c.className(cls);
  const gloss = classGloss(c, cls);
  const targets = c.events.flatMap((x) => (x.kind === 'Enqueued' && x.req === req ? [x.to] : []));
  const head = `The scheduler delivers r${req}, ${gloss ? `${gloss} (class ${name})` : `of class ${name}`}.`;
  const one = c.members(cls);
  if (one.length === 1 && targets.length <= 1) {
    return `${head} It goes into the queue of T${one[0]}, the only thread of ${name}, which runs it in queue order.`;
  }
  if (c.sequential(cls)) {
    const all = c.members(cls);
    const shown = all.length > 0 ? all : targets;
    return `${head} ${name} is sequential: it goes into every ${name} thread's queue (${threadList(shown)}), so they meet before it runs.`;
  }
  if (targets.length === 1) {
    const all = c.members(cls);
    return all.length > 1
      ? `${head} ${name} is concurrent: only one of its threads gets it, T${targets[0]}, taking turns (round robin).`
      : `${head} It goes into the queue of T${targets[0]}, the only thread of ${name}.`;
  }
  return `${head} The scheduler is about to put it into a queue.`;
}

function arriveText(c: StepContext, thread: number, cls: number, req: number): string {
  const g = groupFor(c.state, req);
  const need = c.members(cls).length || g?.arrived.length || 1;
  const n = g ? g.arrived.length : 1;
  const name = c.className(cls);
  const m = c.profile.sync;
  if (!m) return `T${thread} reaches r${req}, a sequential request.`;
  if (m.kind === 'barrier') {
    return n < need
      ? `T${thread} takes r${req} (${name} is sequential) and arrives at ${name}'s barrier: ${n} of ${need} there. It waits: a later request in its queue could conflict with r${req}.`
      : need === 1
        ? `T${thread} takes r${req} and arrives at ${name}'s barrier: it is ${name}'s only thread, so r${req} can run.`
        : `T${thread} takes r${req} and is the last of ${name}'s ${need} threads to arrive at the barrier: now r${req} can run.`;
  }
  return n < need
    ? `T${thread} takes r${req} (${name} is sequential) and arrives in ${name}'s cycle: ${n} of ${need}. Not the last, it spins${c.profile.stealsWhileWaiting ? ' (stealing work when it can)' : ''} until the last has run r${req}.`
    : need === 1
      ? `T${thread} takes r${req} and arrives in ${name}'s cycle: it is ${name}'s only thread, so it runs it.`
      : `T${thread} takes r${req} and is the last of ${name}'s ${need} threads to arrive in the cycle: the last to arrive runs it.`;
}

function execText(c: StepContext, e: EventOf<'ExecStart'>): string {
  const req = e.req;
  const th = e.thread;
  const cls = c.classOf(req);
  const name = c.className(cls);
  const took = c.events.some((x) => x.kind === 'Dequeued' && x.thread === th && x.req === req);
  const lane = th === SCHEDULER ? undefined : c.state.lanes[th];
  const g = groupFor(c.state, req);
  if (th === SCHEDULER) return `The scheduler executes r${req} itself, in delivery order (sequential execution).`;
  if (lane && lane.stolenAll.includes(req) && lane.stealVictim >= 0) {
    return `T${th} executes r${req}, which it stole from T${lane.stealVictim}: a concurrent request, so it may run on any thread.`;
  }
  if (g) {
    const need = c.members(cls).length || g.arrived.length;
    const rule = c.profile.sync?.executor === 'last' ? 'the last to arrive' : 'the smallest id';
    if (need === 1) return `T${th}, ${name}'s only thread, executes r${req}.`;
    return `All ${need} threads of ${name} have arrived: T${th} (${rule}) executes r${req} while the others wait, so nothing conflicting runs meanwhile.`;
  }
  if (took && c.sequential(cls)) {
    // A sequential class's request with no meeting recorded: the class has
    // this one thread, or (a broken variant) its threads skipped the meeting.
    const only = c.members(cls).length === 1;
    return only
      ? `T${th} takes ${reqName(c, req)} from the head of its queue and starts executing it: ${name} is sequential and T${th} is its only thread, so no other thread has to meet it.`
      : `T${th} takes ${reqName(c, req)} from the head of its queue and starts executing it: ${name} is sequential, yet T${th} runs it without meeting ${name}'s other threads first.`;
  }
  if (took)
    return `T${th} takes ${reqName(c, req)} from the head of its queue and starts executing it: ${name} is concurrent, so no other thread has to wait for it.`;
  return `T${th} executes ${reqName(c, req)}.`;
}

/** The end of an execution: what the thread does next follows from it. */
function endText(c: StepContext, e: EventOf<'ExecEnd'>): string {
  const req = e.req;
  const th = e.thread;
  if (th === SCHEDULER) return `The scheduler has finished executing r${req}.`;
  const g = groupFor(c.state, req);
  if (g) {
    const name = c.className(c.classOf(req));
    const next = c.profile.sync?.kind === 'cycle' ? `resets ${name}'s cycle mark` : `opens ${name}'s barrier`;
    return `T${th} has finished executing r${req}; next it ${next} so the other threads of ${name} can go on.`;
  }
  const lane = c.state.lanes[th];
  const stolen = lane && lane.stealVictim >= 0 && lane.stolenAll.includes(req);
  return `T${th} has finished executing ${reqName(c, req)}${stolen ? `, stolen from T${lane.stealVictim}` : ''}; it goes back to its queue.`;
}

function releaseText(c: StepContext, e: EventOf<'SyncRelease'>): string {
  const req = e.req;
  const name = c.className(e.class);
  if (c.profile.sync?.kind === 'cycle') {
    const after = c.profile.sync.barrierAfter ? ' (moderate stealing: through a barrier, together)' : '';
    return `T${e.executor} has executed r${req} and resets ${name}'s cycle ${e.cycle} mark: the threads spinning on it can go on${after}.`;
  }
  return `T${e.executor} has executed r${req}: ${name}'s barrier opens, and its threads go on with their queues together.`;
}

function waitText(c: StepContext, e: EventOf<'WaitStart'>): string {
  const th = e.thread;
  switch (e.reason) {
    case REASON.EmptyQueue:
      return c.profile.steals
        ? `${who(th)}'s queue is empty: it looks for work to steal from another thread's queue.`
        : `${who(th)}'s queue is empty: it sleeps until the scheduler gives it a request.`;
    case REASON.FullQueue: {
      const to = c.events.find((x): x is EventOf<'Enqueued'> => x.kind === 'Enqueued' && x.req === e.req);
      return `The queue of ${to ? `T${to.to}` : 'a thread'} is full: the scheduler stops delivering r${e.req} until that thread takes a request (back-pressure).`;
    }
    case REASON.Marker:
      return `T${th} reached sequential r${e.req}, but a thread still runs work stolen from T${th}: T${th} waits for that marker to clear, so nothing stolen runs after r${e.req}.`;
    case REASON.Barrier:
      return `T${th} waits at ${c.className(c.classOf(e.req))}'s barrier for r${e.req}.`;
    case REASON.Cycle:
      return `T${th} spins in ${c.className(c.classOf(e.req))}'s cycle until r${e.req} has been executed.`;
    default:
      return `${describe(c.raw[0], c.className)}.`;
  }
}

/** The early and work-stealing families share one vocabulary of steps. */
export const earlyCaption: Narrator = narratorOf({
  Delivered: (e, c) => dispatch(c, e),
  Enqueued: (e, c) => `The queue of T${e.to} has room again: the scheduler puts ${reqName(c, e.req)} into it.`,
  Dequeued: (e, c) => {
    const arrive = c.events.find(
      (x): x is EventOf<'SyncArrive'> => x.kind === 'SyncArrive' && x.thread === e.thread && x.req === e.req,
    );
    if (arrive) return arriveText(c, e.thread, arrive.class, arrive.req);
    const exec = c.events.find(
      (x): x is EventOf<'ExecStart'> => x.kind === 'ExecStart' && x.thread === e.thread && x.req === e.req,
    );
    if (exec) return execText(c, exec);
    return `T${e.thread} takes ${reqName(c, e.req)} from the head of its queue.`;
  },
  SyncArrive: (e, c) => arriveText(c, e.thread, e.class, e.req),
  ExecStart: (e, c) => execText(c, e),
  ExecEnd: (e, c) => endText(c, e),
  SyncRelease: (e, c) => releaseText(c, e),
  WaitStart: (e, c) => waitText(c, e),
  Steal: (e, c) => {
    const waiting = c.state.lanes[e.thread]?.waitReason === REASON.Cycle;
    const why = waiting ? `T${e.thread} waits in a cycle` : `T${e.thread} is idle`;
    // The flag as the state shows it now: the victim may have raised it again since (a sequential request arrived).
    const up = c.state.lanes[e.victim]?.ready === 1;
    const flag = up ? `T${e.victim}'s flag was down; it is up again now` : `T${e.victim}'s flag is down`;
    return `${why}: it steals T${e.victim}'s ready queue, ${e.count} request${e.count === 1 ? '' : 's'} from r${e.first} on, all concurrent (${flag}), and sets a marker on T${e.victim}.`;
  },
  StealDone: (e) =>
    `T${e.thread} has executed everything it stole from T${e.victim} and clears its marker: T${e.victim} may now synchronize on its next sequential request.`,
});
