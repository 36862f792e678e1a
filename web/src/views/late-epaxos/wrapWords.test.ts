import { describe, expect, it } from 'vitest';
import { wrapWords } from './GraphsView';

describe('wrapWords (the pending grid label of a narrow graph)', () => {
  it('breaks between words, each line within the limit, nothing lost', () => {
    const text = 'committed, not in an SCC yet, +48 more (dashed: waits for a commit)';
    const lines = wrapWords(text, 14);
    expect(lines).toEqual(['committed, not', 'in an SCC yet,', '+48 more', '(dashed: waits', 'for a commit)']);
    expect(lines.join(' ')).toBe(text);
  });
  it('keeps a word longer than the limit whole on a line of its own', () => {
    expect(wrapWords('a committed b', 5)).toEqual(['a', 'committed', 'b']);
  });
  it('one line when the text fits', () => {
    expect(wrapWords('committed, not in an SCC yet', 40)).toEqual(['committed, not in an SCC yet']);
  });
});
