import { describe, expect, it } from 'vitest';
import { inkOn, palette } from './display';

/** WCAG contrast ratio of two `#rrggbb` colors, written out here apart from display.ts. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) =>
    [1, 3, 5]
      .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
      .reduce((sum, c, k) => sum + c * [0.2126, 0.7152, 0.0722][k], 0);
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

describe('inkOn', () => {
  it('picks the ink of the larger contrast', () => {
    expect(inkOn('#000000')).toBe('#ffffff');
    expect(inkOn('#ffffff')).toBe('#000000');
    expect(inkOn('#999')).toBe('#000000');
  });

  it('labels every thread state color of both palettes at a contrast of at least 4.5', () => {
    for (const hc of [false, true]) {
      const p = palette(hc);
      for (const tone of ['exec', 'wait', 'spin', 'idle', 'steal'] as const) {
        const fill = p[tone];
        expect(
          contrast(inkOn(fill), fill),
          `${hc ? 'high contrast' : 'normal'} ${tone} ${fill}`,
        ).toBeGreaterThanOrEqual(4.5);
      }
    }
  });
});
