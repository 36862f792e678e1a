/**
 * The dependency-graph view's entry: the view itself (`GraphsView.tsx`)
 * is a separate chunk, loaded the first time a late or ePaxos run's
 * Classroom shows it.
 */
import { lazy, Suspense } from 'react';
import type { ViewProps } from '../registry';

const GraphsView = lazy(() => import('./GraphsView'));

export function LazyGraphsView(props: ViewProps) {
  return (
    <Suspense fallback={<p>Loading the graph view…</p>}>
      <GraphsView {...props} />
    </Suspense>
  );
}
