import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { emptyState } from '../../trace/state';
import { palette } from '../display';
import type { ThreadStatus } from '../status';
import { StealArrows } from './SyncView';

const idle = (t: number): ThreadStatus => ({
  thread: t,
  activity: 'idle',
  req: -1,
  cls: -1,
  victim: -1,
  queue: 0,
  text: 'idle',
  short: 'idle',
  tone: 'idle',
});

function graph(set: (s: ReturnType<typeof emptyState>) => void): string {
  const s = emptyState(3);
  set(s);
  return renderToStaticMarkup(
    createElement(StealArrows, { s, statuses: s.lanes.map((_, t) => idle(t)), pal: palette(false) }),
  );
}

describe('the steal graph', () => {
  it('says a thread\'s ready flag as a flag, never as a count beside its queue ("ready=0")', () => {
    const html = graph((s) => {
      s.lanes[0].ready = 0;
      s.lanes[0].queue = [1, 2, 3, 4, 5, 6];
      s.lanes[1].ready = 1;
    });
    expect(html).not.toContain('ready=');
    expect(html).toContain('flag down');
    expect(html).toContain('flag up');
  });

  it('draws two opposite steals (T0 from T2, T2 from T0) as two arcs, each with its arrowhead', () => {
    const html = graph((s) => {
      s.lanes[0].stealVictim = 2;
      s.lanes[0].stolenAll = [7];
      s.lanes[2].stealVictim = 0;
      s.lanes[2].stolenAll = [8];
    });
    const arcs = [...html.matchAll(/<path d="(M[^"]+)"[^>]*marker-end="url\(#steal-head\)"/g)].map((m) => m[1]);
    expect(arcs).toHaveLength(2);
    expect(new Set(arcs).size).toBe(2);
    // Not the same curve run backwards either: the control points differ.
    const control = (d: string) => d.split('Q')[1].split(' ')[0];
    expect(control(arcs[0])).not.toBe(control(arcs[1]));
  });
});

/** The arrowhead's tip and base corners of each steal arc in `html`, and the circle of the node it points at. */
function heads(html: string): { stealer: number; points: number[][]; center: number[]; r: number }[] {
  const attr = (tag: string, name: string) => tag.match(new RegExp(`${name}="([^"]+)"`))?.[1];
  const marker = html.match(/<marker[^>]*id="steal-head"[^>]*>/)![0];
  // An arrowhead sized in stroke widths is as many times larger as the arc's stroke (3 px).
  const scale = attr(marker, 'markerUnits') === 'userSpaceOnUse' ? 1 : 3;
  const size = Number(attr(marker, 'markerWidth')) * scale;
  const box = Number(attr(marker, 'viewBox')?.split(' ')[2] ?? attr(marker, 'markerWidth'));
  const tipPast = ((box - Number(attr(marker, 'refX'))) / box) * size;
  return [...html.matchAll(/<g[^>]*data-stealer="(\d+)"[^>]*><path d="([^"]+)"/g)].map((m) => {
    const stealer = Number(m[1]);
    const nums = m[2].match(/-?[\d.]+/g)!.map(Number);
    const [cx, cy, ex, ey] = nums.slice(-4);
    const len = Math.hypot(ex - cx, ey - cy);
    const [dx, dy] = [(ex - cx) / len, (ey - cy) / len];
    const tip = [ex + dx * tipPast, ey + dy * tipPast];
    const base = [tip[0] - dx * size, tip[1] - dy * size];
    const corners = [-1, 1].map((s) => [base[0] - (dy * s * size) / 2, base[1] + (dx * s * size) / 2]);
    const circle = html.match(new RegExp(`data-thread="${stealer}"[^>]*><circle([^>]*)>`))![1];
    return {
      stealer,
      points: [tip, ...corners],
      center: [Number(attr(circle, 'cx')), Number(attr(circle, 'cy'))],
      r: Number(attr(circle, 'r')),
    };
  });
}

describe("the steal graph's arrowheads", () => {
  it("stop at the stealer's circle, both ways, never over its name", () => {
    const html = graph((s) => {
      s.lanes[2].stealVictim = 0;
      s.lanes[2].stolenAll = [7, 8];
      s.lanes[0].stealVictim = 1;
      s.lanes[0].stolenAll = [9];
    });
    const found = heads(html);
    expect(found.map((h) => h.stealer).sort()).toEqual([0, 2]);
    for (const h of found)
      for (const p of h.points)
        expect(Math.hypot(p[0] - h.center[0], p[1] - h.center[1]), `T${h.stealer}'s arrowhead`).toBeGreaterThanOrEqual(
          h.r,
        );
  });
});
