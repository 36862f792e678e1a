/**
 * A scheduler family's plug-in for the web app. One folder per family
 * (`views/early/`, `views/coloring/`, ...) declares everything the app
 * shows about the family in one `FamilyModule` and registers it with one
 * call, `registerFamily`; the list of families is `views/families.ts`.
 *
 * Every central file reads the tables this call fills, never a family or
 * scheduler name: the scheduler profiles (`profiles.ts`: family, color,
 * synchronization), the Classroom's views (`registry.ts`), the family's
 * status phrases (`status.ts`), step captions (`narrate.ts`), pseudo-code
 * listings (`pseudocode/types.ts`) and lesson bookmarks (`bookmarks.ts`).
 * See docs/adding-a-family.md ("Web side").
 */
import { registerFinder, type Finder } from './bookmarks';
import { registerNarrator, type Narrator } from './narrate';
import { profileOf, registerClaim, registerScheduler, type Family, type SchedulerProfile } from './profiles';
import { registerPseudoCode, registerPseudoCodeLoader, type PseudoCode } from './pseudocode/types';
import { registerView, type ViewDef } from './registry';
import { registerFamilyStatus, type FamilyStatus } from './status';
import { registerSentences, type Sentence } from '../trace/codec';
import type { ByKind } from '../trace/dispatch';

/** A scheduler of the family: its profile without the family (the module's). */
export type SchedulerDecl = Omit<SchedulerProfile, 'family' | 'steals' | 'stealsWhileWaiting'> &
  Partial<Pick<SchedulerProfile, 'steals' | 'stealsWhileWaiting'>>;

/** A Classroom view of the family; a view several families show is declared by each (same id). */
export type FamilyView = Omit<ViewDef, 'families'>;

export interface FamilyModule {
  /** The family, as the run report's `family` names it. */
  family: Family;
  /** Its scheduler ids, each with its color and how its threads synchronize. */
  schedulers: SchedulerDecl[];
  /** Scheduler ids of the family that `schedulers` does not list (guessed when a report names no family). */
  owns?: (scheduler: string) => boolean;
  /** Views shown as Classroom tabs when a run of the family is loaded (besides the views of every family). */
  views?: FamilyView[];
  /** Status phrases in the family's own words (status.ts). */
  status?: FamilyStatus;
  /** Step captions: the first that returns a sentence wins, then the generic one (narrate.ts). */
  captions?: Narrator[];
  /**
   * Pseudo-code listings with their event-to-line rules (one per scheduler id or group of ids), or a
   * loader of them: a family no first lesson shows keeps its listings out of the first load
   * (`() => import('../pseudocode/x').then(...)`), fetched when a panel first shows one of its runs.
   */
  pseudocode?: PseudoCode[] | (() => Promise<PseudoCode[]>);
  /** Lesson bookmarks, by the id lessons.json names them with. */
  bookmarks?: Record<string, Finder>;
  /** `describe`'s sentences for the family's own event kinds (trace/codec.ts). */
  sentences?: ByKind<Sentence>;
}

const modules = new Map<Family, FamilyModule>();

/** Registers a family's module: its schedulers, views, phrases, captions, listings and bookmarks. */
export function registerFamily(m: FamilyModule): void {
  modules.set(m.family, m);
  for (const s of m.schedulers) {
    registerScheduler({ steals: false, stealsWhileWaiting: false, ...s, family: m.family });
  }
  if (m.owns) registerClaim(m.family, m.owns);
  for (const v of m.views ?? []) registerView({ ...v, families: [m.family] });
  if (m.status) registerFamilyStatus(m.family, m.status);
  for (const n of m.captions ?? []) registerNarrator(m.family, n);
  if (typeof m.pseudocode === 'function')
    registerPseudoCodeLoader((id) => profileOf(id).family === m.family, m.pseudocode);
  else for (const c of m.pseudocode ?? []) registerPseudoCode(c);
  for (const [id, f] of Object.entries(m.bookmarks ?? {})) registerFinder(id, f);
  registerSentences(m.sentences ?? {});
}

/** The registered family modules, in registration order (views/families.ts). */
export function familyModules(): readonly FamilyModule[] {
  return [...modules.values()];
}
