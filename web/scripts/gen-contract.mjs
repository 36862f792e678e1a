// Generates src/engine/contract.gen.ts from src/engine/contract.schema.json
// (the engine's JSON contract with the web app, `psmr schema --contract`:
// the run report and everything in it, the live snapshot, the bench report,
// the scheduler families and the parameter objects). Run from web/:
//   node scripts/gen-contract.mjs
// A vitest test (src/engine/contract.test.ts) fails when the generated file
// is stale; a cargo test fails when contract.schema.json is.
//
// It translates the JSON Schema subset schemars writes for serde types:
// objects (properties, required, additionalProperties as a map), arrays and
// tuples (prefixItems), string enums and `const` unions, tagged unions
// (oneOf of objects), `anyOf` with null, type lists, and `$ref`s to `$defs`.
import { writeWhenRun } from './generated.mjs';

const SCALAR = { integer: 'number', number: 'number', string: 'string', boolean: 'boolean', null: 'null' };

/** A JSDoc block for `description`, indented by `pad`, or nothing. */
function doc(description, pad) {
  if (!description) return [];
  const lines = description.split('\n');
  if (lines.length === 1) return [`${pad}/** ${lines[0]} */`];
  return [`${pad}/**`, ...lines.map((l) => (l ? `${pad} * ${l}` : `${pad} *`)), `${pad} */`];
}

/** A property key, quoted when it is not an identifier. */
const key = (k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : `'${k}'`);

/** Union of types, without repeats, `null` last. */
function union(types) {
  const seen = [...new Set(types)];
  const rest = seen.filter((t) => t !== 'null');
  return [...rest, ...(seen.includes('null') ? ['null'] : [])].join(' | ');
}

/** Parenthesize a union before `[]`. */
const arrayOf = (t) => (/[|&]/.test(t) ? `(${t})[]` : `${t}[]`);

/** The TypeScript type of `s`, written inline at indentation `pad`. */
function type(s, pad) {
  if (s === true || s === undefined || (typeof s === 'object' && Object.keys(s).length === 0)) return 'unknown';
  if (s.$ref) return s.$ref.replace('#/$defs/', '');
  if (s.const !== undefined) return JSON.stringify(s.const).replace(/"/g, "'");
  if (s.enum) return union(s.enum.map((v) => (v === null ? 'null' : JSON.stringify(v).replace(/"/g, "'"))));
  const alts = s.oneOf ?? s.anyOf;
  if (alts) return union(alts.map((a) => type(a, pad)));
  if (s.allOf && s.allOf.length === 1) return type(s.allOf[0], pad);
  if (Array.isArray(s.type)) return union(s.type.map((t) => type({ ...s, type: t }, pad)));
  switch (s.type) {
    case 'array':
      if (s.prefixItems) return `[${s.prefixItems.map((i) => type(i, pad)).join(', ')}]`;
      return arrayOf(type(s.items, pad));
    case 'object':
      if (!s.properties) return `Record<string, ${type(s.additionalProperties, pad)}>`;
      return objectType(s, pad);
    default:
      if (SCALAR[s.type]) return SCALAR[s.type];
      throw new Error(`gen-contract: no TypeScript for ${JSON.stringify(s)}`);
  }
}

/** An object literal type: one documented line per property. */
function objectType(s, pad) {
  const required = new Set(s.required ?? []);
  const inner = `${pad}  `;
  const lines = ['{'];
  for (const [name, p] of Object.entries(s.properties)) {
    lines.push(...doc(p.description, inner));
    lines.push(`${inner}${key(name)}${required.has(name) ? '' : '?'}: ${type(p, inner)};`);
  }
  lines.push(`${pad}}`);
  return lines.join('\n');
}

/** One `$defs` entry as an exported interface (plain object) or type. */
function definition(name, s) {
  const lines = doc(s.description, '');
  if (s.type === 'object' && s.properties && !s.oneOf && !s.anyOf) {
    lines.push(`export interface ${name} ${objectType(s, '')}`);
  } else if (s.oneOf && s.oneOf.every((a) => a.type === 'object')) {
    // A tagged union: one documented alternative per line.
    lines.push(`export type ${name} =`);
    for (const a of s.oneOf) {
      lines.push(...doc(a.description, '  '));
      lines.push(`  | ${objectType(a, '  ')}`);
    }
    lines[lines.length - 1] += ';';
  } else {
    lines.push(`export type ${name} = ${type(s, '')};`);
  }
  return lines;
}

export function generate(contract) {
  const lines = [
    '// Generated from contract.schema.json by scripts/gen-contract.mjs; do not edit.',
    '// The engine defines these types once (psmr-scenario, psmr-core; `psmr schema --contract`).',
    '',
  ];
  for (const name of Object.keys(contract.$defs).sort()) {
    lines.push(...definition(name, contract.$defs[name]), '');
  }
  // The family names as a value, in the engine's order.
  const fam = contract.$defs.Family;
  const names = (fam.oneOf ?? fam.enum.map((v) => ({ const: v }))).map((a) => `'${a.const}'`);
  lines.push("/** Every scheduler family, in the engine's order. */");
  lines.push(`export const FAMILIES: readonly Family[] = [${names.join(', ')}];`);
  lines.push('');
  return lines.join('\n');
}

writeWhenRun(import.meta.url, '../src/engine/contract.schema.json', '../src/engine/contract.gen.ts', generate);
