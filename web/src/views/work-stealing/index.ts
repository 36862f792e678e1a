/**
 * Work stealing (four variants, conservative to optimistic): early scheduling whose idle
 * (or, from moderate on, waiting) threads steal concurrent requests from
 * other threads' queues. Same steps and views as early scheduling, plus the
 * steals.
 */
import { meetingFamily } from '../early';
import { BARRIER, CYCLE } from '../profiles';
import { reqName } from '../status';
import { stealingBookmarks } from './bookmarks';
import { stealingSentences } from './sentences';

export const workStealing = meetingFamily({
  family: 'work-stealing',
  schedulers: [
    { id: 'ws-conservative', sync: BARRIER, color: '#7a5af8', colorHc: '#b69cff', steals: true },
    {
      id: 'ws-moderate',
      sync: { ...CYCLE, barrierAfter: true },
      color: '#0e9384',
      colorHc: '#2ee6cf',
      steals: true,
      stealsWhileWaiting: true,
    },
    { id: 'ws-aggressive', sync: CYCLE, color: '#dc6803', colorHc: '#ffa53d', steals: true, stealsWhileWaiting: true },
    { id: 'ws-optimistic', sync: CYCLE, color: '#2e9e44', colorHc: '#4ee67a', steals: true, stealsWhileWaiting: true },
  ],
  owns: (scheduler) => scheduler.startsWith('ws-'),
  // Fetched when a panel first shows a stealing run (no first lesson does).
  pseudocode: () =>
    import('../pseudocode/work-stealing').then((m) => [m.wsConservative, m.wsModerate, m.wsAggressive, m.wsOptimistic]),
  bookmarks: stealingBookmarks,
  sentences: stealingSentences,
  status: {
    waits: {
      // A victim's sequential request waits until no thread still runs work stolen from it.
      marker: {
        words: "for a stealer's marker to clear",
        worker: {
          activity: 'marker',
          tone: 'wait',
          say: (_lane, req, ctx) => ({
            text: `waiting for its stealers to finish (marker) before ${reqName(ctx, req)}`,
            short: `marker ${reqName(ctx, req)}`,
          }),
        },
      },
    },
  },
});
