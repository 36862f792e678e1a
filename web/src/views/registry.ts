/**
 * The view framework. A view declares which scheduler families it applies
 * to and gets the same inputs as every other view: the loaded tracks (one
 * decoded trace each), their positions at the shared replay time, and the
 * report's runs. A family's views (dependency DAG, SCCs, partition maps,
 * event colors) are declared by its module (`FamilyModule.views`,
 * views/family.ts); the views of every family are in `views/builtin.ts`.
 */
import type { ComponentType } from 'react';
import type { RunReport } from '../engine/protocol';
import type { Track } from '../replay/store';
import type { ReplayState } from '../trace/state';
import { profileOf, type Family } from './profiles';
import type { ThreadStatus } from './status';

export type { Family } from './profiles';

/** The family of a scheduler id (the report's `family` wins where a run is at hand: `familyOfRun`). */
export function familyOf(scheduler: string): Family {
  return profileOf(scheduler).family;
}

export interface ViewProps {
  tracks: Track[];
  /** Position of each track at the shared replay time. */
  positions: number[];
  /** State of each track at its position (owned by the track's model: read, do not keep). */
  states: ReplayState[];
  /**
   * Every worker's status in each track, derived once per replay move from
   * `states` (views/status.ts). Views show these, never their own reading
   * of the lanes, so they cannot contradict each other.
   */
  statuses: ThreadStatus[][];
  /** Report run of each track (same order), when known. */
  runs: (RunReport | undefined)[];
  /** All runs of the report (charts compare them all). */
  allRuns: RunReport[];
}

export interface ViewDef {
  id: string;
  title: string;
  /** Families this view applies to, or `'all'`. */
  families: Family[] | 'all';
  order: number;
  component: ComponentType<ViewProps>;
}

const views: ViewDef[] = [];

/** Adds a view; a view registered again under its id by another family applies to both families. */
export function registerView(v: ViewDef): void {
  const i = views.findIndex((x) => x.id === v.id);
  const was = i >= 0 ? views[i].families : [];
  const families = v.families === 'all' || was === 'all' ? 'all' : [...new Set([...was, ...v.families])];
  if (i >= 0) views[i] = { ...v, families };
  else views.push(v);
  views.sort((a, b) => a.order - b.order);
}

/** Views that apply to at least one of the given families. */
export function viewsFor(families: readonly Family[]): ViewDef[] {
  const fams = new Set(families);
  return views.filter((v) => v.families === 'all' || v.families.some((f) => fams.has(f)));
}

export function allViews(): readonly ViewDef[] {
  return views;
}
