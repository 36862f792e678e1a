/**
 * Break it, in the classroom: drop one rule of the scheduler on screen (a
 * broken variant of the engine's catalog), let the engine explore its
 * schedules on virtual cores, and replay the first one the oracle rejects
 * at the moment the second request of the offending pair starts, with both
 * threads' lanes, the oracle's sentence and the pseudo-code line the
 * dropped rule would have enforced.
 */
import { useEffect, useRef, useState } from 'react';
import './breakit.css';
import { replayStore, useLeadTrack, type Track } from '../../replay/store';
import { runStore, useRun } from '../../store';
import { lessonStore, useLesson } from '../../lessons/store';
import { lessonById } from '../../lessons/lessons';
import { momentUrl } from '../../components/links';
import { runViolation } from '../../components/verdict';
import { ShareLinkOutput, useShareLink } from '../ShareLink';
import { modelLabel, virtualOf } from '../../engine/virtualCores';
import { usePseudoCode } from '../pseudocode/PseudoPanel';
import { classroomStore } from '../classroomStore';
import { nameMoment } from '../moments';
import { breakItStore, useBreakIt } from './index';
import { brokenVariants, guardLine, pairMoment, pairOf, pairSentence, pinnedText, type BrokenVariant } from './logic';

/** The run picker's "break it" button: opens the bar (shown while nothing is going on in it). */
export function BreakItToggle() {
  const open = useBreakIt((s) => s.open);
  const id = useLeadTrack()?.scheduler;
  if (!id || brokenVariants(id).length === 0) return null;
  return (
    <button
      type="button"
      aria-expanded={open}
      data-testid="breakit-toggle"
      title="Drop one rule of this scheduler and let the engine find an interleaving that breaks it"
      onClick={() => breakItStore.getState().setOpen(!open)}
    >
      break it {open ? '▴' : '▾'}
    </button>
  );
}

/** The break-it bar under the run picker: the variant, the button, progress, and what was found. */
export function BreakIt() {
  const track = useLeadTrack();
  const phase = useBreakIt((s) => s.phase);
  const asked = useBreakIt((s) => s.asked);
  const serial = useRun((s) => s.runSerial);
  const foundSerial = useBreakIt((s) => s.serial);
  const lessonId = useLesson((s) => s.lessonId);
  const open = useBreakIt((s) => s.open);
  const showing = phase === 'found' && foundSerial === serial;
  // The scheduler on screen; while a find is shown, the one that was broken.
  const id = showing && asked ? (track?.scheduler ?? asked.scheduler) : track?.scheduler;
  const variants = id ? brokenVariants(id) : [];
  const [pick, setPick] = useState<string | null>(null);
  const steps = lessonById(lessonId)?.breakIt;
  if (!track || variants.length === 0) return null;
  // A break-it lesson keeps it open; otherwise the toggle does, or what it is doing.
  if (!open && !steps && phase === 'idle') return null;
  // Until one is picked, the find on screen's fault (a shared find opens with it), else the first.
  const chosen = pick ?? (showing ? asked?.fault : null);
  const variant = variants.find((v) => v.name === chosen) ?? variants[0];
  const busy = phase === 'exploring' || phase === 'replaying';
  const find = () => {
    const st = breakItStore.getState();
    // A find on screen ran the broken text: explore from the text before it.
    const text = showing && st.asked ? st.asked.text : runStore.getState().text;
    const requests = lessonById(lessonId)?.options?.requests;
    void st.explore({ text, scheduler: track.run ?? track.scheduler, fault: variant.name, requests });
  };
  return (
    <section className="break-it" data-testid="break-it" aria-label="Break it">
      <div className="break-it-row">
        <strong>Break it:</strong>
        <label>
          drop the rule{' '}
          <select
            value={variant.name}
            disabled={busy}
            onChange={(e) => setPick(e.target.value)}
            data-testid="breakit-variant"
            aria-label="rule to drop"
          >
            {variants.map((v) => (
              <option key={v.name} value={v.name}>
                {v.rule}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={find} disabled={busy} data-testid="breakit-find">
          Find a bad interleaving
        </button>
        <Progress />
        {steps && (
          <details className="break-it-steps" data-testid="breakit-steps">
            <summary>steps</summary>
            <ol>
              {steps.map((x) => (
                <li key={x}>{x}</li>
              ))}
            </ol>
          </details>
        )}
      </div>
      {/* The select's closed box cuts a long rule at 1280 px: the rule in full, wrapped; a find
          says it again with its guard line, so then it is not repeated here. */}
      {!showing && (
        <p className="break-it-rule" data-testid="breakit-rule">
          Dropped rule: {variant.rule}
        </p>
      )}
      {showing && <Found track={track} variant={variants.find((v) => v.name === asked?.fault) ?? variant} />}
    </section>
  );
}

/** Schedules tried / budget and cancel while exploring; what happened otherwise. */
function Progress() {
  const phase = useBreakIt((s) => s.phase);
  const tried = useBreakIt((s) => s.tried);
  const budget = useBreakIt((s) => s.budget);
  const error = useBreakIt((s) => s.error);
  if (phase === 'exploring')
    return (
      <span className="break-it-status" role="status" data-testid="breakit-progress">
        exploring: {tried} / {budget} schedules tried{' '}
        <button type="button" onClick={() => void breakItStore.getState().cancel()} data-testid="breakit-cancel">
          cancel
        </button>
      </span>
    );
  if (phase === 'replaying')
    return (
      <span className="break-it-status" role="status" data-testid="breakit-progress">
        found one: replaying it…
      </span>
    );
  if (phase === 'clean')
    return (
      <span className="break-it-status" role="status" data-testid="breakit-none">
        No bad interleaving in {tried} schedules: the oracle accepted every one. More schedules, or more requests, may
        still find one; this does not prove the variant correct.
      </span>
    );
  if (phase === 'stopped')
    return (
      <span className="break-it-status" role="status" data-testid="breakit-none">
        Stopped after {tried} schedules; none was rejected.
      </span>
    );
  if (phase === 'failed')
    return (
      <span className="break-it-status warn" role="alert" data-testid="breakit-failed">
        Could not explore: {error}
      </span>
    );
  return null;
}

/** The find: the sentence, the pair on both threads' lanes, the line the dropped rule guards, a link. */
function Found({ track, variant }: { track: Track; variant: BrokenVariant }) {
  const found = useBreakIt((s) => s.found);
  const tried = useBreakIt((s) => s.tried);
  const report = useRun((s) => s.report);
  const { code } = usePseudoCode(track.scheduler);
  const run = report?.runs.find((r) => r.label === track.run || r.scheduler === track.scheduler);
  const pair = pairOf(run?.violation_detail);
  // A scan of the trace (the React compiler keeps it while pair and trace stay).
  const moment = pair ? pairMoment(track.model.trace, pair) : null;
  const jumped = useRef<string | null>(null);
  // Once per loaded track: go to the moment the second request starts.
  useEffect(() => {
    if (!moment || jumped.current === track.key) return;
    jumped.current = track.key;
    const i = replayStore.getState().tracks.findIndex((t) => t.key === track.key);
    if (i >= 0) replayStore.getState().lead(i, moment.position);
  }, [moment, track.key]);
  if (!found || !run) return null;
  const line = guardLine(code, variant.guard);
  const v = virtualOf(report);
  return (
    <div className="break-it-found" data-testid="breakit-found">
      <p className="break-it-sentence" data-testid="breakit-sentence">
        {pair ? pairSentence(pair) : runViolation(run)}
      </p>
      {moment && (
        <div className="break-it-lanes" data-testid="breakit-lanes">
          {moment.lanes.map((l) => (
            <div key={l.thread} className="break-it-lane" data-testid={`breakit-lane-${l.name}`}>
              <span className="break-it-thread">{l.name}</span>
              {l.chips.map((c, k) => (
                <span
                  key={k}
                  className={c.pair ? 'break-it-chip pair' : 'break-it-chip'}
                  data-testid={c.pair ? 'breakit-pair-req' : undefined}
                >
                  r{c.req}
                </span>
              ))}
            </div>
          ))}
        </div>
      )}
      <p className="break-it-guard" data-testid="breakit-guard">
        Dropped: {variant.rule}.{' '}
        {line ? (
          <>
            It would have been enforced at{' '}
            <code>
              {line.n} {line.text}
            </code>{' '}
            ({line.title}).
          </>
        ) : (
          'Its pseudo-code line is not in this view.'
        )}
      </p>
      <p className="break-it-meta muted">
        {found.schedule < 0 ? 'A shared find' : `Schedule ${found.schedule} of ${tried} tried`},{' '}
        {v ? modelLabel(v) : 'virtual cores (model)'}; replay token{' '}
        <code data-testid="breakit-token">{found.token}</code> <ShareFind track={track} variant={variant} />
      </p>
    </div>
  );
}

/** A link that runs the counterexample again (its token pinned in the scenario) and opens this moment. */
function ShareFind({ track, variant }: { track: Track; variant: BrokenVariant }) {
  const { url, error, made } = useShareLink();
  const share = async () => {
    const st = breakItStore.getState();
    if (!st.asked || !st.found) return;
    const name = st.asked.scheduler;
    const text = pinnedText(st.asked.text, name, variant.name, st.found.token, st.asked.requests);
    const at = nameMoment(track, replayStore.getState().position);
    const view = classroomStore.getState().viewId;
    made(await momentUrl(text, { runs: [name], view, lead: name, at }, lessonStore.getState().lessonId));
  };
  return (
    <>
      <button type="button" onClick={() => void share()} data-testid="breakit-share">
        share this find
      </button>
      <ShareLinkOutput url={url} error={error} label="link to this find" testId="breakit-link" />
    </>
  );
}
