/**
 * The authoring panel: gallery, file open/save, share link, the editor with
 * live validation and its problem list, "Run this" and "Check".
 *
 * It holds no scenario state of its own: the text and file name come from
 * the caller (the run store), so what is run is exactly what is shown.
 */
import { useCallback, useRef, useState } from 'react';
import { RunPhase } from '../components/RunControls';
import { Gallery } from '../gallery/Gallery';
import type { GalleryEntry } from '../gallery/scenarios';
import { ShareBox } from '../share/ShareBox';
import { useSharedScenario } from '../share/useSharedScenario';
import type { CheckEngine } from './check';
import { CheckPanel } from './CheckPanel';
import { downloadText, readScenarioFile, saveName } from './files';
import type { Problem, ValidateFn } from './lint';
import { ProblemList } from './ProblemList';
import { ScenarioEditor } from './ScenarioEditor';
import { scenarioSchema } from './schema';
import './authoring.css';
import type { ValidationReport } from './validation';

export interface AuthoringPanelProps {
  text: string;
  file: string;
  onTextChange: (text: string, file?: string) => void;
  gallery: GalleryEntry[];
  /** The engine's validate; `null` while it starts. */
  validate: ValidateFn | null;
  /** Run the current text (the caller's run store). */
  onRun: () => void;
  /** A run or check is in progress. */
  running: boolean;
  /** Engine access for Check; `null` while it starts. */
  checkEngine: CheckEngine | null;
}

/** File name given to a scenario opened from a share link. */
export const SHARED_FILE = 'shared.json';

export function AuthoringPanel(props: AuthoringPanelProps) {
  const { text, file, onTextChange, gallery, validate, onRun, running, checkEngine } = props;
  const [report, setReport] = useState<ValidationReport>({ problems: [], engine: { state: 'off' } });
  const [focus, setFocus] = useState<Problem | null>(null);
  const [openError, setOpenError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const onSharedText = useCallback((t: string) => onTextChange(t, SHARED_FILE), [onTextChange]);
  const [shared, dismissShared] = useSharedScenario(onSharedText);

  const openGallery = (e: GalleryEntry) => {
    setOpenError(null);
    onTextChange(e.text, e.file);
  };

  const openFile = async (f: File | undefined) => {
    if (!f) return;
    const r = await readScenarioFile(f);
    if (r.ok) {
      setOpenError(null);
      onTextChange(r.text, r.file);
    } else {
      setOpenError(r.error);
    }
  };

  const blocking = report.problems.length > 0;
  return (
    <div className="authoring">
      {shared.status === 'error' && (
        <div className="share-link-error" role="alert" data-testid="share-error">
          <strong>Could not open the shared scenario.</strong> {shared.error}{' '}
          <button type="button" onClick={dismissShared}>
            Dismiss
          </button>
        </div>
      )}
      {shared.status === 'loading' && <p className="share-link-loading">Opening the shared scenario…</p>}
      <details className="gallery-box" open>
        <summary>Shipped scenarios ({gallery.length})</summary>
        <Gallery entries={gallery} current={file} onOpen={openGallery} />
      </details>
      <div className="authoring-toolbar">
        <button type="button" onClick={() => fileInput.current?.click()} data-testid="open-file">
          Open file…
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          hidden
          data-testid="open-file-input"
          onChange={(e) => {
            void openFile(e.currentTarget.files?.[0]);
            e.currentTarget.value = '';
          }}
        />
        <button type="button" onClick={() => downloadText(saveName(file, text), text)} data-testid="save-file">
          Save
        </button>
        <ShareBox text={text} />
        <span className="authoring-file" data-testid="authoring-file">
          {file}
        </span>
      </div>
      {openError && (
        <p className="open-error" role="alert">
          {openError}
        </p>
      )}
      <ScenarioEditor
        text={text}
        onTextChange={(t) => onTextChange(t)}
        schema={scenarioSchema}
        validate={validate}
        onReport={setReport}
        focus={focus}
        readOnly={running || checking}
      />
      <ProblemList report={report} onPick={setFocus} />
      <div className="authoring-actions">
        <button
          type="button"
          onClick={onRun}
          disabled={running || checking}
          data-testid="run-this"
          title={blocking ? 'The scenario has problems; the engine will refuse it' : 'Run this scenario'}
        >
          Run this
        </button>
        <CheckPanel text={text} engine={checkEngine} busy={running} onBusyChange={setChecking} />
        <RunPhase />
      </div>
    </div>
  );
}
