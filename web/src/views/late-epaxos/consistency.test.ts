/**
 * One state, one story over the late and ePaxos lessons: at 120 sampled
 * algorithm steps of each recorded lesson trace, no view contradicts
 * another or the state (views/consistency.ts), the Dependency graph view
 * lists the same thread statuses, and (late) the graph it draws is the
 * state's: as many nodes as it says it holds, the ready nodes the state's,
 * and no ready request beside workers that all sleep; and "full" (the
 * view's flag, the scheduler's status) only of a graph holding its bound,
 * at the sampled steps and at every step of the lesson's bookmarks.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import '../families';
import { findBookmark } from '../bookmarks';
import { contradictions, describeLesson, lessonTracks, oneTrackProps, type Check } from '../consistency';
import { schedulerStatus, statusContext } from '../status';
import GraphsView from './GraphsView';
import { eventsOf, lateGraph } from './model';

/** "Full" said of the graph (the view's header and flag, the scheduler's status) against what it holds. */
const fullAgrees: Check = ({ track, p, state, statuses }) => {
  const html = renderToStaticMarkup(createElement(GraphsView, oneTrackProps(track, p, state, statuses)));

  const holds = /graph holds (\d+) of (\d+)/.exec(html);
  const out: string[] = [];
  if (!holds) return ['the graph view says not how many requests the graph holds'];
  const [size, bound] = [Number(holds[1]), Number(holds[2])];
  if (size !== state.graphSize) out.push(`the view says the graph holds ${size}, the state ${state.graphSize}`);
  const full = size >= bound;
  if (html.includes('data-testid="graph-full"') && !full)
    out.push(`"graph full" beside "graph holds ${size} of ${bound}"`);
  const sched = schedulerStatus(state, statusContext(track), 0);
  if (/full/.test(sched) && /blocked/.test(sched) && !full)
    out.push(`scheduler "${sched}" beside "graph holds ${size} of ${bound}"`);
  return out;
};

const lateGraphAgrees: Check = ({ track, p, state, statuses }) => {
  const g = lateGraph(eventsOf(track.model.trace), p);
  const out: string[] = [];
  if (g.size !== g.nodes.length) out.push(`graph "holds ${g.size}" with ${g.nodes.length} nodes drawn`);
  if (g.nodes.length !== state.graphSize) out.push(`${g.nodes.length} nodes drawn, the state holds ${state.graphSize}`);
  const ready = g.nodes.filter((n) => n.state === 'ready').map((n) => n.req);
  if ([...ready].sort().join() !== [...state.graphReady].sort().join())
    out.push(`ready nodes ${ready.join(',')} but the state's ${state.graphReady.join(',')}`);
  // Every ready request has a worker going for it, or no worker is idle.
  const asleep = statuses.filter((s) => s.activity === 'idle').length;
  const going = statuses.filter(
    (s) => (s.activity === 'waking' || s.activity === 'next') && ready.includes(s.req),
  ).length;
  if (asleep > 0 && going < ready.length)
    out.push(`${ready.length} ready node(s) while ${asleep} worker(s) sleep and only ${going} go for one`);
  return out;
};

describeLesson('late and ePaxos lessons', ['late', 'epaxos', 'pepaxos'], 3, [GraphsView], (track) =>
  track.scheduler === 'late' ? [lateGraphAgrees, fullAgrees] : [],
);

describe('the late lesson at its bookmarks', async () => {
  const tracks = await lessonTracks(['late']);
  it.each(tracks.map((t) => [t.file, t.track] as const))('%s: one story from each bookmark on', (_file, track) => {
    let checked = 0;
    for (const finder of ['graph-full', 'graph-ready', 'graph-lock']) {
      const mark = findBookmark(track, finder, 'graph', finder);
      if (!mark) continue;
      // The bookmark and the steps right after it (a removal before the scheduler's wait ends).
      for (let p = mark.position; p < Math.min(track.model.trace.length, mark.position + 12); p++) {
        expect(contradictions(track, p, [GraphsView], [lateGraphAgrees, fullAgrees])).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(12);
  });
});
