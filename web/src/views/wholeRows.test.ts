import { describe, expect, it } from 'vitest';
import { markCutRows } from './wholeRows';

/** A row between client `top` and `bottom`, with the attribute calls `markCutRows` makes. */
function row(top: number, bottom: number, cut = false) {
  const attrs = new Set<string>(cut ? ['data-cut'] : []);
  const el = {
    getBoundingClientRect: () => ({ top, bottom }),
    hasAttribute: (a: string) => attrs.has(a),
    toggleAttribute: (a: string, on: boolean) => {
      if (on) attrs.add(a);
      else attrs.delete(a);
      return on;
    },
  };
  return { el: el as unknown as HTMLElement, cut: () => attrs.has('data-cut') };
}

describe('markCutRows', () => {
  it('marks exactly the rows crossing the top or the bottom edge', () => {
    const rows = [row(80, 120), row(100, 130), row(150, 180), row(290, 310), row(300, 330), row(320, 340)];
    markCutRows(
      rows.map((r) => r.el),
      100,
      300,
    );
    // Across the top (80..120), inside (100..130 starts at the edge, 150..180), across the bottom (290..310),
    // starting at the bottom edge (300..330) or below it (320..340): not drawn by the box anyway, not marked.
    expect(rows.map((r) => r.cut())).toEqual([true, false, false, true, false, false]);
  });

  it('unmarks a row that is whole again (after a scroll)', () => {
    const r = row(150, 180, true);
    markCutRows([r.el], 100, 300);
    expect(r.cut()).toBe(false);
  });

  it('allows half a pixel of rounding at an edge', () => {
    const rows = [row(99.6, 130), row(270, 300.4), row(99.4, 130)];
    markCutRows(
      rows.map((r) => r.el),
      100,
      300,
    );
    expect(rows.map((r) => r.cut())).toEqual([false, false, true]);
  });
});
