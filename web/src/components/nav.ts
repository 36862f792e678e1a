/**
 * Where the app is: the active tab, kept in the URL hash with whatever else
 * the hash carries (a shared scenario, a lesson, a replay moment), so a tab
 * switch never drops what a link shares. The hash is `#key=value&...`.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';

export function hashParams(hash: string = typeof location === 'undefined' ? '' : location.hash): URLSearchParams {
  return new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
}

/**
 * Set (or with `null`, remove) hash keys without a new history entry and
 * without a hashchange event; every other key stays. `tab` is kept first.
 */
export function patchHash(patch: Record<string, string | null>): void {
  const p = hashParams();
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) p.delete(k);
    else p.set(k, v);
  }
  const tab = p.get('tab');
  p.delete('tab');
  const rest = p.toString();
  const hash = [tab ? `tab=${encodeURIComponent(tab)}` : '', rest].filter(Boolean).join('&');
  history.replaceState(null, '', `${location.pathname}${location.search}${hash ? `#${hash}` : ''}`);
}

export interface Nav {
  tab: string;
  setTab(id: string): void;
}

export const DEFAULT_TAB = 'lessons';

export const navStore = createStore<Nav>()((set) => ({
  tab: hashParams().get('tab') ?? DEFAULT_TAB,
  setTab(tab) {
    set({ tab });
    patchHash({ tab });
  },
}));

export function useNav<T>(sel: (s: Nav) => T): T {
  return useStore(navStore, sel);
}
