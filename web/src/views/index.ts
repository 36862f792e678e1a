/**
 * Panels this folder adds to the shell (see `components/panels.ts`). The
 * classroom code (views, d3, the replay) is a separate chunk, fetched when
 * the tab is first opened, so it does not weigh on the app's first load.
 */
import { lazyPanel } from '../components/lazyPanel';
import type { PanelDef } from '../components/panels';

const Classroom = lazyPanel(() => import('./ClassroomPanel').then((m) => m.ClassroomPanel), 'the classroom');

export const panels: PanelDef[] = [{ id: 'classroom', title: 'Classroom', order: 10, component: Classroom }];
