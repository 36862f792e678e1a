/**
 * The lesson bar's "on N virtual cores" button (issue 27): the lesson's
 * scenario again, same seed, on the lesson's virtual cores, so an outcome
 * that needs more cores than this machine has shows on any laptop. The run
 * before (real threads) stays loaded: the classroom offers it as "before:"
 * and the outcome charts draw each kind apart (views/charts/outcomeGroups.ts).
 */
import { maxVirtualCores, referenceLabel } from '../engine/virtualCores';
import { runStore, useRun } from '../store';
import type { Lesson } from './lessons';
import { lessonStore, useLesson } from './store';

export function VirtualRunButton({ lesson, done }: { lesson: Lesson; done?: () => void }) {
  const running = useRun((s) => s.phase === 'running');
  const engine = useRun((s) => s.engine);
  const whatIf = useLesson((s) => s.whatIf);
  const v = lesson.virtual;
  if (!v) return null;
  const info = engine.state === 'ready' ? engine.info : null;
  const max = info?.poolThreads != null ? maxVirtualCores(info.poolThreads, info.limits) : null;
  const tooMany = max !== null && v.cores > max;
  const label = referenceLabel(v.cores);
  const on = whatIf === label;
  return (
    <button
      type="button"
      className="virtual-run"
      disabled={running || tooMany || on}
      data-testid="lesson-virtual"
      data-cores={v.cores}
      title={
        tooMany
          ? `This engine hosts at most ${max} virtual cores (one pool thread each)`
          : `${label}: the same scenario and seed, every thread on a simulated core of its own. ${v.why}`
      }
      onClick={() => {
        const scenario = runStore.getState().scenarios.find((s) => s.file === lesson.scenario);
        done?.();
        void lessonStore
          .getState()
          .rerun(scenario?.text ?? runStore.getState().text, label, { virtual_cores: v.cores });
      }}
    >
      {on ? `on ${v.cores} virtual cores (model)` : `▶ on ${v.cores} virtual cores (model)`}
    </button>
  );
}
