/** The content size of an element, kept current with a ResizeObserver. */
import { useEffect, useState, type RefObject } from 'react';

export interface Size {
  width: number;
  height: number;
}

export function useSize(ref: RefObject<HTMLElement | null>, fallback: Size = { width: 800, height: 400 }): Size {
  const [size, setSize] = useState<Size>(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const read = () => {
      const w = Math.floor(el.clientWidth);
      const h = Math.floor(el.clientHeight);
      setSize((s) => (s.width === w && s.height === h ? s : { width: w, height: h }));
    };
    const ro = new ResizeObserver(read);
    ro.observe(el);
    read();
    return () => ro.disconnect();
  }, [ref]);
  return size;
}
