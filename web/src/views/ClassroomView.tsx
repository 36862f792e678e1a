/**
 * The classroom: replay controls, the views that apply to the loaded
 * schedulers (as tabs), and the pseudo-code panel beside them. Reads the
 * replay store; does not know where the tracks came from (the engine via
 * `ClassroomPanel`, or the synthetic dev harness).
 */
import { useState } from 'react';
import './builtin';
import { PseudoPanel } from './pseudocode/PseudoPanel';
import { replayStore, useReplay, useReplayKeysOnce } from './replayHooks';
import { familyOf, viewsFor, type Family, type RunLike } from './registry';
import { statusContext, threadStatuses } from './status';
import { Timeline } from './Timeline';
import { displayStore, useDisplay } from './display';

export function DisplayToggles() {
  const large = useDisplay((s) => s.large);
  const hc = useDisplay((s) => s.highContrast);
  return (
    <span className="display-toggles">
      <label>
        <input
          type="checkbox"
          checked={large}
          onChange={(e) => displayStore.getState().setLarge(e.target.checked)}
          data-testid="large-type"
        />{' '}
        large type
      </label>
      <label>
        <input
          type="checkbox"
          checked={hc}
          onChange={(e) => displayStore.getState().setHighContrast(e.target.checked)}
          data-testid="high-contrast"
        />{' '}
        high contrast
      </label>
    </span>
  );
}

export function ClassroomView({ allRuns, runs }: { allRuns: RunLike[]; runs: (RunLike | undefined)[] }) {
  useReplayKeysOnce();
  const tracks = useReplay((s) => s.tracks);
  useReplay((s) => s.position);
  useReplay((s) => s.timeNs);
  const large = useDisplay((s) => s.large);
  const hc = useDisplay((s) => s.highContrast);
  const [viewId, setViewId] = useState('threads');
  if (tracks.length === 0) return null;
  const positions = replayStore.getState().positions();
  const states = tracks.map((t, i) => t.model.stateAt(positions[i]));
  // Derived once here, shown by every view (one state, one story).
  const statuses = tracks.map((t, i) => threadStatuses(states[i], statusContext(t)));
  const views = viewsFor(tracks.map((t) => (t.family as Family | undefined) ?? familyOf(t.scheduler)));
  const active = views.find((v) => v.id === viewId) ?? views[0];
  const View = active.component;
  return (
    <div className={`classroom${large ? ' large' : ''}${hc ? ' hc' : ''}`} data-testid="classroom">
      <Timeline />
      <div className="classroom-body">
        <div className="classroom-main">
          <nav className="view-tabs" role="tablist">
            {views.map((v) => (
              <button
                key={v.id}
                type="button"
                role="tab"
                aria-selected={v.id === active.id}
                className={v.id === active.id ? 'view-tab active' : 'view-tab'}
                onClick={() => setViewId(v.id)}
                data-testid={`view-${v.id}`}
              >
                {v.title}
              </button>
            ))}
          </nav>
          <View
            tracks={tracks}
            positions={positions}
            states={states}
            statuses={statuses}
            runs={runs}
            allRuns={allRuns}
          />
        </div>
        <PseudoPanel track={tracks[0]} position={positions[0]} />
      </div>
    </div>
  );
}
