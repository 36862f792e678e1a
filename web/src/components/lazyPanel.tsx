/**
 * A tab whose code loads when it is first opened (its own chunk), so the
 * first screen does not pay for d3, charts or editors it does not show.
 */
import { createElement, lazy, Suspense, type ComponentType } from 'react';

export function lazyPanel(load: () => Promise<ComponentType>, what: string): ComponentType {
  const Inner = lazy(() => load().then((c) => ({ default: c })));
  return function LazyPanel() {
    return createElement(
      Suspense,
      { fallback: createElement('p', { className: 'muted' }, `Loading ${what}…`) },
      createElement(Inner),
    );
  };
}
