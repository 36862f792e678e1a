import { describe, expect, it } from 'vitest';
import { describe as describeEvent, KIND, registerSentences } from '../../trace/codec';
import { stealingSentences } from './sentences';

describe("work stealing's event sentences", () => {
  registerSentences(stealingSentences);
  const flag = (ready: number) =>
    describeEvent({ t_ns: 0, thread: 1, kind: KIND.Flag, extra: ready, a: 0, b: 0, c: 0 }, (c) => `C${c}`);

  it('say the flag up or down, as the steal graph and the captions do (never "= 0/1")', () => {
    expect(flag(1)).toBe('T1 puts its flag up (a sequential request is queued)');
    expect(flag(0)).toBe('T1 puts its flag down (no sequential request queued)');
  });
});
