/**
 * Early scheduling: the scheduler puts each request into the
 * queues of its class's threads; the threads of a sequential class meet at
 * a blocking barrier (`early`) or a busy-wait arrival cycle (`busy-wait`)
 * before one of them executes it.
 */
import type { FamilyModule, FamilyView } from '../family';
import { lazyView } from '../lazyView';
import { BARRIER, CYCLE } from '../profiles';
import { busyWait, early as earlyCode } from '../pseudocode/early';
import { earlyBookmarks } from './bookmarks';
import { earlyCaption } from './narrate';

/**
 * The views of the families whose classes meet (early and work stealing),
 * each a separate chunk fetched the first time the Classroom shows it (a
 * lesson opens on the threads view).
 */
const meetingViews: FamilyView[] = [
  {
    id: 'sync',
    title: 'Synchronization',
    order: 20,
    component: lazyView(() => import('../sync/SyncView').then((m) => ({ default: m.SyncView }))),
  },
  {
    id: 'mapping',
    title: 'Mapping',
    order: 30,
    component: lazyView(() => import('../mapping/MappingView').then((m) => ({ default: m.MappingView }))),
  },
];

/**
 * A family whose classes' threads meet (early scheduling, work stealing):
 * the meeting views, the shared step captions and the meeting bookmarks,
 * besides the family's own.
 */
export function meetingFamily(m: Omit<FamilyModule, 'views' | 'captions'>): FamilyModule {
  return { ...m, views: meetingViews, captions: [earlyCaption], bookmarks: { ...earlyBookmarks, ...m.bookmarks } };
}

export const early = meetingFamily({
  family: 'early',
  schedulers: [
    { id: 'early', sync: BARRIER, color: '#2f6fde', colorHc: '#5fa8ff' },
    { id: 'busy-wait', sync: CYCLE, color: '#d92d20', colorHc: '#ff6b5e' },
  ],
  pseudocode: [earlyCode, busyWait],
});
