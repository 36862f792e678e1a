/**
 * The sequential baseline: the scheduler thread executes every request
 * itself, in delivery order (no worker, no synchronization).
 */
import { reqName, type Narrator } from '../narrate';
import type { FamilyModule } from '../family';
import { sequentialCode } from '../pseudocode/sequential';

/** Delivery (with the start of its execution, when the step holds it) and the end of an execution. */
const deliverAndRun: Narrator = (c) => {
  const e = c.start;
  if (e.kind === 'Delivered') {
    const runs = c.events.some((x) => x.kind === 'ExecStart' && x.req === e.req);
    return runs
      ? `The scheduler delivers ${reqName(c, e.req)} and starts executing it itself: one request at a time, in order.`
      : `The scheduler delivers ${reqName(c, e.req)}; it will execute it itself, after the one before it.`;
  }
  if (e.kind === 'ExecStart') return `The scheduler executes ${reqName(c, e.req)} itself, in delivery order.`;
  if (e.kind === 'ExecEnd') {
    return `The scheduler has finished ${reqName(c, e.req)}; only now may the next request start.`;
  }
  return null;
};

export const sequential: FamilyModule = {
  family: 'sequential',
  schedulers: [{ id: 'sequential', sync: null, color: '#667085', colorHc: '#d0d5dd' }],
  captions: [deliverAndRun],
  pseudocode: [sequentialCode],
};
