import { beforeAll, describe, expect, it } from 'vitest';
import { serializeSvg, svgSize, type StyleReader } from './svg';

/**
 * A DOM for these tests. jsdom is installed with the web package, where
 * vitest's `environment: 'jsdom'` (resolved from the workspace root) does
 * not find it, so it is loaded here; the specifier is a variable because
 * jsdom ships no types.
 */
beforeAll(async () => {
  const specifier = 'jsdom';
  const { JSDOM } = (await import(/* @vite-ignore */ specifier)) as {
    JSDOM: new (html: string) => { window: Window & typeof globalThis };
  };
  const { window } = new JSDOM('<!doctype html><body></body>');
  Object.assign(globalThis, {
    document: window.document,
    DOMParser: window.DOMParser,
    XMLSerializer: window.XMLSerializer,
  });
});

const SVG_NS = 'http://www.w3.org/2000/svg';

function chart(markup: string, attrs = 'viewBox="0 0 640 260"'): SVGSVGElement {
  const host = document.createElement('div');
  host.innerHTML = `<svg ${attrs}>${markup}</svg>`;
  document.body.appendChild(host);
  return host.querySelector('svg') as SVGSVGElement;
}

/** A style reader answering from a table keyed by tag name. */
function fakeStyles(table: Record<string, Record<string, string>>): StyleReader {
  return (el) => ({ getPropertyValue: (p) => table[el.tagName.toLowerCase()]?.[p] ?? '' });
}

function parse(text: string): Document {
  const doc = new DOMParser().parseFromString(text.replace(/^<\?xml[^>]*>\s*/, ''), 'image/svg+xml');
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
  return doc;
}

describe('svgSize', () => {
  it('reads the viewBox, else width and height', () => {
    expect(svgSize(chart(''))).toEqual({ width: 640, height: 260 });
    expect(svgSize(chart('', 'width="300" height="100px"'))).toEqual({ width: 300, height: 100 });
    expect(svgSize(chart('', ''))).toEqual({ width: 0, height: 0 });
  });
});

describe('serializeSvg', () => {
  it('makes a standalone file: declaration, namespace, size', () => {
    const text = serializeSvg(chart('<circle cx="10" cy="10" r="3"/>'), { styleOf: () => null });
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg')).toBe(true);
    const root = parse(text).documentElement;
    expect(root.namespaceURI).toBe(SVG_NS);
    expect(root.getAttribute('width')).toBe('640');
    expect(root.getAttribute('height')).toBe('260');
    expect(root.getAttribute('viewBox')).toBe('0 0 640 260');
  });

  it('puts a background rectangle first, covering the viewBox, unless told not to', () => {
    const svg = chart('<path d="M0 0L1 1"/>', 'viewBox="-5 -5 100 50"');
    const first = parse(serializeSvg(svg, { styleOf: () => null, background: '#fafafa' })).documentElement
      .firstElementChild as Element;
    expect(first.tagName).toBe('rect');
    expect([first.getAttribute('x'), first.getAttribute('y')]).toEqual(['-5', '-5']);
    expect([first.getAttribute('width'), first.getAttribute('height')]).toEqual(['100', '50']);
    expect(first.getAttribute('fill')).toBe('#fafafa');
    const bare = parse(serializeSvg(svg, { styleOf: () => null, background: null })).documentElement;
    expect(bare.querySelector('rect')).toBeNull();
  });

  it('copies the computed look onto each element, keeping its own style after it', () => {
    const svg = chart('<g><text style="letter-spacing:1px">ops/s</text><circle r="3" class="hollow"/></g>');
    const styleOf = fakeStyles({
      text: { 'font-size': '11px', fill: 'rgb(91, 100, 117)' },
      circle: { fill: 'white', stroke: 'rgb(47, 111, 222)', 'stroke-width': '1.5' },
    });
    const doc = parse(serializeSvg(svg, { styleOf }));
    expect(doc.querySelector('text')?.getAttribute('style')).toBe(
      'fill:rgb(91, 100, 117);font-size:11px;letter-spacing:1px',
    );
    expect(doc.querySelector('circle')?.getAttribute('style')).toBe(
      'fill:white;stroke:rgb(47, 111, 222);stroke-width:1.5',
    );
    // Elements with nothing computed get no style attribute.
    expect(doc.querySelector('g')?.hasAttribute('style')).toBe(false);
  });

  it('escapes text and adds the title', () => {
    const svg = chart('<text>a < b & "c"</text>');
    const text = serializeSvg(svg, { styleOf: () => null, title: 'sweep: early & busy-wait' });
    expect(text).toContain('a &lt; b &amp; "c"');
    const doc = parse(text);
    expect(doc.querySelector('title')?.textContent).toBe('sweep: early & busy-wait');
    expect(doc.querySelector('text')?.textContent).toBe('a < b & "c"');
  });

  it('leaves the chart in the page unchanged', () => {
    const svg = chart('<circle r="3"/>');
    const before = svg.outerHTML;
    serializeSvg(svg, { styleOf: fakeStyles({ circle: { fill: 'red' } }), title: 't' });
    expect(svg.outerHTML).toBe(before);
  });
});
