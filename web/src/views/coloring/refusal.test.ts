import { describe, expect, it } from 'vitest';
import { SMALL } from '../../trace/codec';
import { refusalText } from './words';

const TIME_LEFT = SMALL.StealRefused.heuristic.TimeLeft;

describe('a time-left refusal in words', () => {
  it('says "time left < steal cost" only when it is so', () => {
    expect(refusalText({ heuristic: TIME_LEFT, left_ns: 45, cost_ns: 1000 })).toBe('time left 45 ns < steal cost 1 µs');
    // A color judged against an earlier, higher cost: no false inequality on screen.
    const later = refusalText({ heuristic: TIME_LEFT, left_ns: 225, cost_ns: 129 });
    expect(later).not.toContain('<');
    expect(later).toContain('earlier, higher steal cost');
  });
});
