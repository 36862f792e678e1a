/**
 * The sequential baseline: the scheduler thread executes every request
 * itself, in delivery order (no worker, no synchronization).
 */
import { reqName, type Narrator } from '../narrate';
import type { FamilyModule } from '../family';

const deliverAndRun: Narrator = (c) =>
  c.start.kind === 'Delivered'
    ? `The scheduler delivers ${reqName(c, c.start.req)} and executes it itself: one request at a time, in order.`
    : null;

export const sequential: FamilyModule = {
  family: 'sequential',
  schedulers: [{ id: 'sequential', sync: null, color: '#667085', colorHc: '#d0d5dd' }],
  captions: [deliverAndRun],
};
