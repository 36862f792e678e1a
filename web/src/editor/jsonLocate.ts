/**
 * The editor's one JSON reader: CodeMirror's JSON syntax tree (`@lezer/json`)
 * turned into values that keep where they sit in the text, so schema problems
 * can be shown at the offending key or value and completion knows the data
 * around the cursor. Two modes over the same walk:
 * - strict ({@link locateJson}): the whole text, which must be JSON (an error
 *   node in the tree, or a string or number `JSON.parse` refuses, throws);
 * - lenient ({@link locateNode}): a node of the editor's live tree, which
 *   covers half-typed text; a property without a value yet reads as `undefined`,
 *   other broken parts are left out.
 */
import { jsonLanguage } from '@codemirror/lang-json';
import type { SyntaxNode } from '@lezer/common';

/** One JSON value with its span in the text (UTF-16 offsets, `to` exclusive). */
export type Located =
  | { kind: 'object'; from: number; to: number; members: Member[] }
  | { kind: 'array'; from: number; to: number; items: Located[] }
  | { kind: 'scalar'; from: number; to: number; value: string | number | boolean | null | undefined };

/** One `"key": value` member of an object; the key's span includes its quotes. */
export interface Member {
  key: string;
  keyFrom: number;
  keyTo: number;
  value: Located;
}

/** The plain value of a located one (what `JSON.parse` would give; later duplicate keys win). */
export function plain(v: Located): unknown {
  if (v.kind === 'scalar') return v.value;
  if (v.kind === 'array') return v.items.map(plain);
  const out: Record<string, unknown> = {};
  for (const m of v.members) out[m.key] = plain(m.value);
  return out;
}

const VALUE_NODES = new Set(['Object', 'Array', 'String', 'Number', 'True', 'False', 'Null']);

/** Whether `n` is a JSON value node of the tree (not a key, bracket or error). */
export const isValue = (n: SyntaxNode): boolean => VALUE_NODES.has(n.name);

/** The text between two offsets (the document or a string). */
export type Slice = (from: number, to: number) => string;

/** A string token's value; lenient: a half-typed one loses its quotes, strict: `JSON.parse` decides. */
function stringOf(slice: Slice, n: SyntaxNode, strict: boolean): string {
  const t = slice(n.from, n.to);
  if (strict) return JSON.parse(t) as string;
  try {
    return JSON.parse(t) as string;
  } catch {
    return t.replace(/^"|"$/g, '');
  }
}

/** A key's text without its quotes (unescaped when it is a whole JSON string). */
export const keyText = (slice: Slice, n: SyntaxNode): string => stringOf(slice, n, false);

/** The value of a Property node, if it has one. */
export function propertyValue(p: SyntaxNode): SyntaxNode | null {
  const v = p.lastChild;
  return v && v.name !== 'PropertyName' && isValue(v) ? v : null;
}

const missing = (n: SyntaxNode): Located => ({ kind: 'scalar', from: n.to, to: n.to, value: undefined });

function read(slice: Slice, n: SyntaxNode, strict: boolean): Located | undefined {
  const at = { from: n.from, to: n.to };
  switch (n.name) {
    case 'JsonText':
      return n.firstChild ? read(slice, n.firstChild, strict) : undefined;
    case 'Object': {
      const members: Member[] = [];
      for (const p of n.getChildren('Property')) {
        const name = p.getChild('PropertyName');
        if (!name) continue;
        const v = propertyValue(p);
        if (!v && strict) throw new SyntaxError(`no value for the key at ${name.from}`);
        const key = stringOf(slice, name, strict);
        members.push({ key, keyFrom: name.from, keyTo: name.to, value: (v && read(slice, v, strict)) ?? missing(p) });
      }
      return { kind: 'object', ...at, members };
    }
    case 'Array': {
      const items: Located[] = [];
      for (let c = n.firstChild; c; c = c.nextSibling) {
        const v = isValue(c) ? read(slice, c, strict) : undefined;
        if (v) items.push(v);
      }
      return { kind: 'array', ...at, items };
    }
    case 'String':
      return { kind: 'scalar', ...at, value: stringOf(slice, n, strict) };
    case 'Number':
      return {
        kind: 'scalar',
        ...at,
        value: strict ? (JSON.parse(slice(n.from, n.to)) as number) : Number(slice(n.from, n.to)),
      };
    case 'True':
      return { kind: 'scalar', ...at, value: true };
    case 'False':
      return { kind: 'scalar', ...at, value: false };
    case 'Null':
      return { kind: 'scalar', ...at, value: null };
    default:
      return undefined;
  }
}

/** What the tree says so far about node `n` (lenient: half-typed parts are left out). */
export function locateNode(slice: Slice, n: SyntaxNode | null): Located | undefined {
  return n ? read(slice, n, false) : undefined;
}

/** Parses `text` (valid JSON) into located values; throws `SyntaxError` on anything else. */
export function locateJson(text: string): Located {
  const tree = jsonLanguage.parser.parse(text);
  tree.iterate({
    enter: (n) => {
      if (n.type.isError) throw new SyntaxError(`unexpected text at ${n.from}`);
    },
  });
  const top = tree.topNode;
  const slice: Slice = (from, to) => text.slice(from, to);
  const root = top.firstChild && read(slice, top.firstChild, true);
  if (!root || top.firstChild?.nextSibling) throw new SyntaxError('not one JSON value');
  return root;
}
