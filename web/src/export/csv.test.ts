import { describe, expect, it } from 'vitest';
import { csvField, parseCsv, toCsv, type CsvColumn } from './csv';
import { fileSlug } from './index';

describe('csvField', () => {
  it('leaves plain values alone', () => {
    expect(csvField('early')).toBe('early');
    expect(csvField(12345.678)).toBe('12345.678');
    expect(csvField(true)).toBe('true');
    expect(csvField(0)).toBe('0');
  });
  it('quotes commas, quotes and line breaks, doubling inner quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
  });
  it('writes missing and non-finite numbers as empty fields', () => {
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(Number.POSITIVE_INFINITY)).toBe('');
  });
  it('writes large numbers without locale grouping', () => {
    expect(csvField(1234567)).toBe('1234567');
  });
});

describe('toCsv', () => {
  type Row = { label: string; threads: number; note: string | null };
  const columns: CsvColumn<Row>[] = [
    { header: 'executor', value: (r) => r.label },
    { header: 'threads', value: (r) => r.threads },
    { header: 'note', value: (r) => r.note },
  ];

  it('writes a header and one line per row', () => {
    const text = toCsv(
      [
        { label: 'early', threads: 1, note: null },
        { label: 'busy-wait', threads: 2, note: 'ok' },
      ],
      columns,
    );
    expect(text).toBe('executor,threads,note\nearly,1,\nbusy-wait,2,ok\n');
  });

  it('gives only the header for no rows', () => {
    expect(toCsv([], columns)).toBe('executor,threads,note\n');
  });

  it('round-trips awkward text through a CSV parser', () => {
    const rows: Row[] = [
      { label: 'ws, "optimistic"', threads: 4, note: 'order violated:\nreq 3 before 2' },
      { label: '', threads: 8, note: '' },
    ];
    const parsed = parseCsv(toCsv(rows, columns));
    expect(parsed).toEqual([
      ['executor', 'threads', 'note'],
      ['ws, "optimistic"', '4', 'order violated:\nreq 3 before 2'],
      ['', '8', ''],
    ]);
  });
});

describe('parseCsv', () => {
  it('accepts CRLF line ends and a last line without one', () => {
    expect(parseCsv('a,b\r\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });
});

describe('fileSlug', () => {
  it('makes a safe file name from a title', () => {
    expect(fileSlug('Quickstart: two shards, a few writes')).toBe('quickstart-two-shards-a-few-writes');
    expect(fileSlug('***')).toBe('export');
    expect(fileSlug('x'.repeat(100))).toHaveLength(60);
  });
});
