/**
 * Display settings for projectors (large type, high contrast) and the
 * colors every view shares: one color per request class, and the colors of
 * thread states. Views read these so a toggle restyles canvas and SVG alike.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';

export interface DisplayState {
  /** Large type everywhere (header, tabs, views, charts, canvas). */
  large: boolean;
  highContrast: boolean;
  /**
   * Presentation layout for a projector: the app fills the screen, the
   * scenario sidebar is hidden, large type is on, and the classroom keeps
   * its view, the pseudo-code and the timeline visible at once.
   */
  present: boolean;
  /** The scenario sidebar (picker, run controls, JSON source) is open. */
  sidebar: boolean;
  setLarge(v: boolean): void;
  setHighContrast(v: boolean): void;
  setPresent(v: boolean): void;
  setSidebar(v: boolean): void;
}

const PREFS_KEY = 'psmr-display';
type Prefs = Pick<DisplayState, 'large' | 'highContrast' | 'present' | 'sidebar'>;
const DEFAULT_PREFS: Prefs = { large: false, highContrast: false, present: false, sidebar: true };

/** Display settings survive a reload (a teacher sets the projector up once). */
function loadPrefs(): Prefs {
  try {
    const raw = typeof localStorage === 'undefined' ? null : localStorage.getItem(PREFS_KEY);
    if (!raw) return DEFAULT_PREFS;
    const v = JSON.parse(raw) as Partial<Prefs>;
    const b = (x: unknown, d: boolean) => (typeof x === 'boolean' ? x : d);
    return {
      large: b(v.large, false),
      highContrast: b(v.highContrast, false),
      present: b(v.present, false),
      sidebar: b(v.sidebar, true),
    };
  } catch {
    return DEFAULT_PREFS;
  }
}

function savePrefs(p: Prefs): void {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify(p));
  } catch {
    // Private mode or no storage: the settings last for this page only.
  }
}

export const displayStore = createStore<DisplayState>()((set, get) => {
  const update = (patch: Partial<Prefs>) => {
    set(patch);
    const { large, highContrast, present, sidebar } = get();
    savePrefs({ large, highContrast, present, sidebar });
  };
  return {
    ...loadPrefs(),
    setLarge: (large) => update({ large }),
    setHighContrast: (highContrast) => update({ highContrast }),
    // Presenting turns large type on and the sidebar off; leaving it gives the sidebar back.
    setPresent: (present) => update(present ? { present, large: true, sidebar: false } : { present, sidebar: true }),
    setSidebar: (sidebar) => update({ sidebar }),
  };
});

export function useDisplay<T>(sel: (s: DisplayState) => T): T {
  return useStore(displayStore, sel);
}

/** Tableau 10: distinct on white, colorblind-aware enough for 10 classes. */
const CLASS_NORMAL = [
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#e15759',
  '#76b7b2',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];
/**
 * The same hues, lighter and saturated for a black background: class i is
 * the same color family in both themes (blue, orange, green, red, teal,
 * yellow, purple, pink, brown, grey).
 */
const CLASS_CONTRAST = [
  '#5fa8ff',
  '#ffa53d',
  '#4ee67a',
  '#ff6b5e',
  '#40e0d0',
  '#ffe14d',
  '#d28cff',
  '#ffa8c5',
  '#d9a679',
  '#d0d0d0',
];

export interface Palette {
  bg: string;
  fg: string;
  dim: string;
  grid: string;
  laneBg: string;
  exec: string;
  wait: string;
  spin: string;
  idle: string;
  steal: string;
  focus: string;
  classColor(c: number): string;
}

/** The two palettes, built once: views compare them by identity in effect dependencies. */
const PALETTES = new Map<boolean, Palette>();

export function palette(highContrast: boolean): Palette {
  let p = PALETTES.get(highContrast);
  if (!p) PALETTES.set(highContrast, (p = makePalette(highContrast)));
  return p;
}

function makePalette(highContrast: boolean): Palette {
  const classes = highContrast ? CLASS_CONTRAST : CLASS_NORMAL;
  const classColor = (c: number) => (c < 0 ? (highContrast ? '#888' : '#999') : classes[c % classes.length]);
  return highContrast
    ? {
        bg: '#000000',
        fg: '#ffffff',
        dim: '#bbbbbb',
        grid: '#555555',
        laneBg: '#111111',
        exec: '#00e676',
        wait: '#ffb000',
        spin: '#ff4d4d',
        idle: '#666666',
        steal: '#e040fb',
        focus: '#ffffff',
        classColor,
      }
    : {
        bg: '#ffffff',
        fg: '#1d2433',
        dim: '#667085',
        grid: '#d0d5dd',
        laneBg: '#f5f7fa',
        exec: '#2e9e44',
        wait: '#e8890c',
        spin: '#d92d20',
        idle: '#98a2b3',
        steal: '#9e3fcf',
        focus: '#101828',
        classColor,
      };
}

/** WCAG relative luminance of a `#rrggbb` (or `#rgb`) color. */
function luminance(color: string): number {
  const hex = color.length === 4 ? `#${[...color.slice(1)].map((c) => c + c).join('')}` : color;
  const lin = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(1) + 0.7152 * lin(3) + 0.0722 * lin(5);
}

/**
 * Black or white, whichever reads better on `fill` (`#rrggbb` or `#rgb`): the larger
 * WCAG contrast ratio. For a label drawn inside a shape of a state's color
 * (a thread node), which no fixed ink suits in both palettes.
 */
export function inkOn(fill: string): string {
  const l = luminance(fill);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

export function usePalette(): Palette {
  const hc = useDisplay((s) => s.highContrast);
  return palette(hc);
}

/** Base font size in px for canvas text. */
export function fontPx(large: boolean): number {
  return large ? 18 : 12;
}
