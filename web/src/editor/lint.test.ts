import { json } from '@codemirror/lang-json';
import { forEachDiagnostic } from '@codemirror/lint';
import { EditorState, Text, type TransactionSpec } from '@codemirror/state';
import { afterEach, describe, expect, it } from 'vitest';
import { engineProblems, lineColOf, offsetOf, pointerToPath, tokenEnd, type EngineDiagnostic } from './lint';
import { scenarioSchemaFacet } from './schemaAssist';
import type { Schema } from './schemaCheck';
import { LiveValidator, revalidate, type ValidationReport, type ViewLike } from './validation';

const doc = Text.of(['{', '  "name": "ü😀x",', '  "threads": 99', '}']);

describe('positions', () => {
  it('maps engine line/col (code points) to editor offsets and back', () => {
    // line 2 is `  "name": "ü😀x",`: the emoji is two UTF-16 units but one column.
    const x = offsetOf(doc, 2, 14);
    expect(doc.sliceString(x, x + 1)).toBe('x');
    expect(lineColOf(doc, x)).toEqual({ line: 2, col: 14 });
    const t = offsetOf(doc, 3, 14);
    expect(doc.sliceString(t, tokenEnd(doc, t))).toBe('99');
  });

  it('clamps positions outside the document', () => {
    expect(offsetOf(doc, 0, 0)).toBe(0);
    expect(offsetOf(doc, 99, 1)).toBe(doc.line(4).from);
    expect(offsetOf(doc, 1, 99)).toBe(doc.line(1).to);
  });

  it('covers the whole offending token', () => {
    const p = engineProblems(doc, [{ file: 'f', line: 2, col: 11, path: 'name', message: 'm' }]);
    expect(doc.sliceString(p[0].from, p[0].to)).toBe('"ü😀x"');
  });

  it('converts JSON pointers to engine field paths', () => {
    expect(pointerToPath('')).toBe('');
    expect(pointerToPath('/schedulers/1/id')).toBe('schedulers[1].id');
    expect(pointerToPath('/workload/writes')).toBe('workload.writes');
    expect(pointerToPath('/a~1b')).toBe('a/b');
  });
});

const SCHEMA: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    threads: { type: 'integer', minimum: 1, maximum: 64 },
  },
};

let validators: LiveValidator[] = [];
afterEach(() => {
  validators.forEach((v) => v.destroy());
  validators = [];
});

/**
 * A view without a DOM: holds the state, applies dispatched specs and
 * tells the validator, as CodeMirror's view does for a view plugin.
 */
class FakeView implements ViewLike {
  validator: LiveValidator | null = null;
  constructor(public state: EditorState) {}
  dispatch = ((...specs: TransactionSpec[]) => {
    const tr = this.state.update(...specs);
    this.state = tr.state;
    this.validator?.update({ docChanged: tr.docChanged, transactions: [tr] });
  }) as ViewLike['dispatch'];
}

function editor(text: string, validate: ((t: string) => Promise<EngineDiagnostic[]>) | null, delayMs = 5) {
  const reports: ValidationReport[] = [];
  const waiters: Array<() => void> = [];
  const view = new FakeView(EditorState.create({ doc: text, extensions: [json(), scenarioSchemaFacet.of(SCHEMA)] }));
  view.validator = new LiveValidator(view, {
    getValidate: () => validate,
    onReport: (r) => {
      reports.push(r);
      waiters.splice(0).forEach((w) => w());
    },
    delayMs,
    engineTimeoutMs: 200,
  });
  validators.push(view.validator);
  /** Resolves at the next report whose engine state is final. */
  const settled = () =>
    new Promise<ValidationReport>((resolve) => {
      const check = () => {
        const last = reports[reports.length - 1];
        if (last && last.engine.state !== 'checking') resolve(last);
        else waiters.push(check);
      };
      check();
    });
  return { view, reports, settled };
}

function cmDiagnostics(view: FakeView) {
  const out: { from: number; message: string; source?: string }[] = [];
  forEachDiagnostic(view.state, (d, from) => out.push({ from, message: d.message, source: d.source }));
  return out;
}

describe('live validation', () => {
  it('shows a syntax error and does not ask the engine', async () => {
    let calls = 0;
    const { view, settled } = editor('{\n  "threads": 2,\n}', async () => {
      calls++;
      return [];
    });
    const r = await settled();
    expect(r.engine.state).toBe('skipped');
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0].source).toBe('syntax');
    expect(r.problems[0].line).toBe(3);
    expect(calls).toBe(0);
    expect(cmDiagnostics(view)).toHaveLength(1);
  });

  it('shows schema errors at the value with its path, then the engine errors at their line', async () => {
    const text = '{\n  "name": "x",\n  "threads": 99\n}';
    const { view, settled } = editor(text, async () => [
      { file: 'x.json', line: 2, col: 11, path: 'name', message: 'unknown class name `x`' },
    ]);
    const r = await settled();
    expect(r.engine.state).toBe('ok');
    const schema = r.problems.filter((p) => p.source === 'schema');
    expect(schema).toHaveLength(1);
    expect(schema[0]).toMatchObject({ line: 3, col: 14, path: 'threads' });
    const engine = r.problems.filter((p) => p.source === 'engine');
    expect(engine).toEqual([
      expect.objectContaining({ line: 2, col: 11, path: 'name', message: 'unknown class name `x`' }),
    ]);
    const shown = cmDiagnostics(view);
    expect(shown.map((d) => d.source).sort()).toEqual(['engine', 'schema']);
    expect(shown.find((d) => d.source === 'engine')?.message).toBe('name: unknown class name `x`');
  });

  it('does not repeat an engine problem the schema already shows at the same field', async () => {
    const text = '{\n  "threads": "two"\n}';
    const { settled } = editor(text, async () => [
      { file: 'f', line: 2, col: 14, path: 'threads', message: 'invalid type: string "two", expected usize' },
      { file: 'f', line: 1, col: 1, path: '', message: 'an engine-only problem' },
    ]);
    const r = await settled();
    expect(r.problems.map((p) => [p.source, p.path])).toEqual([
      ['schema', 'threads'],
      ['engine', ''],
    ]);
  });

  it('drops an engine answer for text that changed meanwhile', async () => {
    let release: (d: EngineDiagnostic[]) => void = () => {};
    const texts: string[] = [];
    const { view, settled } = editor('{"name": "a"}', (t) => {
      texts.push(t);
      return new Promise((res) => (release = res));
    });
    await new Promise((r) => setTimeout(r, 30)); // first validation is waiting on the engine
    expect(texts).toEqual(['{"name": "a"}']);
    const first = release;
    view.dispatch({ changes: { from: 10, to: 11, insert: 'b' } });
    first([{ file: 'f', line: 1, col: 10, path: 'name', message: 'stale' }]);
    await new Promise((r) => setTimeout(r, 30));
    expect(texts).toEqual(['{"name": "a"}', '{"name": "b"}']);
    release([]);
    const r = await settled();
    expect(r.problems).toEqual([]);
    expect(cmDiagnostics(view)).toEqual([]);
  });

  it('reports an engine that does not answer, keeping the schema problems', async () => {
    const { settled } = editor('{"threads": 0}', () => new Promise(() => {}));
    const r = await settled();
    expect(r.engine).toEqual({ state: 'failed', message: expect.stringMatching(/no answer/) });
    expect(r.problems.map((p) => p.source)).toEqual(['schema']);
  });

  it('works without an engine and validates again on request', async () => {
    let validate: ((t: string) => Promise<EngineDiagnostic[]>) | null = null;
    const reports: ValidationReport[] = [];
    const view = new FakeView(
      EditorState.create({ doc: '{"threads": 3}', extensions: [json(), scenarioSchemaFacet.of(SCHEMA)] }),
    );
    view.validator = new LiveValidator(view, {
      getValidate: () => validate,
      onReport: (r) => reports.push(r),
      delayMs: 1,
    });
    validators.push(view.validator);
    await new Promise((r) => setTimeout(r, 20));
    expect(reports.at(-1)?.engine.state).toBe('off');
    validate = async () => [{ file: 'f', line: 1, col: 13, path: 'threads', message: 'over the browser limit' }];
    view.dispatch({ effects: revalidate.of(null) });
    await new Promise((r) => setTimeout(r, 20));
    expect(reports.at(-1)?.engine.state).toBe('ok');
    expect(reports.at(-1)?.problems[0]).toMatchObject({ source: 'engine', path: 'threads', line: 1, col: 13 });
  });
});
