/**
 * Live validation of the scenario in the editor, from three sources, shown
 * the same way (CodeMirror diagnostics at a line and column, plus a list):
 *
 * 1. syntax: `JSON.parse` (through `@codemirror/lang-json`'s parse linter);
 * 2. schema: the committed JSON Schema (`schemaCheck.ts`);
 * 3. engine: the engine's own validation through the worker bridge, which
 *    knows what no schema can say (a mapping that breaks rule R.4, more
 *    threads than the browser pool has, an unknown class name).
 *
 * Syntax and schema run on the main thread and are fast; the engine call is
 * asynchronous (a worker round trip), so a slow or busy engine never freezes
 * the tab, and its answer is dropped when the text changed meanwhile.
 */
import { jsonParseLinter } from '@codemirror/lang-json';
import type { Diagnostic } from '@codemirror/lint';
import type { EditorState, Text } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import { locateJson } from './jsonLocate';
import { scenarioSchemaFacet } from './schemaAssist';
import { validate } from './schemaCheck';

/** One problem as the engine reports it (see `psmr_scenario::Diagnostic`): 1-based line and column. */
export interface EngineDiagnostic {
  file: string;
  line: number;
  col: number;
  /** Field path, e.g. `schedulers[1].id`; empty for the whole document. */
  path: string;
  message: string;
}

/** The engine's validation, as the worker bridge offers it. */
export type ValidateFn = (text: string) => Promise<EngineDiagnostic[]>;

export type ProblemSource = 'syntax' | 'schema' | 'engine';

/** A problem located in the document, for both the editor and the list under it. */
export interface Problem {
  source: ProblemSource;
  from: number;
  to: number;
  line: number;
  col: number;
  path: string;
  message: string;
}

/**
 * Offset of 1-based (`line`, `col`) in `doc`, clamped into the document.
 * The engine counts columns in Unicode scalar values (Rust `char`s); the
 * editor counts UTF-16 code units, so walk the line to convert.
 */
export function offsetOf(doc: Text, line: number, col: number): number {
  const l = doc.line(Math.min(Math.max(1, line), doc.lines));
  let units = 0;
  let chars = 1;
  while (chars < col && units < l.length) {
    const code = l.text.charCodeAt(units);
    units += code >= 0xd800 && code <= 0xdbff ? 2 : 1;
    chars++;
  }
  return l.from + Math.min(units, l.length);
}

/** 1-based line and column (in code points) of `offset`. */
export function lineColOf(doc: Text, offset: number): { line: number; col: number } {
  const l = doc.lineAt(offset);
  return { line: l.number, col: [...l.text.slice(0, offset - l.from)].length + 1 };
}

/**
 * End of the JSON token starting at `from` (a string, number or literal), so
 * the squiggle covers the offending value; at least one character, never
 * past the end of the line.
 */
export function tokenEnd(doc: Text, from: number): number {
  const l = doc.lineAt(from);
  const rest = l.text.slice(from - l.from);
  const m = /^("(?:[^"\\]|\\.)*"?|[-+0-9.eE]+|true|false|null|[A-Za-z_][\w-]*)/.exec(rest);
  const len = m ? m[0].length : 1;
  return Math.min(from + Math.max(1, len), l.to);
}

/** `/schedulers/1/id` → `schedulers[1].id` (the engine's path notation). */
export function pointerToPath(pointer: string): string {
  if (!pointer || pointer === '/') return '';
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  }
  return out;
}

export function engineProblems(doc: Text, diags: readonly EngineDiagnostic[]): Problem[] {
  return diags.map((d) => {
    const from = offsetOf(doc, d.line, d.col);
    return {
      source: 'engine' as const,
      from,
      to: tokenEnd(doc, from),
      ...lineColOf(doc, from),
      path: d.path,
      message: d.message,
    };
  });
}

function fromCm(state: EditorState, source: ProblemSource, d: Diagnostic): Problem {
  return { source, from: d.from, to: d.to, ...lineColOf(state.doc, d.from), path: '', message: d.message };
}

const parseLint = jsonParseLinter();

/** Syntax problems; empty when the text is valid JSON. */
export function syntaxProblems(view: EditorView): Problem[] {
  return parseLint(view).map((d) => fromCm(view.state, 'syntax', d));
}

/**
 * Schema problems against the state's schema ({@link scenarioSchemaFacet}),
 * each at the offending value (or key, for an unknown or missing property)
 * with its field path; empty without a schema or when the text is not JSON
 * (syntax problems come first).
 */
export function schemaProblems(state: EditorState): Problem[] {
  const schema = state.facet(scenarioSchemaFacet);
  if (!schema) return [];
  let root;
  try {
    root = locateJson(state.doc.toString());
  } catch {
    return [];
  }
  return validate(schema, schema, root).map((p) => {
    const to = p.to > p.from ? p.to : tokenEnd(state.doc, p.from);
    return {
      source: 'schema' as const,
      from: p.from,
      to,
      ...lineColOf(state.doc, p.from),
      path: pointerToPath(p.pointer),
      message: p.message,
    };
  });
}

/** The CodeMirror diagnostic of a problem; the message names the field path. */
export function toDiagnostic(p: Problem): Diagnostic {
  return {
    from: p.from,
    to: Math.max(p.to, p.from),
    severity: 'error',
    source: p.source,
    message: p.path ? `${p.path}: ${p.message}` : p.message,
  };
}

/**
 * Schema and engine problems together. The engine also refuses what the
 * schema already flags (a string where a number goes): an engine problem on
 * the same line and field path as a schema problem says the same thing
 * twice, so it is left out. Engine-only problems are all kept.
 */
export function mergeProblems(schema: Problem[], engine: Problem[]): Problem[] {
  const flagged = new Set(schema.map((p) => `${p.line}\u0000${p.path}`));
  return [...schema, ...engine.filter((p) => !flagged.has(`${p.line}\u0000${p.path}`))];
}
