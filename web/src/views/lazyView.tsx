/**
 * A view loaded as a separate chunk the first time the Classroom shows it,
 * so that a family module (read by every tab, for the schedulers' colors)
 * does not bring its views into the app's first load.
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
