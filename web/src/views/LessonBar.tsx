/**
 * The lesson bar above the classroom: the lesson's bookmarks (each jumps to
 * its moment in the lesson's run and opens the view that shows it), its
 * questions, a compare button, and the what-if changes with a re-run on
 * the same seed.
 */
import { useMemo, useState } from 'react';
import { useReplay, replayStore } from '../replay/store';
import { useRun, runStore } from '../store';
import type { Lesson } from '../lessons/lessons';
import { lessonStore, useLesson } from '../lessons/store';
import type { RunLike } from './registry';
import { findBookmark } from './bookmarks';
import { classroomStore } from './classroomStore';
import { applyWhatIf, WHAT_IFS } from './whatif';

interface PickLike {
  id: string;
  run: RunLike;
  before: boolean;
}

function WhatIfs({ lesson }: { lesson: Lesson }) {
  const text = useRun((s) => s.text);
  const engine = useRun((s) => s.engine);
  const running = useRun((s) => s.phase === 'running');
  const features = engine.state === 'ready' ? engine.info.features : [];
  const [why, setWhy] = useState<string | null>(null);
  const offered = WHAT_IFS.filter((w) => !w.needs || features.includes(w.needs));
  return (
    <span className="what-ifs" data-testid="what-ifs">
      <span className="muted">What if:</span>
      {offered.map((w) => {
        const r = applyWhatIf(w, text);
        return (
          <button
            key={w.id}
            type="button"
            disabled={running || !r.ok}
            title={r.ok ? w.hint : `not here: ${r.why}`}
            data-testid={`what-if-${w.id}`}
            onClick={() => {
              if (!r.ok) return setWhy(r.why);
              setWhy(null);
              void lessonStore.getState().rerun(r.text, w.label, r.options);
            }}
          >
            {w.label}
          </button>
        );
      })}
      <button
        type="button"
        disabled={running}
        data-testid="rerun"
        title="Run the lesson's scenario again on the same seed: the same requests, other timings"
        onClick={() => {
          const scenario = runStore.getState().scenarios.find((s) => s.file === lesson.scenario);
          void lessonStore.getState().rerun(scenario?.text ?? text, null);
        }}
      >
        ↻ run again
      </button>
      {why && <span className="warn">{why}</span>}
    </span>
  );
}

export function LessonBar({
  lesson,
  picks,
  onPick,
}: {
  lesson: Lesson;
  picks: PickLike[];
  onPick: (ids: string[]) => void;
}) {
  const tracks = useReplay((s) => s.tracks);
  const whatIf = useLesson((s) => s.whatIf);
  const main = tracks[0];
  const marks = useMemo(
    () => lesson.bookmarks.map((b) => ({ b, found: main ? findBookmark(main, b.finder, b.view, b.title) : null })),
    [main, lesson],
  );
  const compareIds = (lesson.compare ?? [])
    .map((w) => picks.find((p) => !p.before && (p.run.label === w || p.run.scheduler === w))?.id)
    .filter((x): x is string => !!x);
  const before = picks.filter((p) => p.before);
  return (
    <section className="lesson-bar" data-testid="lesson-bar" data-lesson={lesson.id}>
      <div className="lesson-row">
        <b className="lesson-title">{lesson.title}</b>
        {whatIf && <span className="what-if-tag">what if: {whatIf}</span>}
        <span className="bookmarks">
          {marks.map(({ b, found }, i) => (
            <button
              key={i}
              type="button"
              disabled={!found}
              data-testid={`bookmark-${i}`}
              data-finder={b.finder}
              title={found ? `jump to it (${b.view} view)` : 'this run did not do it: run again'}
              onClick={() => {
                if (!found) return;
                replayStore.getState().pause();
                replayStore.getState().lead(0, found.position);
                classroomStore.getState().setView(found.view);
              }}
            >
              {i + 1}. {b.title}
            </button>
          ))}
        </span>
        <button type="button" className="end-lesson" onClick={() => lessonStore.getState().stop()}>
          end lesson
        </button>
      </div>
      <div className="lesson-row">
        {compareIds.length > 1 && (
          <button type="button" data-testid="lesson-compare" onClick={() => onPick(compareIds)}>
            compare {lesson.compare?.join(' and ')}
          </button>
        )}
        {before.length > 0 && (
          <button
            type="button"
            data-testid="compare-before"
            onClick={() => {
              const mine = picks.find((p) => !p.before && lesson.runs.includes(p.run.label ?? p.run.scheduler));
              const old = before.find((p) => mine && p.run.label === mine.run.label);
              onPick([mine?.id, old?.id].filter((x): x is string => !!x));
            }}
          >
            compare with the run before
          </button>
        )}
        <WhatIfs lesson={lesson} />
        <details className="questions">
          <summary>Questions to ask</summary>
          <ol>
            {lesson.questions.map((q) => (
              <li key={q}>{q}</li>
            ))}
          </ol>
        </details>
      </div>
    </section>
  );
}
