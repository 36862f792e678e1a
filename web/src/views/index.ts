/** Panels this folder adds to the shell (see `components/panels.ts`). */
import type { PanelDef } from '../components/panels';
import './classroom.css';
import { ClassroomPanel } from './ClassroomPanel';

export const panels: PanelDef[] = [{ id: 'classroom', title: 'Classroom', order: 10, component: ClassroomPanel }];
