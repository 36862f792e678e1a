/**
 * Pseudo-code of the sequential baseline: the scheduler thread executes
 * every request itself, in delivery order (the reference every parallel
 * scheduler's execution order is judged against). Explained in
 * `docs/teaching/sequential.md`.
 */
import { listing } from './build';
import type { PseudoCode } from './types';

const scheduler = listing('scheduler', 'Scheduler thread (no workers)', [
  ['on deliver(r):', 0],
  ['execute r', 1, 'one request at a time, in delivery order'],
]);

export const sequentialCode: PseudoCode = {
  schedulers: ['sequential'],
  source: 'The baseline every scheduler is compared with. Explained in docs/teaching/sequential.md.',
  listings: [scheduler],
  rules: [
    { kind: 'Delivered', target: { listing: 'scheduler', line: 1 } },
    { kind: 'ExecStart', target: { listing: 'scheduler', line: 2 } },
    { kind: 'ExecEnd', target: { listing: 'scheduler', line: 2 } },
  ],
};
