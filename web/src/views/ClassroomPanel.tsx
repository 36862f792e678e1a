/**
 * The Classroom tab: choose 1-4 traced runs of the last report (several =
 * compare mode on one shared replay time) and replay them in the views.
 */
import { useEffect, useMemo, useState } from 'react';
import './classroom.css';
import { replayStore, useReplay } from '../replay/store';
import { fileSlug, saveBlob } from '../export';
import { runStore, useRun } from '../store';
import { ChartsView } from './charts/ChartsView';
import { ClassroomView } from './ClassroomView';
import type { RunLike } from './registry';
import { SyntheticClassroom, syntheticModes } from './synthetic';
import { forgetOlderThan, makeTrack, modelFor, runLabel, shardsOf } from './tracks';

const MAX_TRACKS = 4;

function defaultChoice(runs: RunLike[]): number[] {
  const i = runs.findIndex((r) => r.scheduler !== 'sequential');
  return runs.length === 0 ? [] : [i >= 0 ? i : 0];
}

/** Save the primary track's packed trace (24-byte events, the engine's format) as a file. */
function TraceDownload() {
  const tracks = useReplay((s) => s.tracks);
  const t = tracks[0];
  if (!t || t.model.length === 0) return null;
  const save = () => {
    const w = t.model.trace.words;
    saveBlob(new Blob([w.slice().buffer as ArrayBuffer]), `trace-${fileSlug(t.label)}.bin`);
  };
  return (
    <button
      type="button"
      onClick={save}
      data-testid="download-trace"
      title="The packed trace of the first replayed run"
    >
      trace ⤓
    </button>
  );
}

export function ClassroomPanel() {
  const q = new URLSearchParams(window.location.search);
  const modes = syntheticModes(q);
  return modes ? <SyntheticClassroom modes={modes} q={q} /> : <RunClassroom />;
}

function RunClassroom() {
  const report = useRun((s) => s.report);
  const serial = useRun((s) => s.runSerial);
  const phase = useRun((s) => s.phase);
  const runs = useMemo(() => (report?.runs ?? []) as unknown as RunLike[], [report]);
  // The choice belongs to one report: a new run starts from the default.
  const [choice, setChoice] = useState<{ serial: number; runs: number[] } | null>(null);
  const chosen = useMemo(
    () => (choice && choice.serial === serial ? choice.runs : defaultChoice(runs)),
    [choice, serial, runs],
  );
  const key = `${serial}:${chosen.join(',')}`;
  const [status, setStatus] = useState<{ key: string; text: string } | null>(null);

  useEffect(() => {
    let live = true;
    forgetOlderThan(serial);
    if (!report || chosen.length === 0) {
      replayStore.getState().setTracks([]);
      return;
    }
    const fetch = (i: number) => runStore.getState().fetchTrace(i);
    Promise.all(chosen.map((i) => modelFor(serial, i, fetch)))
      .then((models) => {
        if (!live) return;
        const tracks = models.map((m, j) =>
          makeTrack(
            `run-${chosen[j]}`,
            runLabel(runs[chosen[j]], runs, chosen[j]),
            runs[chosen[j]],
            m,
            shardsOf(runStore.getState().text),
          ),
        );
        replayStore.getState().setTracks(tracks);
        const empty = models.every((m) => m.length === 0);
        setStatus({
          key,
          text: empty
            ? 'These runs recorded no trace events (turn tracing on in the scenario: "run": {"trace": true}).'
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

  if (phase === 'running')
    return (
      <div className="classroom">
        <p className="muted" data-testid="classroom-running">
          A run is in progress: live throughput below; the replay opens when it finishes.
        </p>
        <ChartsView tracks={[]} positions={[]} states={[]} statuses={[]} runs={[]} allRuns={[]} />
      </div>
    );
  if (!report)
    return (
      <p className="muted" data-testid="classroom-empty">
        Run a scenario with tracing on to replay it here.
      </p>
    );

  const toggle = (i: number) => {
    const c = chosen;
    const next = c.includes(i)
      ? c.filter((x) => x !== i)
      : c.length >= MAX_TRACKS
        ? c
        : [...c, i].sort((a, b) => a - b);
    setChoice({ serial, runs: next });
  };
  const statusText = status?.key === key ? status.text : 'Loading traces…';
  const chosenRuns = chosen.map((i) => runs[i]);
  return (
    <div className="classroom-panel">
      <div className="run-choice" data-testid="run-choice" data-run-serial={serial}>
        <span className="muted">Replay (pick up to {MAX_TRACKS} to compare):</span>
        {runs.map((r, i) => (
          <label key={i} className="run-pick">
            <input
              type="checkbox"
              checked={chosen.includes(i)}
              onChange={() => toggle(i)}
              data-testid={`pick-${r.scheduler}`}
            />{' '}
            {runLabel(r, runs, i)}
          </label>
        ))}
        <TraceDownload />
      </div>
      {statusText && (
        <p className="muted" data-testid="classroom-status">
          {statusText}
        </p>
      )}
      <ClassroomView allRuns={runs} runs={chosenRuns} />
    </div>
  );
}
