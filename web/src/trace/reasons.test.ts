import { describe as group, expect, it } from 'vitest';
import vocabulary from './vocabulary.json';
import { describe, KIND, NO_REQUEST, type TraceEvent } from './codec';
import { reasonWords, reasonWordTable } from './reasons';
// Every family registers the words of the reasons only it records.
import '../views/families';

const reasons = (vocabulary as { reasons: { code: number; name: string }[] }).reasons;

group('wait reasons in plain words', () => {
  it('every reason of the committed vocabulary has a wording, and no wording is left over', () => {
    expect(reasons.length).toBeGreaterThan(0);
    const REASON_WORDS = reasonWordTable();
    for (const r of reasons) {
      const words = (REASON_WORDS as Record<string, string | undefined>)[r.name];
      expect(words, r.name).toBeTruthy();
      expect(reasonWords(r.code)).toBe(words);
      // Plain words, not the engine's name again.
      expect(words).not.toBe(r.name);
      if (r.name.includes('-')) expect(words).not.toContain(r.name);
    }
    expect(Object.keys(REASON_WORDS).sort()).toEqual(reasons.map((r) => r.name).sort());
  });

  it('the event list says every reason in words', () => {
    for (const r of reasons) {
      const e: TraceEvent = {
        t_ns: 0,
        thread: 1,
        kind: KIND.WaitStart,
        extra: r.code,
        a: NO_REQUEST,
        b: NO_REQUEST,
        c: 0,
      };
      const text = describe(e, (c) => `C${c}`);
      expect(text).toBe(`T1 waits ${(reasonWordTable() as Record<string, string>)[r.name]}`);
      if (r.name.includes('-')) expect(text).not.toContain(r.name);
    }
  });

  it('an unknown code is said as one', () => {
    expect(reasonWords(200)).toContain('unknown');
  });
});
