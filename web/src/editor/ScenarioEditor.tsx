/**
 * The scenario editor: CodeMirror 6 with JSON highlighting, completion and
 * hover documentation from the scenario JSON Schema, and live validation
 * (syntax, schema, engine) shown in place and listed under the editor.
 */
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { json, jsonLanguage } from '@codemirror/lang-json';
import {
  bracketMatching,
  foldGutter,
  indentOnInput,
  syntaxHighlighting,
  defaultHighlightStyle,
} from '@codemirror/language';
import { lintGutter, lintKeymap } from '@codemirror/lint';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { Compartment, EditorSelection, EditorState } from '@codemirror/state';
import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  hoverTooltip,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { useEffect, useRef } from 'react';
import type { Problem, ValidateFn } from './lint';
import { scenarioSchemaFacet, schemaCompletion, schemaHover } from './schemaAssist';
import type { Schema } from './schemaCheck';
import { liveValidation, revalidate, type ValidationReport } from './validation';

export interface ScenarioEditorProps {
  /** The text to show. When it differs from the editor's text (a file was opened), the editor takes it. */
  text: string;
  onTextChange: (text: string) => void;
  schema: Schema | undefined;
  /** The engine's validate; `null` while the engine is not ready. */
  validate: ValidateFn | null;
  onReport: (report: ValidationReport) => void;
  /** Set to move the cursor to a problem (from the list); changes of identity trigger the move. */
  focus?: Problem | null;
  /** No edits (a run of this text is in progress). */
  readOnly?: boolean;
}

export function ScenarioEditor({
  text,
  onTextChange,
  schema,
  validate,
  onReport,
  focus,
  readOnly = false,
}: ScenarioEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const editable = useRef(new Compartment());
  // Callbacks through refs, so the editor is built once and never reconfigured on a render.
  const validateRef = useRef(validate);
  const onTextRef = useRef(onTextChange);
  const onReportRef = useRef(onReport);
  useEffect(() => {
    onTextRef.current = onTextChange;
    onReportRef.current = onReport;
  });

  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: text,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          foldGutter(),
          lintGutter(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          closeBrackets(),
          autocompletion(),
          highlightActiveLine(),
          highlightSelectionMatches(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          keymap.of([
            ...closeBracketsKeymap,
            ...defaultKeymap,
            ...searchKeymap,
            ...historyKeymap,
            ...completionKeymap,
            ...lintKeymap,
            indentWithTab,
          ]),
          json(),
          jsonLanguage.data.of({ autocomplete: schemaCompletion }),
          hoverTooltip(schemaHover),
          scenarioSchemaFacet.of(schema),
          liveValidation({
            getValidate: () => validateRef.current,
            onReport: (r) => onReportRef.current(r),
          }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) onTextRef.current(u.state.doc.toString());
          }),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ 'aria-label': 'Scenario text', 'data-testid': 'scenario-editor' }),
          editable.current.of([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // Built once per schema; the text is synchronised by the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [schema]);

  // Take a text given from outside (open, gallery, share link).
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== text) {
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } });
    }
  }, [text]);

  // Locked while a run is in progress: what runs is what is shown.
  useEffect(() => {
    view.current?.dispatch({
      effects: editable.current.reconfigure([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]),
    });
  }, [readOnly]);

  // A new validate (the engine came up): validate again with it.
  useEffect(() => {
    validateRef.current = validate;
    view.current?.dispatch({ effects: revalidate.of(null) });
  }, [validate]);

  useEffect(() => {
    const v = view.current;
    if (!v || !focus) return;
    const pos = Math.min(focus.from, v.state.doc.length);
    v.dispatch({ selection: EditorSelection.cursor(pos), scrollIntoView: true });
    v.focus();
  }, [focus]);

  return <div className="scenario-editor" ref={host} />;
}
