/**
 * Rows shown whole or not at all. On a 1280x720 projector a scrolling box
 * ended across a row of text (chips, a thread's line, a caption) and drew
 * half of it. A view names its rows with a selector; the rows its
 * scrolling box (`.view-box`) cuts at the top or the bottom get
 * `data-cut`, which the stylesheet draws hidden (`visibility`, so they keep
 * their room and scrolling brings them back whole, nothing else moves).
 *
 * Invariant: after every render, scroll or resize of the box, the rows
 * marked are exactly the rows crossing one of the box's two edges by more
 * than half a pixel.
 */
import { useEffect, useRef, type RefObject } from 'react';

/** Mark the `rows` that cross `top` or `bottom` (client pixels), unmark the rest. */
export function markCutRows(rows: Iterable<HTMLElement>, top: number, bottom: number): void {
  for (const r of rows) {
    const q = r.getBoundingClientRect();
    const crosses = (y: number) => q.top < y - 0.5 && q.bottom > y + 0.5;
    const cut = crosses(top) || crosses(bottom);
    if (cut !== r.hasAttribute('data-cut')) r.toggleAttribute('data-cut', cut);
  }
}

/** Mark the rows of `view` (matching `selector`) that its `.view-box` cuts. */
export function hideCutRows(view: HTMLElement, selector: string): void {
  const box = view.closest<HTMLElement>('.view-box');
  if (!box) return;
  const top = box.getBoundingClientRect().top + box.clientTop;
  markCutRows(view.querySelectorAll<HTMLElement>(selector), top, top + box.clientHeight);
}

/**
 * After every render, a scroll of the view's box or a change of its size
 * or the view's: hide the rows of `view` (matching `selector`) the box
 * cuts, in the next frame (after layout).
 */
export function useWholeRows(view: RefObject<HTMLElement | null>, selector: string): void {
  const frame = useRef(0);
  const later = () => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => view.current && hideCutRows(view.current, selector));
  };
  useEffect(later);
  useEffect(() => {
    const v = view.current;
    const box = v?.closest<HTMLElement>('.view-box');
    if (!v || !box) return;
    const watch = new ResizeObserver(later);
    watch.observe(box);
    watch.observe(v);
    box.addEventListener('scroll', later, { passive: true });
    return () => {
      cancelAnimationFrame(frame.current);
      watch.disconnect();
      box.removeEventListener('scroll', later);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `later` reads refs and the selector, fixed per view
  }, [view, selector]);
}
