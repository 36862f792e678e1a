/**
 * The views every family shows. A family's own views are declared by its
 * module (`FamilyModule.views`, views/family.ts); importing this file also
 * registers the families (views/families.ts).
 */
import { ChartsView } from './charts/ChartsView';
import './families';
import { registerView } from './registry';
import { ThreadsView } from './threads/ThreadsView';

registerView({ id: 'threads', title: 'Threads & queues', families: 'all', order: 10, component: ThreadsView });
registerView({ id: 'charts', title: 'Charts', families: 'all', order: 40, component: ChartsView });
