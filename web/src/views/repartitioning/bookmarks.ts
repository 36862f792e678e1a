/**
 * Lesson bookmarks of repartitioning: the scheduler pausing, a map switch,
 * a request over several partitions released after its workers met.
 */
import { F, KIND, NO_REQUEST } from '../../trace/codec';
import { first, firstOfKind, type Finder } from '../bookmarks';

export const repartBookmarks: Record<string, Finder> = {
  'scheduler-pause': firstOfKind(KIND.SchedulerPause),

  'map-switch': firstOfKind(KIND.MapSwitch),

  'part-sync': (track) => {
    const t = track.model.trace;
    // A request over several partitions released after its workers met.
    return first(track, (i) => t.kind(i) === KIND.PartSyncRelease && t.get(i, F.PartSyncRelease.req) !== NO_REQUEST);
  },
};
