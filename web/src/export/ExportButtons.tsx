import { useState, type RefObject } from 'react';
import { saveBlob, saveText, svgToPng } from './download';
import { serializeSvg, svgSize } from './svg';

export interface ExportButtonsProps {
  /** The chart to save as SVG / PNG (omit for numbers only). */
  svg?: RefObject<SVGSVGElement | null>;
  /** The numbers as CSV text, made when the button is pressed (omit for a chart only). */
  csv?: () => string;
  /** File name without extension, e.g. `sweep-quickstart`. */
  basename: string;
  /** Title written into the SVG file. */
  title?: string;
  /** Prefix of the buttons' `data-testid`s (`<prefix>-svg`, `-png`, `-csv`). */
  testIdPrefix?: string;
  disabled?: boolean;
}

/** "SVG", "PNG" and "CSV" buttons for any chart of the app. */
export function ExportButtons({ svg, csv, basename, title, testIdPrefix = 'export', disabled }: ExportButtonsProps) {
  const [error, setError] = useState<string | null>(null);
  const svgText = () => {
    const el = svg?.current;
    if (!el) throw new Error('no chart to export');
    return { text: serializeSvg(el, { title }), size: svgSize(el) };
  };
  const guard = (f: () => void | Promise<void>) => async () => {
    setError(null);
    try {
      await f();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  /** One save button: its test id and label name the format. */
  const button = (format: 'svg' | 'png' | 'csv', save: () => void | Promise<void>) => (
    <button type="button" data-testid={`${testIdPrefix}-${format}`} disabled={disabled} onClick={guard(save)}>
      {format.toUpperCase()}
    </button>
  );
  return (
    <span className="export-buttons">
      {svg && button('svg', () => saveText(svgText().text, `${basename}.svg`, 'image/svg+xml'))}
      {svg &&
        button('png', async () => {
          const { text, size } = svgText();
          saveBlob(await svgToPng(text, size.width, size.height), `${basename}.png`);
        })}
      {csv && button('csv', () => saveText(csv(), `${basename}.csv`, 'text/csv'))}
      {error && (
        <span className="bad" role="alert">
          export failed: {error}
        </span>
      )}
    </span>
  );
}
