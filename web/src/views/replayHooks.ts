/** The replay store and its keyboard shortcuts, as the views use them. */
import { useReplayKeys } from '../replay/keys';
import { replayStore, useReplay } from '../replay/store';

export { replayStore, useReplay };

export function useReplayKeysOnce(): void {
  useReplayKeys(replayStore);
}
