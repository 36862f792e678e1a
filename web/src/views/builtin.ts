/** The views every build has. A new family's view registers here. */
import { ChartsView } from './charts/ChartsView';
import { ColoringView } from './coloring/ColoringView';
import './coloring/narrate';
import { MappingView } from './mapping/MappingView';
import { LazyGraphsView } from './late-epaxos';
import './late-epaxos/narrate';
import { registerView } from './registry';
import { RepartView } from './repartitioning/RepartView';
import { SyncView } from './sync/SyncView';
import { ThreadsView } from './threads/ThreadsView';

registerView({ id: 'threads', title: 'Threads & queues', families: 'all', order: 10, component: ThreadsView });
registerView({
  id: 'sync',
  title: 'Synchronization',
  families: ['early', 'work-stealing'],
  order: 20,
  component: SyncView,
});
registerView({
  id: 'mapping',
  title: 'Mapping',
  families: ['early', 'work-stealing'],
  order: 30,
  component: MappingView,
});
registerView({
  id: 'partitions',
  title: 'Partitions',
  families: ['repartitioning'],
  order: 25,
  component: RepartView,
});
registerView({
  id: 'coloring',
  title: 'Colors & steals',
  families: ['coloring'],
  order: 25,
  component: ColoringView,
});
registerView({
  id: 'graph',
  title: 'Dependency graph',
  families: ['late', 'epaxos'],
  order: 25,
  component: LazyGraphsView,
});
registerView({ id: 'charts', title: 'Charts', families: 'all', order: 40, component: ChartsView });
