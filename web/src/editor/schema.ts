/**
 * The committed JSON Schema of scenario files (`scenarios/scenario.schema.json`,
 * generated from the engine's types). Loaded with a glob so the app still
 * builds, without schema help, in a checkout that lacks the file.
 */
import type { JSONSchema7 } from 'json-schema';

const found = import.meta.glob<JSONSchema7>('../../../scenarios/scenario.schema.json', {
  eager: true,
  import: 'default',
});

/** The scenario schema, or `undefined` when the file is absent. */
export const scenarioSchema: JSONSchema7 | undefined = Object.values(found)[0];
