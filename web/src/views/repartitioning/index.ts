/**
 * Repartitioning: workers own partitions of the state, a
 * request over several partitions makes their workers meet, and the
 * scheduler pauses to switch to a new map.
 */
import type { FamilyModule } from '../family';
import { lazyView } from '../lazyView';
import { repartBookmarks } from './bookmarks';
import { repartCaption } from './narrate';
import { repartSentences } from './sentences';

export const repartitioning: FamilyModule = {
  family: 'repartitioning',
  schedulers: ['repart-rr', 'repart-sw', 'repart-base', 'repart-async'].map((id) => ({
    id,
    sync: null,
    color: '#475467',
    colorHc: '#98a2b3',
  })),
  owns: (scheduler) => scheduler.startsWith('repart-'),
  views: [
    {
      id: 'partitions',
      title: 'Partitions',
      order: 25,
      // A separate chunk (with its strip chart), fetched the first time a repartitioning run's Classroom shows it.
      component: lazyView(() => import('./RepartView').then((m) => ({ default: m.RepartView }))),
    },
  ],
  status: {
    // A request over several partitions: every worker it touches meets, one executes it.
    barrier: (req) => ({ text: `waiting at the sync of r${req}`, short: `sync r${req}` }),
    waits: {
      // Every worker drains what the old map routed before any runs under the new one.
      'map-switch': {
        words: 'for every worker to switch to the new partition map',
        worker: {
          activity: 'blocked',
          tone: 'wait',
          say: () => ({
            text: 'waiting at the map switch: every worker first finishes what the old map routed',
            short: 'map switch',
          }),
        },
      },
    },
  },
  bookmarks: repartBookmarks,
  captions: [repartCaption],
  // Fetched when a panel first shows a repartitioning run (no first lesson does).
  pseudocode: () => import('../pseudocode/repartitioning').then((m) => [m.repartStatic, m.repartBase, m.repartAsync]),
  sentences: repartSentences,
};
