/**
 * Scenario JSON as the page reads it: the one place the web app parses a
 * scenario text. Reads are lenient (the engine validates the file and gives
 * located errors when it runs): a field of the wrong type reads as absent.
 */

/** A scenario object: its fields, unchecked. */
export type ScenarioDoc = Record<string, unknown>;

/** A scenario text read: the object (`{}` for JSON that is not an object), or the JSON syntax error. */
export type ReadScenario = { ok: true; doc: ScenarioDoc; isObject: boolean } | { ok: false; error: string };

/** The field object `x`, or `{}` when it is not an object. */
export function fields(x: unknown): ScenarioDoc {
  return x && typeof x === 'object' ? (x as ScenarioDoc) : {};
}

/** Parse scenario text `text`. */
export function readScenario(text: string): ReadScenario {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  const isObject = typeof v === 'object' && v !== null;
  return { ok: true, doc: isObject ? (v as ScenarioDoc) : {}, isObject };
}

/** The object of scenario text `text`, `{}` when it is not a JSON object. */
export function scenarioDoc(text: string): ScenarioDoc {
  const r = readScenario(text);
  return r.ok ? r.doc : {};
}

/** A string field, or `undefined`. */
export function stringField(doc: ScenarioDoc, key: string): string | undefined {
  const v = doc[key];
  return typeof v === 'string' ? v : undefined;
}

/** A number field, or `undefined`. */
export function numberField(doc: ScenarioDoc, key: string): number | undefined {
  const v = doc[key];
  return typeof v === 'number' ? v : undefined;
}

/** The `tags` of a scenario (strings only). */
export function scenarioTags(doc: ScenarioDoc): string[] {
  return Array.isArray(doc.tags) ? doc.tags.filter((t): t is string => typeof t === 'string') : [];
}

/** One entry of a scenario's `schedulers` list, as far as the page reads it. */
export interface SchedulerEntry {
  id?: string;
  label?: string;
  /** The whole entry (parameter objects, mapping). */
  doc: ScenarioDoc;
}

/** The `schedulers` entries that are objects, in file order. */
export function schedulerEntries(doc: ScenarioDoc): SchedulerEntry[] {
  const list: unknown[] = Array.isArray(doc.schedulers) ? doc.schedulers : [];
  return list.flatMap((x) => {
    if (typeof x !== 'object' || x === null) return [];
    const e = x as ScenarioDoc;
    return [{ id: stringField(e, 'id'), label: stringField(e, 'label'), doc: e }];
  });
}

/** The name an entry runs under in reports and polls: its label, else its id. */
export function entryName(e: SchedulerEntry): string | undefined {
  return e.label ?? e.id;
}
