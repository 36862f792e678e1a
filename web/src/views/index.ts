/**
 * Panels this folder adds to the shell (see `components/panels.ts`). The
 * classroom code (views, d3, the replay) is a separate chunk, fetched when
 * the tab is first opened, so it does not weigh on the app's first load.
 */
import { createElement, lazy, Suspense } from 'react';
import type { PanelDef } from '../components/panels';

const ClassroomPanel = lazy(() => import('./ClassroomPanel').then((m) => ({ default: m.ClassroomPanel })));

function Classroom() {
  return createElement(
    Suspense,
    { fallback: createElement('p', { className: 'muted' }, 'Loading the classroom…') },
    createElement(ClassroomPanel),
  );
}

export const panels: PanelDef[] = [{ id: 'classroom', title: 'Classroom', order: 10, component: Classroom }];
