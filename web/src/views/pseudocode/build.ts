/**
 * Helpers to write a listing and its rules: rows numbered from 1, and a
 * rule target found by the text a line starts with (a listing whose text
 * changes fails at load, not silently on a wrong line).
 */
import type { PseudoLine, PseudoListing, PseudoTarget } from './types';

/** A listing row: text, indentation depth, optional dimmed comment. */
export type Row = [text: string, indent: number, comment?: string];

export function listing(id: string, title: string, rows: Row[]): PseudoListing {
  const lines: PseudoLine[] = rows.map(([text, indent, comment], i) =>
    comment === undefined ? { n: i + 1, text, indent } : { n: i + 1, text, indent, comment },
  );
  return { id, title, lines };
}

/** The target of the first line of `l` whose text starts with `prefix`. */
export function lineStarting(l: PseudoListing, prefix: string): PseudoTarget {
  const line = l.lines.find((x) => x.text.startsWith(prefix));
  if (!line) throw new Error(`pseudo-code: no line "${prefix}" in ${l.title}`);
  return { listing: l.id, line: line.n };
}
