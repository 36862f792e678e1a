/**
 * Completion and hover documentation from the scenario's JSON Schema, read
 * off CodeMirror's JSON syntax tree (which also covers text that does not
 * parse yet, as while typing a key). The schema reaches the editor through
 * the {@link scenarioSchemaFacet} facet.
 */
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { ensureSyntaxTree, syntaxTree } from '@codemirror/language';
import { Facet, type EditorState } from '@codemirror/state';
import type { EditorView, Tooltip } from '@codemirror/view';
import type { SyntaxNode } from '@lezer/common';
import { isValue, keyText, locateNode, plain, type Slice } from './jsonLocate';
import { joinWithOr, meant, resolve, schemaAt, type Schema } from './schemaCheck';

/** The schema the editor helps with; the last one given wins, none means no help. */
export const scenarioSchemaFacet = Facet.define<Schema | undefined, Schema | undefined>({
  combine: (values) => values[values.length - 1],
});

/** The document's text between two offsets. */
const sliceOf =
  (state: EditorState): Slice =>
  (from, to) =>
    state.doc.sliceString(from, to);

function keyOf(state: EditorState, n: SyntaxNode): string {
  return keyText(sliceOf(state), n);
}

/** JSON pointer of the value `node` is in (a key stands for its property's value). */
export function pointerOf(state: EditorState, node: SyntaxNode): string {
  const path: string[] = [];
  for (let n: SyntaxNode | null = node; n?.parent; n = n.parent) {
    const p: SyntaxNode = n.parent;
    if (p.name === 'Property') {
      const name = p.getChild('PropertyName');
      if (name) path.unshift(keyOf(state, name).replaceAll('~', '~0').replaceAll('/', '~1'));
    } else if (p.name === 'Array' && isValue(n)) {
      let i = 0;
      for (let c = p.firstChild; c && c.from < n.from; c = c.nextSibling) if (isValue(c)) i++;
      path.unshift(String(i));
    }
  }
  return path.length ? `/${path.join('/')}` : '';
}

/** What the tree says so far about the value of `n` (lenient: half-typed parts are left out). */
export function dataOf(state: EditorState, n: SyntaxNode | null): unknown {
  const v = locateNode(sliceOf(state), n);
  return v && plain(v);
}

/** How long completion or hover may wait for the parse (a scenario file parses in well under 1 ms). */
const PARSE_BUDGET_MS = 100;

/**
 * The document's syntax tree, parsed to the end if that takes at most `PARSE_BUDGET_MS`. The editor
 * parses in the background within a time budget, so the tree `syntaxTree` gives can stop short of the
 * cursor (a large document, a busy machine); completion and hover would then see no object there.
 * Past the budget, the partial tree, as before.
 */
function fullTree(state: EditorState) {
  return ensureSyntaxTree(state, state.doc.length, PARSE_BUDGET_MS) ?? syntaxTree(state);
}

/** The document's schema at `pointer`, with the branches the document's data picks. */
function schemaFor(state: EditorState, pointer: string): { root: Schema; schema: Schema } | null {
  const root = state.facet(scenarioSchemaFacet);
  if (!root) return null;
  const schema = schemaAt(root, pointer, dataOf(state, fullTree(state).topNode));
  return schema ? { root, schema } : null;
}

/** Properties an object under `s` may have: of the one branch `data` means, else of every branch. */
function propertiesOf(root: Schema, s: Schema, data: unknown): Record<string, Schema> {
  const branches = (s.oneOf ?? s.anyOf)?.map((b) => resolve(root, b));
  if (!branches) return s.properties ?? {};
  const chosen = branches.filter((b) => meant(root, b, data));
  const from = chosen.length === 1 ? chosen : branches;
  return Object.assign({}, ...from.map((b) => propertiesOf(root, b, data))) as Record<string, Schema>;
}

/**
 * The schemas property `key` of an object under `s` may have: one per
 * `oneOf` / `anyOf` branch that has it, so the tag of a tagged union offers
 * every branch's value.
 */
function propertySchemas(root: Schema, s: Schema, key: string): Schema[] {
  const branches = s.oneOf ?? s.anyOf;
  if (branches) return branches.flatMap((b) => propertySchemas(root, resolve(root, b), key));
  const p = s.properties?.[key] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
  return p ? [resolve(root, p)] : [];
}

/** Constant values a value under `s` may take (consts, enums, booleans, null), with their docs. */
function valuesOf(root: Schema, s: Schema, out: Completion[] = []): Completion[] {
  const add = (v: unknown, info?: string) => {
    const label = JSON.stringify(v);
    if (!out.some((c) => c.label === label)) out.push({ label, type: 'constant', info });
  };
  if (s.const !== undefined) add(s.const, s.description);
  s.enum?.forEach((v) => add(v, s.description));
  const types = [s.type ?? []].flat();
  if (types.includes('boolean')) [true, false].forEach((v) => add(v));
  if (types.includes('null')) add(null);
  for (const b of [...(s.oneOf ?? []), ...(s.anyOf ?? [])]) valuesOf(root, resolve(root, b), out);
  return out;
}

/** A completion's apply: insert `text` from the completion's start through `keyEnd` (at least to the cursor). */
export function replaceKey(text: string, keyEnd: number) {
  return (view: Pick<EditorView, 'dispatch'>, _c: Completion, from: number, to: number) => {
    view.dispatch({
      changes: { from, to: Math.max(to, keyEnd), insert: text },
      selection: { anchor: from + text.length },
      userEvent: 'input.complete',
    });
  };
}

/** Property names (in the object being typed in) and constant values (at a value), from the schema. */
export function schemaCompletion(ctx: CompletionContext): CompletionResult | null {
  const node = fullTree(ctx.state).resolveInner(ctx.pos, -1);
  const punctuation = (node.name === '{' || node.name === ',') && node.parent?.name === 'Object';
  const inObject = node.name === 'Object' || punctuation;
  // A key being typed: a property's name, a lone string in an object, or an
  // unterminated one (the parser's error node) when the closing quote is absent.
  const unterminated =
    node.name === '⚠' &&
    node.parent?.name === 'Object' &&
    ctx.state.doc.sliceString(node.from, node.to).startsWith('"');
  const inKey =
    node.name === 'PropertyName' ||
    (node.name === 'String' && node.parent?.name === 'Object') ||
    unterminated ||
    inObject;
  if (inKey) {
    const object = inObject
      ? node.name === 'Object'
        ? node
        : node.parent
      : node.parent?.name === 'Property'
        ? node.parent.parent
        : node.parent;
    if (!object || object.name !== 'Object') return null;
    if (inObject && !ctx.explicit) return null;
    const found = schemaFor(ctx.state, pointerOf(ctx.state, object));
    if (!found) return null;
    const data = dataOf(ctx.state, object) as Record<string, unknown>;
    const typed = inObject ? '' : keyOf(ctx.state, node);
    const hasValue = node.parent?.name === 'Property' && node.nextSibling?.name === ':';
    // The rest of the key (its closing quote) is replaced too, not matched:
    // CodeMirror filters the options by the text from `from` to the result's end.
    const keyEnd = inObject || unterminated ? ctx.pos : Math.max(ctx.pos, node.to);
    const options = Object.entries(propertiesOf(found.root, found.schema, data))
      .filter(([k]) => !(k in data) || k === typed)
      .map(([k, s]) => {
        const label = JSON.stringify(k);
        return {
          label,
          type: 'property',
          info: s.description,
          apply: replaceKey(hasValue ? label : `${label}: `, keyEnd),
        };
      });
    return { from: inObject ? ctx.pos : node.from, options, validFor: /^"?[\w-]*$/ };
  }
  // A value: after `"key": `, or a scalar being typed there or in an array.
  const atColon = node.name === 'Property' || node.name === ':';
  const value = isValue(node) && node.name !== 'Object' && node.name !== 'Array' ? node : null;
  if (!atColon && !value) return null;
  const prop = node.name === 'Property' ? node : node.parent;
  const name = prop?.name === 'Property' ? prop.getChild('PropertyName') : null;
  const pointer = value ? pointerOf(ctx.state, value) : name ? pointerOf(ctx.state, name) : null;
  if (pointer === null) return null;
  const root = ctx.state.facet(scenarioSchemaFacet);
  if (!root) return null;
  let schemas: Schema[];
  if (name) {
    const cut = pointer.lastIndexOf('/');
    const parent = schemaFor(ctx.state, pointer.slice(0, cut));
    const key = pointer
      .slice(cut + 1)
      .replaceAll('~1', '/')
      .replaceAll('~0', '~');
    schemas = parent ? propertySchemas(root, parent.schema, key) : [];
  } else {
    const found = schemaFor(ctx.state, pointer);
    schemas = found ? [found.schema] : [];
  }
  const options: Completion[] = [];
  for (const sch of schemas) valuesOf(root, sch, options);
  if (options.length === 0) return null;
  const end = value ? value.to : ctx.pos;
  return {
    from: value ? value.from : ctx.pos,
    options: options.map((o) => ({ ...o, apply: replaceKey(o.label, end) })),
  };
}

/** One line saying what a place accepts: its types, constants, range or pattern. */
export function typeInfo(root: Schema, s: Schema): string {
  const parts: string[] = [];
  const branches = s.oneOf ?? s.anyOf;
  if (s.const !== undefined) parts.push(JSON.stringify(s.const));
  else if (s.enum) parts.push(joinWithOr(s.enum.map((v) => JSON.stringify(v))));
  else if (branches) parts.push(joinWithOr(branches.map((b) => typeInfo(root, resolve(root, b)) || 'any')));
  else if (s.type !== undefined) parts.push(joinWithOr([s.type].flat()));
  if (s.minimum !== undefined || s.maximum !== undefined) parts.push(`${s.minimum ?? '…'}..=${s.maximum ?? '…'}`);
  if (s.pattern) parts.push(`pattern ${s.pattern}`);
  return parts.join(', ');
}

/** What the hover shows for the key or value at `pos`: its span, the schema's description and type line. */
export function hoverTexts(
  state: EditorState,
  pos: number,
  side: -1 | 1,
): { from: number; to: number; description?: string; type: string } | null {
  const node = fullTree(state).resolveInner(pos, side);
  if (node.name !== 'PropertyName' && !isValue(node)) return null;
  const found = schemaFor(state, pointerOf(state, node));
  if (!found) return null;
  const { root, schema } = found;
  return { from: node.from, to: node.to, description: schema.description, type: typeInfo(root, schema) || 'any' };
}

/** The hover tooltip of the key or value under the pointer: the schema's description and type. */
export function schemaHover(view: EditorView, pos: number, side: -1 | 1): Tooltip | null {
  const t = hoverTexts(view.state, pos, side);
  if (!t) return null;
  return {
    pos: t.from,
    end: t.to,
    above: true,
    create: () => {
      const dom = document.createElement('div');
      dom.className = 'cm6-json-schema-hover';
      if (t.description) {
        const d = dom.appendChild(document.createElement('div'));
        d.className = 'cm6-json-schema-hover--description';
        d.textContent = t.description;
      }
      const c = dom.appendChild(document.createElement('code'));
      c.className = 'cm6-json-schema-hover--code';
      c.textContent = t.type;
      return { dom };
    },
  };
}
