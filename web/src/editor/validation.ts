/**
 * The live-validation plugin: debounced, asynchronous for the engine part,
 * and stale-safe (an answer for an older text is dropped).
 */
import { setDiagnostics } from '@codemirror/lint';
import { StateEffect } from '@codemirror/state';
import { ViewPlugin, type EditorView, type ViewUpdate } from '@codemirror/view';
import {
  engineProblems,
  mergeProblems,
  schemaProblems,
  syntaxProblems,
  toDiagnostic,
  type Problem,
  type ValidateFn,
} from './lint';

/** What the engine part of the validation is doing. */
export type EngineStatus =
  | { state: 'off' } // no engine bridge yet (wasm still loading)
  | { state: 'skipped' } // the text is not JSON; syntax first
  | { state: 'checking' }
  | { state: 'ok' }
  | { state: 'failed'; message: string };

export interface ValidationReport {
  problems: Problem[];
  engine: EngineStatus;
}

export interface ValidationOptions {
  /** The engine's validate, read at each run (the bridge may come up later); `null` while absent. */
  getValidate: () => ValidateFn | null;
  /** Called with every new set of problems (for the list under the editor). */
  onReport: (report: ValidationReport) => void;
  /** Quiet time after the last keystroke before validating, in milliseconds. */
  delayMs?: number;
  /** Longest wait for the engine's answer, in milliseconds. */
  engineTimeoutMs?: number;
}

export const DEFAULT_DELAY_MS = 300;
export const DEFAULT_ENGINE_TIMEOUT_MS = 15_000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no answer from the engine within ${ms / 1000} s`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** Dispatch this effect to validate again now (e.g. when the engine bridge became ready). */
export const revalidate = StateEffect.define<null>();

/** The part of `EditorView` the validator uses (a fake one in tests). */
export interface ViewLike {
  readonly state: EditorView['state'];
  dispatch: EditorView['dispatch'];
}

/**
 * Validates the document after each pause in typing (and once at start).
 * Bounds: one timer and at most one engine call per pause; an engine call
 * that outlives {@link ValidationOptions.engineTimeoutMs} is reported as failed.
 */
export class LiveValidator {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped on every schedule and on destroy; a run whose number is stale publishes nothing. */
  private generation = 0;
  private readonly delayMs: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly view: ViewLike,
    private readonly options: ValidationOptions,
  ) {
    this.delayMs = options.delayMs ?? DEFAULT_DELAY_MS;
    this.timeoutMs = options.engineTimeoutMs ?? DEFAULT_ENGINE_TIMEOUT_MS;
    this.schedule();
  }

  update(u: Pick<ViewUpdate, 'docChanged' | 'transactions'>) {
    if (u.docChanged || u.transactions.some((t) => t.effects.some((e) => e.is(revalidate)))) {
      this.schedule();
    }
  }

  destroy() {
    clearTimeout(this.timer);
    this.generation++;
  }

  private schedule() {
    clearTimeout(this.timer);
    const gen = ++this.generation;
    this.timer = setTimeout(() => void this.run(gen), this.delayMs);
  }

  private publish(gen: number, problems: Problem[], engine: EngineStatus) {
    if (gen !== this.generation) return;
    this.view.dispatch(setDiagnostics(this.view.state, problems.map(toDiagnostic)));
    this.options.onReport({ problems, engine });
  }

  private async run(gen: number) {
    // The linters read only `view.state`.
    const view = this.view as EditorView;
    const syntax = syntaxProblems(view);
    if (syntax.length > 0) {
      this.publish(gen, syntax, { state: 'skipped' });
      return;
    }
    const local = schemaProblems(view.state);
    const validate = this.options.getValidate();
    if (!validate) {
      this.publish(gen, local, { state: 'off' });
      return;
    }
    this.publish(gen, local, { state: 'checking' });
    const doc = view.state.doc;
    try {
      const diags = await withTimeout(validate(doc.toString()), this.timeoutMs);
      if (view.state.doc !== doc) return; // edited meanwhile; the next run answers
      this.publish(gen, mergeProblems(local, engineProblems(doc, diags)), { state: 'ok' });
    } catch (e) {
      this.publish(gen, local, { state: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
  }
}

/** The validator as a CodeMirror view plugin. */
export function liveValidation(options: ValidationOptions) {
  return ViewPlugin.define((view) => new LiveValidator(view, options));
}
