/**
 * A view loaded as a separate chunk the first time the Classroom shows it
 * (the dependency graph: its layout code is only fetched for late and
 * ePaxos runs), with a line saying so while it loads.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import type { ViewProps } from './registry';

export function lazyView(
  load: () => Promise<{ default: ComponentType<ViewProps> }>,
  loading = 'Loading the view…',
): ComponentType<ViewProps> {
  const View = lazy(load);
  return function LazyView(props: ViewProps) {
    return (
      <Suspense fallback={<p>{loading}</p>}>
        <View {...props} />
      </Suspense>
    );
  };
}
