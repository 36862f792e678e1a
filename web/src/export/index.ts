/**
 * Export helpers for any chart or table of the app: CSV text, standalone
 * SVG, PNG through a canvas, downloads, and ready-made buttons.
 */
export { csvField, parseCsv, toCsv, type CsvColumn, type CsvValue } from './csv';
export { INLINED_PROPERTIES, serializeSvg, svgSize, type StyleReader, type SvgExportOptions } from './svg';
export { saveBlob, saveText, svgToPng } from './download';
export { ExportButtons, type ExportButtonsProps } from './ExportButtons';

/** A file-name-safe slug of a title: lower case, dashes, at most 60 characters. */
export function fileSlug(title: string): string {
  return (
    title
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'export'
  );
}
