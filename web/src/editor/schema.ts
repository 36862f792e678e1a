/**
 * The committed JSON Schema of scenario files (`scenarios/scenario.schema.json`,
 * generated from the engine's types). Loaded with a glob so the app still
 * builds, without schema help, in a checkout that lacks the file.
 */
import type { Schema } from './schemaCheck';

const found = import.meta.glob<Schema>('../../../scenarios/scenario.schema.json', {
  eager: true,
  import: 'default',
});

/** The scenario schema, or `undefined` when the file is absent. */
export const scenarioSchema: Schema | undefined = Object.values(found)[0];
