/**
 * Stands in for codemirror-json-schema's JSON5 and YAML parsers (with the
 * json5, codemirror-json5 and yaml packages they pull in): scenario files
 * are JSON, and the editor only ever asks for the JSON mode. See
 * vite.config.ts.
 */

function jsonOnly(): never {
  throw new Error('scenario files are JSON: the JSON5 and YAML modes are not bundled');
}

export const parseJSON5DocumentState = jsonOnly;
export const parseYAMLDocumentState = jsonOnly;
