/**
 * Which runs the outcome charts draw together (issue 27, "real and virtual
 * never mix unlabelled"): measured runs in one group, each model (virtual
 * core count and cost table) in a group of its own, never one chart of both.
 * A lesson's virtual run is compared with the real run before it, so the
 * runs of the report before join the charts when they are of another kind
 * than the current report's (same kind: the current report alone, as before).
 */
import type { RunReport } from '../../engine/protocol';

export interface RunGroup {
  /** `real`, or the model's label ("virtual 8 cores (model, reference cost table)"). */
  kind: string;
  virtual: boolean;
  /** The runs are the report before the current one's. */
  before: boolean;
  runs: RunReport[];
}

/** The kind of a run: `real`, or its model label. */
export function kindOf(run: Pick<RunReport, 'mode_label'>): string {
  return run.mode_label ?? 'real';
}

/** The groups, real first, then each model; a group's runs keep their report order. */
export function outcomeGroups(current: readonly RunReport[], before: readonly RunReport[] = []): RunGroup[] {
  const mine = new Set(current.map(kindOf));
  const groups: RunGroup[] = [];
  const add = (r: RunReport, isBefore: boolean) => {
    const kind = kindOf(r);
    let g = groups.find((x) => x.kind === kind && x.before === isBefore);
    if (!g) {
      g = { kind, virtual: r.mode_label !== undefined, before: isBefore, runs: [] };
      groups.push(g);
    }
    g.runs.push(r);
  };
  current.forEach((r) => add(r, false));
  before.filter((r) => !mine.has(kindOf(r))).forEach((r) => add(r, true));
  // Measured runs first (the ground truth), then the models.
  return [...groups.filter((g) => !g.virtual), ...groups.filter((g) => g.virtual)];
}

/** A group's words in a chart title: "real threads", "virtual 8 cores (model, …)", "…, run before". */
export function groupTitle(g: RunGroup): string {
  const what = g.virtual ? g.kind : 'real threads (measured)';
  return g.before ? `${what}, the run before` : what;
}
