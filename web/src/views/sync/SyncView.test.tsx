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
