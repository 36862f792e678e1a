/**
 * CSV serialization (RFC 4180): fields holding a comma, a quote, or a line
 * break are quoted, quotes inside are doubled; rows end with `\n`.
 * Numbers are written in full (no locale grouping), so a spreadsheet or
 * pandas reads them back exactly; `null`/`undefined` become empty fields.
 */

export type CsvValue = string | number | boolean | null | undefined;

/** One column: its header and how to read the value from a row. */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvValue;
}

/** One field, quoted when it must be. */
export function csvField(v: CsvValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' && !Number.isFinite(v)) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A header line, then one line per row, each ending with `\n`. */
export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  const line = (fields: CsvValue[]) => fields.map(csvField).join(',') + '\n';
  return line(columns.map((c) => c.header)) + rows.map((r) => line(columns.map((c) => c.value(r)))).join('');
}

/**
 * Parse CSV text made by `toCsv` (or any RFC 4180 text) back into rows of
 * fields. Used by the tests to check round trips; small inputs only.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
