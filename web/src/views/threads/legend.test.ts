/**
 * The Threads view's legend says what its chips mean in the run shown: a
 * request run's classes (read / write, barrier), an event run's colors
 * (coloring: no class, no read or write, no barrier), over the recorded
 * lesson traces.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import '../families';
import { KIND, F } from '../../trace/codec';
import { lessonTracks, oneTrackProps } from '../consistency';
import type { Track } from '../../replay/store';
import { statusContext, threadStatuses } from '../status';
import { eventColors, ThreadsView } from './ThreadsView';

function html(track: Track): string {
  const p = Math.floor(track.model.trace.length / 2);
  const state = track.model.stateAt(p);
  return renderToStaticMarkup(
    createElement(ThreadsView, oneTrackProps(track, p, state, threadStatuses(state, statusContext(track)))),
  );
}

describe('the Threads view legend', async () => {
  const events = await lessonTracks(['libasync', 'mely']);
  const requests = await lessonTracks(['early', 'late']);

  it.each(events.map((t) => [t.file, t.track] as const))('%s (events): the colors, no classes', (_f, track) => {
    const h = html(track);
    expect(h).toContain('data-testid="color-legend"');
    expect(h).not.toContain('data-testid="class-legend"');
    expect(h).not.toMatch(/R = read|W = write|barrier/);
  });

  it.each(events.map((t) => [t.file, t.track] as const))('%s (events): each event has its color', (_f, track) => {
    const t = track.model.trace;
    const table = eventColors(t);
    const colors = new Set<number>();
    for (let i = 0; i < t.length; i++) {
      if (t.kind(i) !== KIND.Registered) continue;
      expect(table[t.get(i, F.Registered.child)]).toBe(t.get(i, F.Registered.color));
      colors.add(t.get(i, F.Registered.color));
    }
    expect(colors.size).toBeGreaterThan(1);
  });

  it.each(requests.map((t) => [t.file, t.track] as const))('%s (requests): the classes', (_f, track) => {
    const h = html(track);
    expect(h).toContain('data-testid="class-legend"');
    expect(h).toContain('R = read, W = write');
    expect(h).not.toContain('data-testid="color-legend"');
  });
});
