/**
 * Lesson bookmarks of work stealing: the first steal, a victim waiting for
 * its stealers (marker), a steal done.
 */
import { KIND, REASON } from '../../trace/codec';
import { firstOfKind, firstWait, type Finder } from '../bookmarks';

export const stealingBookmarks: Record<string, Finder> = {
  steal: firstOfKind(KIND.Steal),

  'marker-wait': firstWait(REASON.Marker),

  'steal-done': firstOfKind(KIND.StealDone),
};
