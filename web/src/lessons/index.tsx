/** The Lessons tab (the app's first screen) and the instructor guide, plugged into the shell. */
import { createElement, lazy, Suspense } from 'react';
import type { PanelDef } from '../components/panels';
import { LessonsPanel } from './LessonsPanel';

const Guide = lazy(() => import('./Guide').then((m) => ({ default: m.Guide })));

function GuidePanel() {
  return createElement(
    Suspense,
    { fallback: createElement('p', { className: 'muted' }, 'Loading the guide…') },
    createElement(Guide),
  );
}

export const panels: PanelDef[] = [
  { id: 'lessons', title: 'Lessons', order: -10, component: LessonsPanel },
  { id: 'guide', title: 'Guide', order: 90, component: GuidePanel },
];
