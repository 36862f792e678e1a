/**
 * The instructor guide inside the app: docs/instructor-guide.md (served as
 * a static file, see `publicDir` in vite.config.ts) rendered by a small
 * Markdown reader that knows what the guide uses: headings, paragraphs,
 * lists, tables, images, code, bold, emphasis and links. Lazy: fetched and
 * rendered only when the Guide tab opens.
 */
import { Fragment, useEffect, useState, type ReactNode } from 'react';

const GUIDE = 'instructor-guide.md';

/** Inline Markdown: `code`, **bold**, *em*, [text](href). */
export function inline(text: string, key = 0): ReactNode[] {
  const out: ReactNode[] = [];
  const re = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*)|(\[[^\]]+\]\([^)]+\))/g;
  let last = 0;
  let k = key;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const s = m[0];
    if (m[1]) out.push(<code key={k++}>{s.slice(1, -1)}</code>);
    else if (m[2]) out.push(<b key={k++}>{inline(s.slice(2, -2), k * 100)}</b>);
    else if (m[3]) out.push(<em key={k++}>{inline(s.slice(1, -1), k * 100)}</em>);
    else {
      const lm = /^\[([^\]]+)\]\(([^)]+)\)$/.exec(s)!;
      out.push(
        <a key={k++} href={lm[2]} target="_blank" rel="noreferrer">
          {inline(lm[1], k * 100)}
        </a>,
      );
    }
    last = m.index + s.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

type Block =
  | { kind: 'h'; level: number; text: string }
  | { kind: 'p'; text: string }
  | { kind: 'ul' | 'ol'; items: string[] }
  | { kind: 'table'; rows: string[][] }
  | { kind: 'img'; alt: string; src: string }
  | { kind: 'code'; text: string };

/** Split the guide into blocks (the subset of Markdown it uses). */
export function blocks(md: string): Block[] {
  const lines = md.split('\n');
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === '') {
      i++;
      continue;
    }
    if (line.startsWith('```')) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
      i++;
      out.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    const h = /^(#{1,4})\s+(.*)$/.exec(line);
    if (h) {
      out.push({ kind: 'h', level: h[1].length, text: h[2] });
      i++;
      continue;
    }
    const img = /^!\[([^\]]*)\]\(([^)]+)\)\s*$/.exec(line);
    if (img) {
      out.push({ kind: 'img', alt: img[1], src: img[2] });
      i++;
      continue;
    }
    if (line.startsWith('|')) {
      const rows: string[][] = [];
      for (; i < lines.length && lines[i].startsWith('|'); i++) {
        const cells = lines[i]
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim());
        if (!cells.every((c) => /^-+$/.test(c))) rows.push(cells);
      }
      out.push({ kind: 'table', rows });
      continue;
    }
    const item = /^(\s*)(-|\d+\.)\s+(.*)$/;
    if (item.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items: string[] = [];
      for (; i < lines.length && lines[i].trim() !== ''; i++) {
        const m = item.exec(lines[i]);
        if (m) items.push(m[3]);
        else if (items.length > 0) items[items.length - 1] += ` ${lines[i].trim()}`;
      }
      out.push({ kind: ordered ? 'ol' : 'ul', items });
      continue;
    }
    const para: string[] = [];
    for (; i < lines.length && lines[i].trim() !== '' && !/^(#|\||!\[|```)/.test(lines[i]); i++) para.push(lines[i]);
    out.push({ kind: 'p', text: para.join(' ') });
  }
  return out;
}

function render(b: Block, k: number): ReactNode {
  switch (b.kind) {
    case 'h': {
      const H = `h${Math.min(4, b.level + 1)}` as 'h2';
      return <H key={k}>{inline(b.text)}</H>;
    }
    case 'p':
      return <p key={k}>{inline(b.text)}</p>;
    case 'ul':
    case 'ol': {
      const L = b.kind;
      return (
        <L key={k}>
          {b.items.map((x, j) => (
            <li key={j}>{inline(x)}</li>
          ))}
        </L>
      );
    }
    case 'table':
      return (
        <table key={k} className="results">
          <tbody>
            {b.rows.map((r, j) => (
              <tr key={j}>
                {r.map((c, n) => (j === 0 ? <th key={n}>{inline(c)}</th> : <td key={n}>{inline(c)}</td>))}
              </tr>
            ))}
          </tbody>
        </table>
      );
    case 'img':
      return <img key={k} src={b.src} alt={b.alt} className="guide-img" loading="lazy" />;
    case 'code':
      return (
        <pre key={k}>
          <code>{b.text}</code>
        </pre>
      );
  }
}

export function Guide() {
  const [md, setMd] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    let live = true;
    fetch(GUIDE)
      .then((r) => (r.ok ? r.text() : Promise.reject(new Error(`${r.status} ${r.statusText}`))))
      .then(
        (text) => live && setMd({ ok: true, text }),
        (e: unknown) => live && setMd({ ok: false, text: e instanceof Error ? e.message : String(e) }),
      );
    return () => {
      live = false;
    };
  }, []);
  if (!md) return <p className="muted">Loading the instructor guide…</p>;
  if (!md.ok)
    return <p role="alert">Could not load the guide ({md.text}); it is docs/instructor-guide.md in the repository.</p>;
  return (
    <article className="guide" data-testid="guide">
      {blocks(md.text).map((b, k) => (
        <Fragment key={k}>{render(b, k)}</Fragment>
      ))}
    </article>
  );
}
