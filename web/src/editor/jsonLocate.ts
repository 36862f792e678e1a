/**
 * A JSON parser that keeps where each value sits in the text, so schema
 * problems can be shown at the offending key or value. Only called on text
 * that `JSON.parse` accepts (syntax errors are reported first), so it need
 * not explain bad input: it throws on it.
 */

/** One JSON value with its span in the text (UTF-16 offsets, `to` exclusive). */
export type Located =
  | { kind: 'object'; from: number; to: number; members: Member[] }
  | { kind: 'array'; from: number; to: number; items: Located[] }
  | { kind: 'scalar'; from: number; to: number; value: string | number | boolean | null };

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

/** Parses `text` (valid JSON) into located values. */
export function locateJson(text: string): Located {
  let p = 0;
  const blank = () => {
    while (p < text.length && ' \t\n\r'.includes(text[p])) p++;
  };
  const expect = (c: string) => {
    if (text[p] !== c) throw new SyntaxError(`expected ${c} at ${p}`);
    p++;
  };
  const str = (): string => {
    const from = p;
    expect('"');
    while (text[p] !== '"') {
      if (p >= text.length) throw new SyntaxError('unterminated string');
      p += text[p] === '\\' ? 2 : 1;
    }
    p++;
    return JSON.parse(text.slice(from, p)) as string;
  };
  /** Comma-separated entries, each read by `entry`, up to and including `close`. */
  const list = (close: string, entry: () => void) => {
    blank();
    if (text[p] === close) {
      p++;
      return;
    }
    for (;;) {
      entry();
      blank();
      if (text[p] !== ',') return expect(close);
      p++;
    }
  };
  const value = (): Located => {
    blank();
    const from = p;
    const c = text[p];
    if (c === '{') {
      p++;
      const members: Member[] = [];
      list('}', () => {
        blank();
        const keyFrom = p;
        const key = str();
        const keyTo = p;
        blank();
        expect(':');
        members.push({ key, keyFrom, keyTo, value: value() });
      });
      return { kind: 'object', from, to: p, members };
    }
    if (c === '[') {
      p++;
      const items: Located[] = [];
      list(']', () => items.push(value()));
      return { kind: 'array', from, to: p, items };
    }
    if (c === '"') return { kind: 'scalar', from, value: str(), to: p };
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/.exec(text.slice(p, p + 400));
    if (!m) throw new SyntaxError(`unexpected ${c ?? 'end'} at ${p}`);
    p += m[0].length;
    return { kind: 'scalar', from, to: p, value: JSON.parse(m[0]) as number | boolean | null };
  };
  const root = value();
  blank();
  if (p !== text.length) throw new SyntaxError(`unexpected text at ${p}`);
  return root;
}
