/**
 * Building replay tracks from a run report: fetch each chosen run's trace
 * from the engine once (the engine hands a trace out by transfer), decode
 * and index it in the trace worker, and attach the report's classes and the
 * run's mapping (the report's `info.mapping`, else read from the trace).
 */
import type { Track } from '../replay/store';
import { loadTrace } from '../trace/load';
import type { ReplayModel } from '../trace/model';
import { classNames, inferMapping } from './classes';
import { familyOfRun } from './families';
import type { ClassInfo, RunReport } from '../engine/protocol';

const cache = new Map<string, Promise<ReplayModel>>();

/**
 * Forget models of runs older than the previous one: memory holds the
 * current report's traces and those of the run before it (a what-if run is
 * compared with the run it changed).
 */
export function forgetOlderThan(serial: number): void {
  for (const k of cache.keys()) if (Number(k.split(':')[0]) < serial - 1) cache.delete(k);
}

/** Is run `runIndex` of report `serial` loaded (or loading)? The engine keeps only the last report's traces. */
export function hasModel(serial: number, runIndex: number): boolean {
  return cache.has(`${serial}:${runIndex}`);
}

export function modelFor(
  serial: number,
  runIndex: number,
  fetch: (i: number) => Promise<ArrayBuffer>,
): Promise<ReplayModel> {
  const key = `${serial}:${runIndex}`;
  let p = cache.get(key);
  if (!p) {
    p = fetch(runIndex).then(loadTrace);
    p.catch(() => cache.delete(key));
    cache.set(key, p);
  }
  return p;
}

export function runLabel(run: RunReport, all: readonly RunReport[], i: number): string {
  const base = run.label && run.label !== run.scheduler ? `${run.scheduler} (${run.label})` : run.scheduler;
  const same = all.filter((r) => (r.label ?? r.scheduler) === (run.label ?? run.scheduler)).length;
  const named = same > 1 ? `${base} #${i}` : base;
  // A run on virtual cores says so wherever its name goes (run list, track headings, charts).
  return run.mode_label ? `${named} · ${run.mode_label}` : named;
}

/** A replay track of `run`, whose report has `classes` (the engine's class table). */
export function makeTrack(
  key: string,
  label: string,
  run: RunReport,
  model: ReplayModel,
  classes: readonly ClassInfo[],
): Track {
  const given = run.info?.mapping ?? [];
  const names =
    given.length >= model.index.classes ? given.map((m) => m.class) : classNames(classes, model.index.classes);
  const mapping = given.length > 0 ? given : inferMapping(model, names);
  const track: Track = {
    key,
    label,
    scheduler: run.scheduler,
    family: familyOfRun(run),
    model,
    classes,
    classNames: names,
    mapping,
  };
  if (run.label) track.run = run.label;
  return track;
}
