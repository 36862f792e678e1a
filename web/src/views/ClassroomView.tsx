/**
 * The classroom: the views that apply to the loaded schedulers (as tabs),
 * the pseudo-code panel beside them and the replay controls below, laid out
 * to fill the space it is given (the screen, in presentation mode) with all
 * three always visible; only the view and the listing scroll, inside. Reads the
 * replay store; does not know where the tracks came from (the engine via
 * `ClassroomPanel`, or the synthetic traces of the harness page).
 */
import './builtin';
import { PseudoPanel } from './pseudocode/PseudoPanel';
import { replayStore, useReplay, useReplayKeysOnce } from './replayHooks';
import type { RunReport } from '../engine/protocol';
import { familyOf, viewsFor, type Family } from './registry';
import { statusContext, threadStatuses } from './status';
import { Timeline } from './Timeline';
import { useDisplay } from './display';
import { classroomStore, useClassroom } from './classroomStore';
import { TabBar } from '../components/TabBar';

export function ClassroomView({ allRuns, runs }: { allRuns: RunReport[]; runs: (RunReport | undefined)[] }) {
  useReplayKeysOnce();
  const tracks = useReplay((s) => s.tracks);
  useReplay((s) => s.position);
  useReplay((s) => s.timeNs);
  const large = useDisplay((s) => s.large);
  const hc = useDisplay((s) => s.highContrast);
  const leader = useReplay((s) => s.leader);
  const viewId = useClassroom((s) => s.viewId);
  const setViewId = classroomStore.getState().setView;
  if (tracks.length === 0) return null;
  const positions = replayStore.getState().positions();
  const states = tracks.map((t, i) => t.model.stateAt(positions[i]));
  // Derived once here, shown by every view (one state, one story).
  const statuses = tracks.map((t, i) => threadStatuses(states[i], statusContext(t)));
  const views = viewsFor(tracks.map((t) => (t.family as Family | undefined) ?? familyOf(t.scheduler)));
  const active = views.find((v) => v.id === viewId) ?? views[0];
  const View = active.component;
  return (
    <div
      className={`classroom${large ? ' large' : ''}${hc ? ' hc' : ''}`}
      data-testid="classroom"
      data-compare={tracks.length > 1}
    >
      <div className="classroom-main">
        <TabBar
          navClass="view-tabs"
          tabClass="view-tab"
          testIdPrefix="view-"
          tabs={views}
          chosen={active.id}
          choose={setViewId}
        />
        <div className="view-box" data-view={active.id}>
          <View
            tracks={tracks}
            positions={positions}
            states={states}
            statuses={statuses}
            runs={runs}
            allRuns={allRuns}
          />
        </div>
      </div>
      <div className="classroom-side" data-testid="classroom-side" data-count={tracks.length} data-leader={leader}>
        {tracks.map((t, i) => (
          <PseudoPanel
            key={t.key}
            track={t}
            position={positions[i]}
            state={states[i]}
            index={i}
            compare={tracks.length > 1}
            leading={i === leader}
          />
        ))}
      </div>
      <Timeline />
    </div>
  );
}
