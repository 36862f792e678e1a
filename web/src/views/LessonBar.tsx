/**
 * The lesson bar above the classroom: the lesson's bookmarks (each jumps to
 * its moment in the lesson's run and opens the view that shows it), its
 * questions, a compare button, and the what-if changes with a re-run on
 * the same seed.
 *
 * On a short screen (a projector's 720 px) the bar is one line: the title,
 * the bookmarks as numbered buttons with the chosen one named, and a
 * "More" button that opens the compare / what-if / questions row over the
 * view, so the view, the caption, the highlighted line and the timeline keep
 * the height.
 */
import { useEffect, useMemo, useState } from 'react';
import { useReplay, replayStore } from '../replay/store';
import { useRun, runStore } from '../store';
import type { Lesson } from '../lessons/lessons';
import { lessonStore, useLesson } from '../lessons/store';
import { VirtualRunButton } from '../lessons/VirtualRunButton';
import type { RunReport } from '../engine/protocol';
import { findBookmarkIn } from './bookmarks';
import { classroomStore } from './classroomStore';
import { applyWhatIf, WHAT_IFS } from './whatif';

/** Screens at most this high get the one-line bar. */
export const COMPACT_LESSON_BAR_QUERY = '(max-height: 820px)';

/** True while the window matches `query` (kept current on resize). */
function useMedia(query: string): boolean {
  const get = () => typeof matchMedia === 'function' && matchMedia(query).matches;
  const [on, setOn] = useState(get);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const m = matchMedia(query);
    const read = () => setOn(m.matches);
    m.addEventListener('change', read);
    read();
    return () => m.removeEventListener('change', read);
  }, [query]);
  return on;
}

interface PickLike {
  id: string;
  run: RunReport;
  before: boolean;
}

function WhatIfs({ lesson, done }: { lesson: Lesson; done: () => void }) {
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
              done();
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
          done();
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
  // Each bookmark is looked up in the run it names (else the lesson's runs,
  // else any replayed run): in compare mode the first track may be a run
  // that never does it.
  const marks = useMemo(
    () => lesson.bookmarks.map((b) => ({ b, found: findBookmarkIn(tracks, b, lesson.runs) })),
    [tracks, lesson],
  );
  const compareIds = (lesson.compare ?? [])
    .map((w) => picks.find((p) => !p.before && (p.run.label === w || p.run.scheduler === w))?.id)
    .filter((x): x is string => !!x);
  // The lesson's run and the same run before the re-run: offered only when both are there.
  const mine = picks.find((p) => !p.before && lesson.runs.includes(p.run.label ?? p.run.scheduler));
  const old =
    mine && picks.find((p) => p.before && (p.run.label ?? p.run.scheduler) === (mine.run.label ?? mine.run.scheduler));
  const beforePair = mine && old ? [mine.id, old.id] : null;
  const compact = useMedia(COMPACT_LESSON_BAR_QUERY);
  const [open, setOpen] = useState(false);
  // The bookmark last jumped to, named on the compact line.
  const [chosen, setChosen] = useState<number | null>(null);
  const close = () => setOpen(false);
  /** Closes the compact menu and shows the runs `ids` side by side. */
  const pick = (ids: string[]) => {
    close();
    onPick(ids);
  };
  const tools = (
    <div className={compact ? 'lesson-row lesson-more' : 'lesson-row'} data-testid="lesson-tools">
      {compareIds.length > 1 && (
        <button type="button" data-testid="lesson-compare" onClick={() => pick(compareIds)}>
          compare {lesson.compare?.join(' and ')}
        </button>
      )}
      {beforePair && (
        <button type="button" data-testid="compare-before" onClick={() => pick(beforePair)}>
          compare with the run before
        </button>
      )}
      <WhatIfs lesson={lesson} done={close} />
      <details className="questions">
        <summary>Questions to ask</summary>
        <ol>
          {lesson.questions.map((q) => (
            <li key={q}>{q}</li>
          ))}
        </ol>
      </details>
    </div>
  );
  return (
    <section
      className={compact ? 'lesson-bar compact' : 'lesson-bar'}
      data-testid="lesson-bar"
      data-lesson={lesson.id}
      data-compact={compact}
    >
      <div className="lesson-row lesson-head">
        <b className="lesson-title" title={lesson.title}>
          {lesson.title}
        </b>
        {whatIf && (
          <span className="what-if-tag" data-testid="what-if-tag">
            what if: {whatIf}
          </span>
        )}
        <span className="bookmarks">
          {marks.map(({ b, found }, i) => (
            <button
              key={i}
              type="button"
              disabled={!found}
              data-testid={`bookmark-${i}`}
              data-finder={b.finder}
              aria-label={`${i + 1}. ${b.title}`}
              aria-pressed={compact ? chosen === i : undefined}
              data-track={found ? tracks[found.track]?.key : undefined}
              title={
                found
                  ? `${compact ? `${b.title}: ` : ''}jump to it (${b.view} view${tracks.length > 1 ? `, ${tracks[found.track]?.label}` : ''})`
                  : 'this run did not do it: run again'
              }
              onClick={() => {
                if (!found) return;
                setChosen(i);
                replayStore.getState().pause();
                replayStore.getState().lead(found.track, found.mark.position);
                classroomStore.getState().setView(found.mark.view);
              }}
            >
              {compact ? i + 1 : `${i + 1}. ${b.title}`}
            </button>
          ))}
        </span>
        {compact && (
          <span className="bookmark-chosen" data-testid="bookmark-chosen">
            {chosen !== null
              ? marks[chosen]?.b.title
              : `${marks.length} ${marks.length === 1 ? 'moment' : 'moments'} to show`}
          </span>
        )}
        {compact && (
          <button
            type="button"
            className="lesson-more-toggle"
            aria-expanded={open}
            data-testid="lesson-more"
            title="Compare, what if, questions to ask"
            onClick={() => setOpen((o) => !o)}
          >
            {open ? 'less ▴' : 'more ▾'}
          </button>
        )}
        <VirtualRunButton lesson={lesson} done={close} />
        <button type="button" className="end-lesson" onClick={() => lessonStore.getState().stop()}>
          end lesson
        </button>
      </div>
      {(!compact || open) && tools}
    </section>
  );
}
