/**
 * Stands in for @sagold/json-query (with the ebnf parser it carries) inside
 * json-schema-library, whose only use of it is `getTypeDefs`: finding the
 * sub-schemas a schema nests under fixed keywords. Those queries are all of
 * two forms, `keyword` and `keyword/*`, so only those two are supported; any
 * other query is refused loudly rather than answered wrongly. See
 * vite.config.ts.
 */

type Visit = (value: unknown, key: string, parent: unknown, pointer: string) => void;

/** A JSON-pointer token: `~` and `/` escaped (RFC 6901). */
function token(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Call `visit` with every value `query` selects in `data`, as json-query's
 * `get(data, query, callback)` does: `keyword` selects `data[keyword]` when
 * it is defined, `keyword/*` every entry of the object or array under it,
 * in key order; `pointer` is the value's `#/`-rooted JSON pointer.
 */
export function get(data: unknown, query: string, visit: Visit): void {
  const m = /^([^/*]+)(\/\*)?$/.exec(query);
  if (!m) throw new Error(`schemaQuery: unsupported query '${query}'`);
  const keyword = m[1] ?? '';
  if (data === null || typeof data !== 'object') return;
  const node = (data as Record<string, unknown>)[keyword];
  if (node === undefined) return;
  const at = `#/${token(keyword)}`;
  if (!m[2]) {
    visit(node, keyword, data, at);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    visit(v, k, node, `${at}/${token(k)}`);
  }
}
