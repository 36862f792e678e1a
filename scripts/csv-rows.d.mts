/** RFC 4180 CSV to one object per row, keyed by the header's names. */
export function csvRows(text: string): Record<string, string>[];
