/**
 * The event-coloring runtimes: Libasync-smp and Mely run
 * events of one color one at a time, on the core that owns the color, and
 * idle cores may steal whole colors.
 */
import type { FamilyModule } from '../family';
import { lazyView } from '../lazyView';
import { coloringBookmarks } from './bookmarks';
import { coloringCaption } from './narrate';
import { coloringSentences } from './sentences';

export const coloring: FamilyModule = {
  family: 'coloring',
  schedulers: [
    { id: 'libasync', sync: null, color: '#155b75', colorHc: '#5ad1ff' },
    { id: 'mely', sync: null, color: '#4e5ba6', colorHc: '#9aa8ff' },
  ],
  views: [
    {
      id: 'coloring',
      title: 'Colors & steals',
      order: 25,
      // A separate chunk, fetched the first time a coloring run's Classroom shows it.
      component: lazyView(() => import('./ColoringView').then((m) => ({ default: m.ColoringView }))),
    },
  ],
  // One name per thing: its threads view, lanes and captions all say event (e12), never request (r12).
  status: { item: 'e' },
  captions: [coloringCaption],
  sentences: coloringSentences,
  // Fetched when a panel first shows a coloring run (no first lesson does).
  pseudocode: () => import('../pseudocode/coloring').then((m) => [m.libasync, m.mely]),
  bookmarks: coloringBookmarks,
};
