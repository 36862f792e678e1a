/**
 * The Classroom tab: choose 1-4 traced runs of the last report (several =
 * compare mode, aligned by requests completed) and replay them in the
 * views. Runs of the report before (a what-if run's original) can join the
 * comparison while their traces are still loaded. A lesson started from
 * the first screen picks its runs and view and adds its bar (bookmarks,
 * questions, what-ifs).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import './classroom.css';
import { replayStore, useLeadTrack, useReplay } from '../replay/store';
import { fileSlug, saveBlob } from '../export';
import { runStore, useRun, warmEngineFor } from '../store';
import { lessonOfRun, previousInScope, useLesson } from '../lessons/store';
import { LESSONS } from '../lessons/lessons';
import { lessonStore } from '../lessons/store';
import type { ClassInfo, Report, RunReport } from '../engine/protocol';
import { cutText } from './traceCut';
import { ClassroomView } from './ClassroomView';
import { classroomStore } from './classroomStore';
import { LessonBar } from './LessonBar';
import { BreakIt, BreakItToggle } from './breakit/BreakIt';
import { LiveThreads } from './live/LiveThreads';
import { forgetOlderThan, hasModel, makeTrack, modelFor, runLabel } from './tracks';
import { momentUrl, placeParams, useLink, type Moment } from '../components/links';
import { landMoment } from './exactMoment';
import { virtualOf } from '../engine/virtualCores';
import { patchHash } from '../components/nav';
import { nameMoment } from './moments';
import type { Track } from '../replay/store';
import { ShareLinkOutput, useShareLink } from './ShareLink';

/**
 * Go to a shared moment: its view, its leading run, its place. Returns, in
 * words, what could not be found (`missing`: the replay then shows the start
 * or the nearest such moment) and whether the re-run's trace differs from
 * the shared run's (`differs`: a real run always may, a virtual one only
 * with another engine or cost table); null for each when there is nothing
 * to say.
 */
function showMoment(
  tracks: Track[],
  m: Moment,
  digestOf: (i: number) => string | null,
): { missing: string | null; differs: string | null } {
  if (m.view) classroomStore.getState().setView(m.view);
  const missing: string[] = [];
  const found = m.lead ? tracks.findIndex((t) => t.label === m.lead || t.scheduler === m.lead) : 0;
  if (found < 0) missing.push(`no run "${m.lead}" in this report: ${tracks[0]?.label ?? 'the first run'} leads`);
  const i = Math.max(0, found);
  // A virtual run's exact step when its trace is the shared one, else the nearest equal moment (views/exactMoment.ts).
  const landing = tracks[i] ? landMoment(tracks[i], m, digestOf(i)) : null;
  if (landing?.exact) {
    replayStore.getState().lead(i, landing.position ?? 0);
    return {
      missing: missing.length > 0 ? `The link's moment was not found as given: ${missing.join('; ')}.` : null,
      differs: null,
    };
  }
  const p = landing?.position ?? null;
  if (m.at && tracks[i]) {
    if (p === null) missing.push(`this run never reached "${m.at}": the replay starts at the beginning`);
    else if (/^(steal|release|arrive):/.test(m.at) && nameMoment(tracks[i], p) !== m.at)
      missing.push(`this run has fewer than "${m.at}": showing the nearest, ${nameMoment(tracks[i], p)}`);
  }
  replayStore.getState().lead(i, p ?? 0);
  const text =
    missing.length > 0
      ? `The link's moment was not found as given (a new run has new timings): ${missing.join('; ')}.`
      : null;
  return { missing: text, differs: landing?.differs ?? null };
}

/** The moment on screen: the runs replayed, the view, the leading run and where it is. */
function currentMoment(picks: Pick[]): Moment | null {
  const st = replayStore.getState();
  const lead = st.tracks[st.leader];
  if (!lead) return null;
  const runs = st.tracks.map((t) => picks.find((p) => `run-${p.id}` === t.key)?.run).filter((r) => !!r);
  const leadPick = picks.find((p) => `run-${p.id}` === lead.key);
  const model = leadPick ? virtualOfSerial(leadPick.serial) : null;
  return {
    // A run and its run before share a label: the link names it once (the re-run has only the one).
    runs: [...new Set(runs.map((r) => r!.label ?? r!.scheduler))],
    view: classroomStore.getState().viewId,
    lead: runs[st.leader]?.label ?? lead.scheduler,
    at: nameMoment(lead, st.position),
    vc: model?.cores ?? null,
    ct: model?.cost_table ?? null,
    pos: st.position,
    len: lead.model.length,
    dg: (leadPick && model?.trace_digests[leadPick.index]) ?? null,
  };
}

/** The model of report `serial` (the current or the one before), or null for real threads. */
function virtualOfSerial(serial: number) {
  const rs = runStore.getState();
  if (serial === rs.runSerial) return virtualOf(rs.report);
  return rs.previous?.serial === serial ? virtualOf(rs.previous.report) : null;
}

/**
 * While a lesson is on, the moment on screen is kept in the URL hash (a
 * little after it changes), so a reload starts the lesson again and comes
 * back to it.
 */
function useLessonMomentInHash(on: boolean, picks: Pick[]): void {
  const latest = useRef(picks);
  useEffect(() => {
    latest.current = picks;
  }, [picks]);
  useEffect(() => {
    if (!on) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const write = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const m = currentMoment(latest.current);
        if (m) patchHash({ runs: m.runs.join(',') || null, view: m.view, lead: m.lead, at: m.at, ...placeParams(m) });
      }, 400);
    };
    const unsubs = [replayStore.subscribe(write), classroomStore.subscribe(write)];
    return () => {
      clearTimeout(timer);
      unsubs.forEach((u) => u());
    };
  }, [on]);
}

/** "Share this moment": a link that runs this scenario and opens the classroom at this moment. */
function ShareMoment({ picks }: { picks: Pick[] }) {
  const tracks = useReplay((s) => s.tracks);
  const { url, error, made } = useShareLink();
  if (tracks.length === 0) return null;
  const share = async () => {
    const m = currentMoment(picks);
    if (!m) return;
    const link = made(await momentUrl(runStore.getState().text, m, lessonStore.getState().lessonId));
    if (link === null) return;
    try {
      await navigator.clipboard?.writeText(link);
    } catch {
      // No clipboard permission: the link is shown to copy by hand.
    }
  };
  return (
    <span className="share-moment">
      <button type="button" onClick={() => void share()} data-testid="share-moment" title="A link to this moment">
        share this moment
      </button>
      <ShareLinkOutput url={url} error={error} label="link to this moment" testId="moment-url" />
    </span>
  );
}

const MAX_TRACKS = 4;

/** One run the classroom can replay: report `serial`, run `index`. */
interface Pick {
  id: string;
  serial: number;
  index: number;
  run: RunReport;
  /** The classes of the run's report. */
  classes: ClassInfo[];
  label: string;
  before: boolean;
}

function runsOf(report: Report | null | undefined): RunReport[] {
  return report?.runs ?? [];
}

/**
 * The runs a lesson names (labels or scheduler ids), else the first
 * parallel run; after a what-if, each beside its run before the change.
 */
function defaultChoice(picks: Pick[], wanted: readonly string[] | undefined, withBefore: boolean): string[] {
  const current = picks.filter((p) => !p.before);
  if (wanted && wanted.length > 0) {
    const mine = wanted
      .map((w) => current.find((p) => p.run.label === w || p.run.scheduler === w))
      .filter((x): x is Pick => !!x);
    const ids = mine.flatMap((p) => {
      const old = withBefore ? picks.find((q) => q.before && q.run.label === p.run.label) : undefined;
      return old ? [p.id, old.id] : [p.id];
    });
    if (ids.length > 0) return ids.slice(0, MAX_TRACKS);
  }
  const i = current.findIndex((p) => p.run.scheduler !== 'sequential');
  return current.length === 0 ? [] : [current[i >= 0 ? i : 0].id];
}

/** Save the leading track's packed trace (24-byte events, the engine's format) as a file. */
function TraceDownload() {
  const t = useLeadTrack();
  if (!t || t.model.length === 0) return null;
  const save = () => {
    const w = t.model.trace.words;
    saveBlob(new Blob([w.slice().buffer as ArrayBuffer]), `trace-${fileSlug(t.label)}.bin`);
  };
  return (
    <button type="button" onClick={save} data-testid="download-trace" title="The packed trace of the leading run">
      trace ⤓
    </button>
  );
}

export function ClassroomPanel() {
  return <RunClassroom />;
}

/** No report yet: the lessons, one click each (the first starts the engine); why the last run failed, if it did. */
function NoRun() {
  const failed = useRun((s) => (s.phase === 'failed' ? s.error : null));
  return (
    <div className="classroom-empty" data-testid="classroom-empty">
      {failed && (
        <p className="engine-failed" role="alert" data-testid="classroom-run-failed">
          The run failed: {failed}. Start the lesson again to retry.
        </p>
      )}
      <p>Start a lesson, or run a traced scenario from the sidebar, to replay it here.</p>
      <ul>
        {LESSONS.map((l) => (
          <li key={l.id}>
            <button
              type="button"
              onPointerEnter={() => warmEngineFor(l.scenario)}
              onClick={() => void lessonStore.getState().start(l)}
            >
              {l.title} ▶
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function RunClassroom() {
  const report = useRun((s) => s.report);
  const previous = useRun((s) => s.previous);
  const serial = useRun((s) => s.runSerial);
  const phase = useRun((s) => s.phase);
  useLesson((s) => s.lessonId);
  const whatIf = useLesson((s) => s.whatIf);
  const lesson = lessonOfRun(serial);
  const picks = useMemo<Pick[]>(() => {
    const out: Pick[] = [];
    const cur = runsOf(report);
    cur.forEach((r, i) =>
      out.push({
        id: `${serial}:${i}`,
        serial,
        index: i,
        run: r,
        classes: report?.classes ?? [],
        label: runLabel(r, cur, i),
        before: false,
      }),
    );
    // A lesson's list holds its own runs only (not the run of the lesson before).
    if (
      previous &&
      previous.serial === serial - 1 &&
      previousInScope(lessonStore.getState(), serial, previous.serial)
    ) {
      const prev = runsOf(previous.report);
      prev.forEach((r, i) => {
        if (hasModel(previous.serial, i)) {
          out.push({
            id: `${previous.serial}:${i}`,
            serial: previous.serial,
            index: i,
            run: r,
            classes: previous.report.classes ?? [],
            label: `before: ${runLabel(r, prev, i)}`,
            before: true,
          });
        }
      });
    }
    return out;
  }, [report, previous, serial]);
  // A shared link's moment belongs to the run the link started.
  const linkMoment = useLink((s) => (s.momentSerial === serial ? s.moment : null));
  // The choice belongs to one report: a new run starts from the default.
  const [choice, setChoice] = useState<{ serial: number; ids: string[] } | null>(null);
  const chosenIds = useMemo(
    () =>
      choice && choice.serial === serial
        ? choice.ids
        : defaultChoice(picks, linkMoment?.runs.length ? linkMoment.runs : lesson?.runs, !!whatIf),
    [choice, serial, picks, lesson, whatIf, linkMoment],
  );
  const chosen = chosenIds.map((id) => picks.find((p) => p.id === id)).filter((p): p is Pick => !!p);
  const key = `${serial}:${chosenIds.join(',')}`;
  const [status, setStatus] = useState<{ key: string; text: string } | null>(null);
  const momentShown = useRef(-1);
  const [momentNote, setMomentNote] = useState<{
    serial: number;
    missing: string | null;
    differs: string | null;
  } | null>(null);
  useLessonMomentInHash(!!lesson, picks);

  // A lesson opens on its view once per run.
  useEffect(() => {
    if (lesson && !linkMoment) classroomStore.getState().setView(lesson.view);
  }, [lesson, serial, linkMoment]);

  useEffect(() => {
    let live = true;
    forgetOlderThan(serial);
    if (!report || chosen.length === 0) {
      replayStore.getState().setTracks([]);
      return;
    }
    const fetch = (i: number) => runStore.getState().fetchTrace(i);
    Promise.all(chosen.map((p) => modelFor(p.serial, p.index, fetch)))
      .then((models) => {
        if (!live) return;
        const tracks = models.map((m, j) =>
          makeTrack(`run-${chosen[j].id}`, chosen[j].label, chosen[j].run, m, chosen[j].classes),
        );
        replayStore.getState().setTracks(tracks);
        if (linkMoment && momentShown.current !== serial) {
          momentShown.current = serial;
          const note = showMoment(
            tracks,
            linkMoment,
            (i) => virtualOfSerial(chosen[i].serial)?.trace_digests[chosen[i].index] ?? null,
          );
          setMomentNote({ serial, ...note });
        }
        const empty = models.every((m) => m.length === 0);
        setStatus({
          key,
          text: empty
            ? 'These runs recorded no trace events: the scenario has tracing off ("run": {"trace": true} turns it on).'
            : '',
        });
      })
      .catch((e: unknown) => {
        if (live) setStatus({ key, text: `Could not load the trace: ${e instanceof Error ? e.message : String(e)}` });
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  if (phase === 'running') return <LiveThreads />;
  if (!report) return <NoRun />;

  const toggle = (id: string) => {
    const next = chosenIds.includes(id)
      ? chosenIds.filter((x) => x !== id)
      : chosenIds.length >= MAX_TRACKS
        ? chosenIds
        : [...chosenIds, id];
    setChoice({ serial, ids: next });
  };
  const statusText =
    chosen.length === 0 ? 'Tick a run above to replay it.' : status?.key === key ? status.text : 'Loading traces…';
  const cut = chosen.filter((p) => p.run.trace_window?.cut || p.run.trace_truncated);
  return (
    <div className="classroom-panel">
      {lesson && <LessonBar lesson={lesson} picks={picks} onPick={(ids) => setChoice({ serial, ids })} />}
      <div className="run-choice" data-testid="run-choice" data-run-serial={serial}>
        <span className="muted">Replay (up to {MAX_TRACKS} side by side):</span>
        {picks.map((p) => (
          <label key={p.id} className={p.before ? 'run-pick before' : 'run-pick'}>
            <input
              type="checkbox"
              checked={chosenIds.includes(p.id)}
              onChange={() => toggle(p.id)}
              data-testid={p.before ? `pick-before-${p.run.label ?? p.run.scheduler}` : `pick-${p.run.scheduler}`}
            />{' '}
            {p.label}
          </label>
        ))}
        <TraceDownload />
        <ShareMoment picks={picks} />
        <BreakItToggle />
      </div>
      <BreakIt />
      {cut.length > 0 && (
        <p className="warn" data-testid="trace-cut">
          {cut.map((p) => cutText(p.label, p.run.trace_window)).join(' ')}
        </p>
      )}
      {momentNote?.serial === serial && momentNote.differs && (
        <p className="muted" role="status" data-testid="moment-differs">
          {momentNote.differs}
        </p>
      )}
      {momentNote?.serial === serial && momentNote.missing && (
        <p className="warn" role="status" data-testid="moment-missing">
          {momentNote.missing}
        </p>
      )}
      {statusText && (
        <p className="muted" data-testid="classroom-status">
          {statusText}
        </p>
      )}
      <ClassroomView allRuns={runsOf(report)} runs={chosen.map((p) => p.run)} />
    </div>
  );
}
