/**
 * The "Author" tab, plugged into the app shell (see components/panels.ts):
 * the authoring panel wired to the run store and the engine bridge.
 *
 * The text lives in the run store, so the editor, the sidebar's source and
 * "Run" all see the same scenario. Check runs through the store too (one
 * engine run at a time, its progress and Cancel in the sidebar, its last
 * report in the Run tab), then asks the engine to judge the reports it kept
 * for those runs (by their ids).
 */
import { lazy, Suspense, useEffect, useMemo } from 'react';
import type { PanelDef } from '../components/panels';
import type { RunOutcome, RunOptions, RunSnapshot } from '../engine/protocol';
import { shippedScenarios } from '../gallery/scenarios';
import { SHARE_TAB } from '../share/codec';
import { packageNeeded } from '../engine/host';
import { engineHost, runStore, useRun, warmEngine } from '../store';
import type { CheckEngine } from './check';
import type { ValidateFn } from './lint';

// CodeMirror and the schema tooling (with its highlighter) are a separate
// chunk, fetched when the Author tab first opens: they would triple the
// app's first load otherwise.
const AuthoringPanel = lazy(() => import('./AuthoringPanel').then((m) => ({ default: m.AuthoringPanel })));

/** One run of the current text through the run store, as a check needs it. */
async function runThroughStore(
  text: string,
  options: RunOptions,
  onProgress?: (s: RunSnapshot | null) => void,
): Promise<RunOutcome> {
  const store = runStore.getState();
  if (store.phase === 'running') throw new Error('a run is already in progress; wait for it or cancel it');
  if (store.text !== text) store.setText(text);
  const unsubscribe = runStore.subscribe((s) => onProgress?.(s.progress));
  try {
    await store.run(options);
  } finally {
    unsubscribe();
  }
  const after = runStore.getState();
  switch (after.phase) {
    case 'refused':
      return { ok: false, diagnostics: after.diagnostics };
    case 'failed':
      throw new Error(after.error ?? 'the engine failed');
    default:
      if (!after.report || after.reportId === null) throw new Error('the run ended without a report');
      return { ok: true, report: after.report, report_id: after.reportId };
  }
}

function AuthorTab() {
  const text = useRun((s) => s.text);
  const file = useRun((s) => s.file);
  const setText = useRun((s) => s.setText);
  const running = useRun((s) => s.phase === 'running');
  const ready = useRun((s) => s.engine.state === 'ready');
  const failed = useRun((s) => (s.engine.state === 'failed' ? s.engine.error : null));
  // The engine's validation (and Check) need the engine: opening the Author tab starts it.
  useEffect(() => warmEngine(), []);

  const validate = useMemo<ValidateFn | null>(
    () => (ready ? (t) => engineHost.validate(t, file) : null),
    [ready, file],
  );
  const checkEngine = useMemo<CheckEngine | null>(
    () =>
      ready
        ? {
            // One engine package for the whole check: its runs' reports stay in the worker evaluate asks.
            session: (t, body) => engineHost.session(packageNeeded(t), body),
            plan: (t) => engineHost.checkPlan(t, file),
            run: runThroughStore,
            evaluate: (t, reportIds) =>
              engineHost.evaluate(t, reportIds, runStore.getState().reportRan?.generation ?? -1, file),
          }
        : null,
    [ready, file],
  );

  return (
    <>
      {failed && (
        <p className="engine-failed" role="alert" data-testid="author-engine-failed">
          The engine could not start ({failed}): only the page-side checks run. “try again” in the header starts it
          anew.
        </p>
      )}
      <Suspense fallback={<p className="muted">Loading the editor…</p>}>
        <AuthoringPanel
          text={text}
          file={file}
          onTextChange={(t, f) => {
            // A shipped file opened unchanged is selected as such, so the sidebar's picker follows.
            const store = runStore.getState();
            if (f && store.scenarios.some((e) => e.file === f && e.text === t)) store.selectScenario(f);
            else setText(t, f);
          }}
          gallery={shippedScenarios}
          validate={validate}
          onRun={() => void runStore.getState().run()}
          running={running}
          checkEngine={checkEngine}
        />
      </Suspense>
    </>
  );
}

export const panels: PanelDef[] = [{ id: SHARE_TAB, title: 'Author', order: 5, component: AuthorTab }];
