/**
 * Stands in for smtp-address-parser (with the nearley parser it carries)
 * inside json-schema-library, which uses it only for the `email` string
 * format. The scenario schema uses no such format (its formats are
 * schemars' numeric ones), so a plain shape check is enough: one `@`, a
 * non-empty local part without spaces, a dotted domain. See vite.config.ts.
 */
export function parse(address: string): { local: string; domain: string } {
  const m = /^([^\s@]+)@([^\s@.]+(?:\.[^\s@.]+)+)$/.exec(address);
  if (!m) throw new Error(`not an email address: ${address}`);
  return { local: m[1] ?? '', domain: m[2] ?? '' };
}
