/**
 * Helpers to write a listing and its rules: rows numbered from 1, and a
 * rule target found by the text a line starts with (a listing whose text
 * changes fails at load, not silently on a wrong line).
 */
import type { PseudoLine, PseudoListing, PseudoRule, PseudoTarget, WaitReasonName } from './types';

/** A listing row: text, indentation depth, optional dimmed comment. */
export type Row = [text: string, indent: number, comment?: string];

export function listing(id: string, title: string, rows: Row[]): PseudoListing {
  const lines: PseudoLine[] = rows.map(([text, indent, comment], i) =>
    comment === undefined ? { n: i + 1, text, indent } : { n: i + 1, text, indent, comment },
  );
  return { id, title, lines };
}

/** The target of the `nth` (0-based) line of `l` whose text starts with `prefix`. */
export function lineStarting(l: PseudoListing, prefix: string, nth = 0): PseudoTarget {
  const line = l.lines.filter((x) => x.text.startsWith(prefix))[nth];
  if (!line) throw new Error(`pseudo-code: no line "${prefix}" #${nth} in ${l.title}`);
  return { listing: l.id, line: line.n };
}

/** A wait's two rules: its start and its end put the reader on the same line. */
export function waitRules(rule: Omit<PseudoRule, 'kind' | 'reason'> & { reason: WaitReasonName }): PseudoRule[] {
  return [
    { kind: 'WaitStart', ...rule },
    { kind: 'WaitEnd', ...rule },
  ];
}
