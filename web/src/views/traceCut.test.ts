import { describe, expect, it } from 'vitest';
import { cutText } from './traceCut';

describe('cut trace notice', () => {
  it('says what was kept and dropped, with the gap in run time', () => {
    const text = cutText('early', {
      cut: true,
      head_events: 1_000_000,
      gap_events: 12,
      tail_events: 800_000,
      dropped_events: 2_500_000,
      gap_from_ns: 40_000_000,
      gap_to_ns: 95_500_000,
    });
    expect(text).toContain('first 1,000,000 events (to 40.0 ms)');
    expect(text).toContain('the 12 steals, SCCs and map switches of the gap');
    expect(text).toContain('last 800,000 events (from 95.5 ms)');
    expect(text).toContain('2,500,000 events in between were dropped');
  });

  it('falls back when the report has no window', () => {
    expect(cutText('x', undefined)).toBe("The trace of x was cut at the engine's event bound.");
  });
});
