/**
 * The Sweep tab: throughput against threads for the current scenario's
 * executors (`psmr_scenario::bench` in the browser), chart, table, exports.
 */
import type { PanelDef } from '../components/panels';
import { SweepPanel } from './SweepPanel';

export const sweepPanel: PanelDef = { id: 'sweep', title: 'Sweep', order: 50, component: SweepPanel };
export { sweepStore } from './SweepPanel';
