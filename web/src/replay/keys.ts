/**
 * Keyboard shortcuts of the replay (as in raftscope): space play/pause,
 * arrows one algorithm step (shift: one trace event, ctrl/alt: 100 events),
 * Home/End. Keys typed
 * into an input, a select or the scenario editor are left alone.
 */
import { useEffect } from 'react';
import type { ReplayStore } from './store';

export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  // Sliders, checkboxes and buttons keep the shortcuts (the scrubber is a slider).
  const t = target as HTMLInputElement;
  if (t.tagName === 'INPUT' && ['range', 'checkbox', 'radio', 'button'].includes(t.type)) return false;
  return !!target.closest('input, textarea, select, [contenteditable="true"], .cm-editor');
}

/** What a key does; `false` if it is not a replay key. */
export function handleKey(
  store: ReplayStore,
  e: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'altKey' | 'metaKey'>,
): boolean {
  const s = store.getState();
  if (s.tracks.length === 0) return false;
  // Plain arrows move one algorithm step; shift one trace event; ctrl/alt 100 events.
  const events = e.shiftKey ? 1 : e.ctrlKey || e.altKey || e.metaKey ? 100 : 0;
  const move = (dir: 1 | -1) => (events > 0 ? s.step(dir * events) : s.stepAlgo(dir));
  switch (e.key) {
    case ' ':
    case 'k':
      s.toggle();
      return true;
    case 'ArrowRight':
    case 'l':
      move(1);
      return true;
    case 'ArrowLeft':
    case 'j':
      move(-1);
      return true;
    case 'Home':
      s.home();
      return true;
    case 'End':
      s.end();
      return true;
    default:
      return false;
  }
}

/** Install the shortcuts on the window while the calling view is mounted. */
export function useReplayKeys(store: ReplayStore): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target)) return;
      // Space on a focused button would also click it: the shortcut wins.
      if (handleKey(store, e)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}
