/** The Lessons tab (the app's first screen) and the instructor guide, plugged into the shell. */
import { lazyPanel } from '../components/lazyPanel';
import type { PanelDef } from '../components/panels';
import { LessonsPanel } from './LessonsPanel';

const GuidePanel = lazyPanel(() => import('./Guide').then((m) => m.Guide), 'the guide');

export const panels: PanelDef[] = [
  { id: 'lessons', title: 'Lessons', order: -10, component: LessonsPanel },
  { id: 'guide', title: 'Guide', order: 90, component: GuidePanel },
];
