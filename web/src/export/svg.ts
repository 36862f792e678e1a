/**
 * Standalone SVG from a chart drawn in the page.
 *
 * A chart in the page takes part of its look from the app's stylesheet
 * (classes, CSS variables); a saved file has no stylesheet. So the export
 * copies the computed value of the few properties that decide how SVG
 * looks onto each element's `style`, adds the namespaces a standalone
 * file needs, a width and height (from the viewBox), and an optional
 * background (a PNG made from it would otherwise be transparent).
 */

/** Properties copied from the computed style; enough for lines, markers and text. */
export const INLINED_PROPERTIES = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
  'visibility',
] as const;

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** Reads an element's computed style (the page's `getComputedStyle`, or a fake in tests). */
export type StyleReader = (el: Element) => { getPropertyValue(name: string): string } | null;

export interface SvgExportOptions {
  /** Fill behind the chart; `null` keeps it transparent. Default white. */
  background?: string | null;
  /** Defaults to `window.getComputedStyle`; pass `() => null` to copy no style. */
  styleOf?: StyleReader;
  /** Written as the file's `<title>` (shown by viewers, read by screen readers). */
  title?: string;
}

/** Size of the chart in user units: its viewBox, else its width/height attributes, else 0. */
export function svgSize(svg: SVGSVGElement): { width: number; height: number } {
  const vb = (svg.getAttribute('viewBox') ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (vb.length === 4 && vb.every(Number.isFinite)) return { width: vb[2], height: vb[3] };
  const n = (a: string) => Number.parseFloat(svg.getAttribute(a) ?? '') || 0;
  return { width: n('width'), height: n('height') };
}

function defaultStyleOf(el: Element) {
  return typeof window !== 'undefined' && window.getComputedStyle ? window.getComputedStyle(el) : null;
}

/** Copy the computed look of `from` (and its subtree) onto `to`, a clone of it. */
function inlineStyles(from: Element, to: Element, styleOf: StyleReader): void {
  const style = styleOf(from);
  if (style) {
    const decls = INLINED_PROPERTIES.map((p) => [p, style.getPropertyValue(p).trim()] as const)
      .filter(([, v]) => v !== '')
      .map(([p, v]) => `${p}:${v}`);
    const own = to.getAttribute('style');
    if (decls.length > 0) to.setAttribute('style', [...decls, ...(own ? [own] : [])].join(';'));
  }
  // The clone has the same shape as the original, child for child.
  for (let i = 0; i < from.children.length && i < to.children.length; i++) {
    inlineStyles(from.children[i], to.children[i], styleOf);
  }
}

/**
 * The chart as the text of a standalone `.svg` file (with an XML
 * declaration). The element in the page is not changed.
 */
export function serializeSvg(svg: SVGSVGElement, options: SvgExportOptions = {}): string {
  const { background = '#ffffff', styleOf = defaultStyleOf, title } = options;
  const clone = svg.cloneNode(true) as SVGSVGElement;
  inlineStyles(svg, clone, styleOf);
  // The serializer writes `xmlns` itself for an element in the SVG
  // namespace; declaring it again as a plain attribute would duplicate it.
  clone.setAttributeNS(XMLNS_NS, 'xmlns:xlink', XLINK_NS);
  const { width, height } = svgSize(svg);
  if (width > 0 && height > 0) {
    clone.setAttribute('width', String(width));
    clone.setAttribute('height', String(height));
  }
  const doc = clone.ownerDocument;
  if (background) {
    const rect = doc.createElementNS(SVG_NS, 'rect');
    const vb = (svg.getAttribute('viewBox') ?? '0 0').trim().split(/[\s,]+/);
    rect.setAttribute('x', vb[0] ?? '0');
    rect.setAttribute('y', vb[1] ?? '0');
    rect.setAttribute('width', String(width || '100%'));
    rect.setAttribute('height', String(height || '100%'));
    rect.setAttribute('fill', background);
    clone.insertBefore(rect, clone.firstChild);
  }
  if (title) {
    const t = doc.createElementNS(SVG_NS, 'title');
    t.textContent = title;
    clone.insertBefore(t, clone.firstChild);
  }
  const text = new XMLSerializer().serializeToString(clone);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${text}\n`;
}
