/**
 * Which engine package runs a scenario (issue 30). Besides the full engine
 * (`engine-pkg/`, every family), `scripts/build-wasm.sh --families` builds
 * one package per scheduler family (`engine-pkg/families/<family>/`: that
 * family and sequential only, each well under the full engine's size). A
 * scenario whose schedulers are of one family (plus sequential) needs only
 * that family's package; several families, or text this cannot read, need
 * the full one.
 *
 * The pure part only: the choice, from the engine's catalog (each id's
 * family). `host.ts` (`EngineHost`) acts on it: it starts the worker on
 * the chosen package and switches when idle (docs/benchmarks/frontend.md,
 * "Tenth pass").
 */
import catalog from './catalog.json';

/**
 * A family package, by its name: the family's name in the catalog, which is
 * also the cargo feature that compiles it in (`psmr_schedulers::compiled_in`).
 */
export type FamilyPackage = string;
/** A family's package, or the full engine. */
export type EnginePackage = FamilyPackage | 'full';

/**
 * The family packages, as the engine's catalog lists them (every family but
 * sequential, which is in each); `scripts/build-wasm.sh --families` builds
 * the same list.
 */
export const FAMILY_PACKAGES: readonly FamilyPackage[] = catalog.families.flatMap((f) =>
  f.package === null ? [] : [f.package],
);

/** Each scheduler id's family, as the engine declares it. */
const FAMILY_OF: ReadonlyMap<string, string> = new Map(catalog.schedulers.map((s) => [s.id, s.family]));

/**
 * The workload fields only one family's package reads, with that family's
 * package (the catalog's `workload_fields`, from psmr-core's
 * `WORKLOAD_GATES`: `ycsb`, `events`, `commits`).
 */
export const WORKLOAD_FAMILY: Readonly<Record<string, FamilyPackage>> = Object.fromEntries(
  catalog.families.flatMap(({ package: pkg, workload_fields: fields }) =>
    pkg === null ? [] : fields.map((field): [string, FamilyPackage] => [field, pkg]),
  ),
);

function isFamilyPackage(f: string): f is FamilyPackage {
  return FAMILY_PACKAGES.includes(f);
}

/**
 * The families other than sequential that `text`'s scenario needs: its
 * schedulers' and its workload's, plus those of `extraIds` (scheduler ids
 * named by the run's options; names that are not ids are the file's own
 * labels). Null when it cannot tell: the text is not a JSON object with a
 * `schedulers` list, or names an id the catalog does not know.
 */
export function familiesOf(text: string, extraIds: readonly string[] = []): Set<FamilyPackage> | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof doc !== 'object' || doc === null) return null;
  const { schedulers, workload } = doc as { schedulers?: unknown; workload?: unknown };
  if (!Array.isArray(schedulers)) return null;
  const out = new Set<FamilyPackage>();
  const ids: unknown[] = schedulers.map((s: unknown) =>
    typeof s === 'object' && s !== null ? (s as { id?: unknown }).id : undefined,
  );
  for (const id of ids) {
    const family = typeof id === 'string' ? FAMILY_OF.get(id) : undefined;
    if (family === undefined) return null;
    if (isFamilyPackage(family)) out.add(family);
  }
  for (const id of extraIds) {
    const family = FAMILY_OF.get(id);
    if (family !== undefined && isFamilyPackage(family)) out.add(family);
  }
  if (typeof workload === 'object' && workload !== null) {
    for (const [field, family] of Object.entries(WORKLOAD_FAMILY)) {
      if ((workload as Record<string, unknown>)[field] != null) out.add(family);
    }
  }
  return out;
}

/**
 * The smallest package that runs `text`: its one family's, the full one for
 * several families or text it cannot read, null when any package does
 * (sequential only).
 */
export function packageFor(text: string, extraIds: readonly string[] = []): EnginePackage | null {
  const families = familiesOf(text, extraIds);
  return families === null ? 'full' : packageOf(families);
}

/** The smallest package for a scenario needing `families` (a {@link familiesOf} answer). */
export function packageOf(families: ReadonlySet<FamilyPackage>): EnginePackage | null {
  if (families.size > 1) return 'full';
  const [only] = families;
  return only ?? null;
}

/** Whether the package `loaded` runs what needs `wanted` (a {@link packageFor} answer). */
export function covers(loaded: EnginePackage, wanted: EnginePackage | null): boolean {
  return wanted === null || loaded === 'full' || loaded === wanted;
}
