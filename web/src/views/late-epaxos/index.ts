/**
 * Late scheduling (CBASE: one dependency graph behind one lock) and
 * ePaxos / PePaxos execution (SCCs of the committed instances' dependency
 * graph). Both families show the dependency graph,
 * whose view (`GraphsView.tsx`) is a separate chunk, loaded the first time
 * a late or ePaxos run's Classroom shows it.
 */
import type { FamilyModule, FamilyView } from '../family';
import { lazyView } from '../lazyView';
import { graphBookmarks, sccBookmarks } from './bookmarks';
import { epaxosCaption, lateCaption } from './narrate';
import { epaxosSentences, lateSentences } from './sentences';
import { epaxosStatus, lateStatus } from './status';

const graphView: FamilyView = {
  id: 'graph',
  title: 'Dependency graph',
  order: 25,
  component: lazyView(() => import('./GraphsView'), 'Loading the graph view…'),
};

/** Both families show the dependency graph. */
function graphFamily(m: Omit<FamilyModule, 'views'>): FamilyModule {
  return { ...m, views: [graphView] };
}

export const late = graphFamily({
  family: 'late',
  schedulers: [{ id: 'late', sync: null, color: '#c11574', colorHc: '#ff6fc1' }],
  status: lateStatus,
  captions: [lateCaption],
  // Both families' listings are one chunk, fetched when a panel first shows a late or ePaxos run.
  pseudocode: () => import('../pseudocode/late-epaxos').then((m) => [m.late]),
  bookmarks: graphBookmarks,
  sentences: lateSentences,
});

export const epaxos = graphFamily({
  family: 'epaxos',
  schedulers: [
    { id: 'epaxos', sync: null, color: '#9e7700', colorHc: '#ffd43b' },
    { id: 'pepaxos', sync: null, color: '#6b4f00', colorHc: '#e6c200' },
  ],
  status: epaxosStatus,
  captions: [epaxosCaption],
  pseudocode: () => import('../pseudocode/late-epaxos').then((m) => [m.epaxos, m.pepaxos]),
  bookmarks: sccBookmarks,
  sentences: epaxosSentences,
});
