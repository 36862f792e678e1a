/**
 * Captions of event-coloring steps (Libasync-smp and Mely, paper 002): one
 * plain sentence per step, from the step's events, saying what the runtime
 * did and why, in the words of docs/teaching/event-coloring.md. Declared by
 * the family's module (index.ts), registered with the view framework's
 * narrators (views/narrate.ts); events these do not describe fall through to
 * the generic narrator.
 */
import { NO_REQUEST, REASON, SMALL } from '../../trace/codec';
import type { EventOf } from '../../trace/dispatch';
import { eventsOf, narratorOf, type Narrator, type StepContext } from '../narrate';
import { measuredUs, refusalText, us } from './words';

/** Mely's queues and steals differ from Libasync-smp's. */
const isMely = (c: StepContext) => c.track.scheduler === 'mely';

/** Where a registered event went and why: "goes into T0's queue, because color 5 was free and is now claimed for T0". */
function registration(c: StepContext, r: EventOf<'Registered'>): string {
  const claimed = eventsOf(c, 'ColorHome').some((h) => h.color === r.color);
  const why = claimed
    ? `color ${r.color} was free and is now claimed for T${r.core}`
    : `color ${r.color} already lives on T${r.core}, and its events stay together`;
  return `goes into T${r.core}'s queue, because ${why}`;
}

/** What the handler of event `parent` registered in this step. */
function children(c: StepContext, parent: number): string {
  const regs = eventsOf(c, 'Registered').filter((r) => r.parent === parent);
  if (regs.length === 0) return '';
  const names = regs.slice(0, 2).map((r) => `e${r.child} (color ${r.color}, T${r.core}'s queue)`);
  const more = regs.length > 2 ? ` and ${regs.length - 2} more` : '';
  return `; its handler registers ${names.join(', ')}${more}`;
}

function dequeue(c: StepContext, e: EventOf<'Dequeued'>, mely: boolean): string {
  const from = mely ? 'from its head color-queue (up to a batch of one color)' : 'from the head of its FIFO';
  const ran = eventsOf(c, 'ExecStart').some((x) => x.thread === e.thread && x.req === e.req)
    ? ' and starts running its handler'
    : '';
  return `T${e.thread} takes e${e.req} ${from}${ran}; no other core runs this color meanwhile${children(c, e.req)}.`;
}

function stealTry(c: StepContext, e: EventOf<'StealTry'>): string {
  const refused = eventsOf(c, 'StealRefused').find((x) => x.thread === e.thread);
  const look = `T${e.thread} has nothing to run and looks at T${e.victim}'s queue (${e.queued} events) for a color to steal`;
  if (!refused) return `${look}.`;
  const { Nothing, Half } = SMALL.StealRefused.heuristic;
  const color = refused.heuristic === Nothing || refused.heuristic === Half ? '' : ` color ${refused.color}`;
  return `${look}: refused${color}, ${refusalText(refused)}.`;
}

/**
 * A steal in one short sentence (it must fit a stacked caption's four
 * lines at 1280x720): the whole color moves, and how each runtime moves it.
 */
function colorSteal(c: StepContext, e: EventOf<'ColorSteal'>, mely: boolean): string {
  const cost = eventsOf(c, 'StealCost').find((x) => x.thread === e.thread && x.victim === e.victim);
  const how = mely
    ? `its color-queue moves whole from T${e.victim}'s list to T${e.thread}'s tail`
    : `taken out of T${e.victim}'s FIFO from the head, in order`;
  const price =
    cost !== undefined
      ? `; it took ${measuredUs(cost.steal_ns)} for ${us(cost.left_ns)} of work${cost.steal_ns > cost.left_ns ? ', more than it gains' : ''}`
      : '';
  return `T${e.thread} steals color ${e.color} (${e.count} event${e.count === 1 ? '' : 's'}) from T${e.victim}: ${how}${price}.`;
}

/** A step's sentence, from its first event. */
export const coloringCaption: Narrator = narratorOf({
  Delivered: (e, c) => {
    const r = eventsOf(c, 'Registered').find((x) => x.thread === e.thread && x.parent === NO_REQUEST);
    return r
      ? `The driver delivers root event e${r.child} of color ${r.color}: it ${registration(c, r)}.`
      : `The driver delivers root event e${e.req}, to be queued on the core its color lives on (or claims).`;
  },
  Dequeued: (e, c) => dequeue(c, e, isMely(c)),
  ExecStart: (e, c) => {
    // (After a wait for work, the take and the run are two steps.)
    return `T${e.thread} runs the handler of e${e.req}; no other core runs this color meanwhile${children(c, e.req)}.`;
  },
  ExecEnd: (e, c) => `T${e.thread} has finished the handler of e${e.req}${children(c, e.req)}.`,
  StealTry: (e, c) => stealTry(c, e),
  ColorSteal: (e, c) => colorSteal(c, e, isMely(c)),
  WaitStart: (e) => {
    if (e.reason === REASON.EmptyQueue) {
      return `T${e.thread} has nothing to run and no color to take: it spins, then yields, then sleeps until an event is registered for it.`;
    }
    if (e.reason === REASON.FullQueue) {
      return `The driver waits: the core root event e${e.req} would go to already holds queue_capacity events (back-pressure).`;
    }
    return null;
  },
});
