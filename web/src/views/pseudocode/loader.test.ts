import { describe, expect, it } from 'vitest';
import { codeFor } from './PseudoPanel';
import {
  loadAllPseudoCode,
  loadPseudoCode,
  pseudoCodePending,
  registerPseudoCodeLoader,
  type PseudoCode,
} from './types';

/** A listing of two made-up schedulers (no family has these ids). */
const listing: PseudoCode = {
  schedulers: ['loader-test-a', 'loader-test-b'],
  source: 'test',
  listings: [{ id: 'worker', title: 'Worker', lines: [{ n: 1, text: 'run r', indent: 0 }] }],
  rules: [],
};

describe('listings fetched on first need', () => {
  it('are pending until fetched, fetched once however many ask, and fetched again after a failure', async () => {
    let calls = 0;
    let fail = true;
    registerPseudoCodeLoader(
      (id) => id.startsWith('loader-test-'),
      async () => {
        calls++;
        if (fail) throw new Error('offline');
        return [listing];
      },
    );
    expect(pseudoCodePending('loader-test-b')).toBe(true);
    expect(pseudoCodePending('early')).toBe(false);
    expect(codeFor('loader-test-b')).toBeNull();

    // A failed fetch leaves the listing pending; the next need fetches again.
    await expect(loadPseudoCode('loader-test-a')).rejects.toThrow('offline');
    expect(pseudoCodePending('loader-test-a')).toBe(true);
    fail = false;
    await Promise.all([loadPseudoCode('loader-test-a'), loadPseudoCode('loader-test-b')]);
    expect(calls).toBe(2);
    expect(codeFor('loader-test-b')).toBe(listing);
    expect(pseudoCodePending('loader-test-a')).toBe(false);

    // Nothing left to fetch for them: no further call.
    await loadPseudoCode('loader-test-a');
    await loadAllPseudoCode();
    expect(calls).toBe(2);
  });
});
