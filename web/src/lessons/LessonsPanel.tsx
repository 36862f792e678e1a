/**
 * The first screen: the lessons a teacher can give from the app, each one
 * click away (it picks the scenario, runs it in the browser and opens the
 * Classroom on it), and the instructor guide.
 *
 * The first screen does not start the engine (docs/benchmarks/frontend.md,
 * "First-load size"): a lesson's run starts it, and the pointer on a lesson
 * button starts it a moment earlier.
 */
import { useRun, warmEngineFor } from '../store';
import { LESSONS } from './lessons';
import { lessonStore } from './store';
import { navStore } from '../components/nav';

export function LessonsPanel() {
  const running = useRun((s) => s.phase === 'running');
  return (
    <div className="lessons" data-testid="lessons">
      <header className="lessons-head">
        <h2>Lessons: how parallel state machine replication schedules requests</h2>
        <p>
          Each lesson runs a small scenario on real threads in this browser, checks the result against sequential
          execution, and replays what the threads did, step by step, with one sentence per step and the pseudo-code line
          it comes from. For a projector, press <b>▣ present</b> in the header.{' '}
          <button
            type="button"
            className="link"
            onClick={() => navStore.getState().setTab('guide')}
            data-testid="open-guide"
          >
            Read the instructor guide
          </button>{' '}
          for a 10-minute plan.
        </p>
      </header>
      <ol className="lesson-cards">
        {LESSONS.map((l, i) => (
          <li key={l.id} className="lesson-card" data-lesson={l.id}>
            <h3>
              {i + 1}. {l.title} <span className="muted">· {l.minutes} min</span>
            </h3>
            <p title={l.summary}>{l.summary}</p>
            <button
              type="button"
              className="primary"
              disabled={running}
              onPointerEnter={() => warmEngineFor(l.scenario)}
              onFocus={() => warmEngineFor(l.scenario)}
              onClick={() => void lessonStore.getState().start(l)}
              data-testid={`start-lesson-${l.id}`}
            >
              Start this lesson ▶
            </button>
          </li>
        ))}
      </ol>
      <p className="muted">
        Or explore on your own: open the scenario sidebar (the strip on the left, or "scenario" in the header), pick any
        scenario and press Run; the Classroom tab replays any traced run.
      </p>
    </div>
  );
}
