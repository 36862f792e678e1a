/**
 * Chart keys for runs: the scheduler's color (views/families.ts, the same
 * on every tab) and a dash pattern that tells apart several runs of one
 * scheduler (e.g. early with the naive and with the optimized mapping).
 * No d3 here: the Run and Sweep tabs use it too.
 */
import { scenarioDoc, schedulerEntries } from '../../engine/scenario';
import { schedulerColor } from '../families';

export interface RunKey {
  name: string;
  color: string;
  dash?: string;
}

const DASHES = [undefined, '7 4', '2 3', '10 3 2 3'];

export function runKeys(runs: readonly { scheduler: string; label?: string }[], hc: boolean): RunKey[] {
  const seen = new Map<string, number>();
  return runs.map((r) => {
    const n = seen.get(r.scheduler) ?? 0;
    seen.set(r.scheduler, n + 1);
    return { name: r.label ?? r.scheduler, color: schedulerColor(r.scheduler, hc), dash: DASHES[n % DASHES.length] };
  });
}

/** The scheduler id of a run label in a scenario text (live polls name runs by label). */
export function schedulerIdOf(label: string, scenarioText: string): string {
  const e = schedulerEntries(scenarioDoc(scenarioText)).find((x) => x.label === label || x.id === label);
  return e?.id ?? label;
}
