// Generates src/trace/vocabulary.gen.ts from src/trace/vocabulary.json (the
// engine's trace vocabulary, `psmr schema --trace`). Run from web/:
//   node scripts/gen-vocabulary.mjs
// A vitest test (src/trace/vocabulary.test.ts) fails when the generated file
// is stale; a cargo test fails when vocabulary.json is.
import { writeWhenRun } from './generated.mjs';

/** `exec-start` -> `ExecStart`. */
const pascal = (kebab) =>
  kebab
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/** Word of the packed event a slot lives in (x: bits 24-31 of word 2). */
const WORD = { x: 2, a: 3, b: 4, c: 5 };

export function generate(vocab) {
  const kinds = [...vocab.kinds].sort((p, q) => p.code - q.code);
  const reasons = [...vocab.reasons].sort((p, q) => p.code - q.code);
  const lines = [];
  lines.push('// Generated from vocabulary.json by scripts/gen-vocabulary.mjs; do not edit.');
  lines.push('// The engine defines the trace vocabulary once (psmr-core/src/trace/vocabulary.rs).');
  lines.push('');
  lines.push('/** Event kind codes (w2 bits 16-23), by name. */');
  lines.push('export const KIND = {');
  for (const k of kinds) lines.push(`  ${pascal(k.name)}: ${k.code},`);
  lines.push('} as const;');
  lines.push('');
  // Families own code ranges (late/ePaxos 23-31, repartitioning 32-40,
  // coloring 41-49), so codes may have gaps: every by-code table has an
  // entry per code below KIND_COUNT, and KNOWN says which codes are kinds.
  const count = kinds.length ? kinds[kinds.length - 1].code + 1 : 0;
  const byCode = (f, gap) => {
    const out = Array.from({ length: count }, () => gap);
    for (const k of kinds) out[k.code] = f(k);
    return out;
  };
  lines.push('/** Kind codes are below KIND_COUNT; codes no kind uses yet are gaps (see KNOWN). */');
  lines.push(`export const KIND_COUNT = ${count};`);
  lines.push('');
  lines.push('/** Whether each code below KIND_COUNT is a kind. */');
  lines.push(`export const KNOWN: readonly boolean[] = [${byCode(() => true, false).join(', ')}];`);
  lines.push('');
  lines.push("/** Engine (kebab-case) name of each kind, by code ('' for a gap). */");
  lines.push(`export const KIND_KEBAB = [${byCode((k) => `'${k.name}'`, "''").join(', ')}] as const;`);
  lines.push('');
  lines.push('/** Kinds kept through a cut trace, by code. */');
  lines.push(`export const STRUCTURAL: readonly boolean[] = [${byCode((k) => k.structural, false).join(', ')}];`);
  lines.push('');
  // Flags: what the central replay asks of a kind (vocabulary.rs, FlagInfo),
  // so the trace worker asks the flag instead of naming a family's kind.
  // A flag without roles is a boolean per code; a flag with roles gives,
  // per code, the word of the field playing each role (null: not flagged).
  const flagNames = [...new Set(kinds.flatMap((k) => (k.flags ?? []).map((f) => f.name)))].sort();
  for (const name of flagNames) {
    const constName = `FLAG_${name.toUpperCase().replaceAll('-', '_')}`;
    const of = (k) => (k.flags ?? []).find((f) => f.name === name);
    const roles = [...new Set(kinds.flatMap((k) => Object.keys(of(k)?.fields ?? {})))].sort();
    const flagged = kinds.filter(of).map((k) => pascal(k.name));
    lines.push(`/** Kinds with the \`${name}\` flag, by code (now: ${flagged.join(', ')}). */`);
    if (roles.length === 0) {
      lines.push(`export const ${constName}: readonly boolean[] = [${byCode((k) => !!of(k), false).join(', ')}];`);
    } else {
      const word = (k, role) => WORD[k.fields.find((f) => f.name === of(k).fields[role]).slot];
      const entry = (k) => (of(k) ? `{ ${roles.map((r) => `${r}: ${word(k, r)}`).join(', ')} }` : 'null');
      // Words are the packed slots a field can sit in (codec.ts FieldWord).
      const type = `{ readonly ${roles.map((r) => `${r}: 2 | 3 | 4 | 5`).join('; readonly ')} } | null`;
      lines.push(`export const ${constName}: readonly (${type})[] = [${byCode(entry, 'null').join(', ')}];`);
    }
    lines.push('');
  }
  lines.push('/**');
  lines.push(' * Where each field of each kind is packed: the word of the event (3, 4, 5 =');
  lines.push(' * a, b, c; 2 = the 8-bit x in bits 24-31). Read with `PackedTrace.get`.');
  lines.push(' */');
  lines.push('export const F = {');
  for (const k of kinds) {
    const fields = k.fields.map((f) => `${f.name}: ${WORD[f.slot]}`).join(', ');
    lines.push(`  ${pascal(k.name)}: { ${fields} },`);
  }
  lines.push('} as const;');
  lines.push('');
  lines.push('/** An event with its fields by name (see `named` in codec.ts): `switch (e.kind)` narrows it. */');
  lines.push('export type NamedEvent =');
  for (const k of kinds) {
    const fields = k.fields.map((f) => ` ${f.name}: number;`).join('');
    lines.push(`  | { kind: '${pascal(k.name)}'; t_ns: number; thread: number;${fields} }`);
  }
  lines.push('  ;');
  lines.push('');
  lines.push('/** Per kind code: the word of the request the event is about (its first `req` field), or -1. */');
  const focus = byCode((k) => {
    const f = k.fields.find((f) => f.type === 'req');
    return f ? WORD[f.slot] : -1;
  }, -1);
  lines.push(`export const FOCUS: readonly number[] = [${focus.join(', ')}];`);
  lines.push('');
  lines.push('/** Wait reason codes (the x of WaitStart / WaitEnd), by name. */');
  lines.push('export const REASON = {');
  for (const r of reasons) lines.push(`  ${pascal(r.name)}: ${r.code},`);
  lines.push('} as const;');
  lines.push(`export const REASON_COUNT = ${reasons.length};`);
  lines.push("/** Reason names in the engine's kebab-case, by code. */");
  lines.push(`export const REASON_NAMES = [${reasons.map((r) => `'${r.name}'`).join(', ')}] as const;`);
  lines.push('');
  // Reason flags (vocabulary.rs, WaitReason::flags): what the central replay
  // asks of a wait, so it never names a family's reason. A boolean per code.
  const reasonFlags = [...new Set(reasons.flatMap((r) => r.flags ?? []))].sort();
  for (const name of reasonFlags) {
    const has = (r) => (r.flags ?? []).includes(name);
    const byReason = Array.from({ length: reasons.length }, (_, c) => reasons.some((r) => r.code === c && has(r)));
    const flagged = reasons.filter(has).map((r) => pascal(r.name));
    lines.push(`/** Wait reasons with the \`${name}\` flag, by code (now: ${flagged.join(', ')}). */`);
    lines.push(
      `export const REASON_${name.toUpperCase().replaceAll('-', '_')}: readonly boolean[] = [${byReason.join(', ')}];`,
    );
    lines.push('');
  }
  lines.push('/**');
  lines.push(' * Codes of the small fields that name a choice, by kind and field: e.g.');
  lines.push(' * `SMALL.StealRefused.heuristic.TimeLeft`. SMALL_NAMES has the kebab-case names by code.');
  lines.push(' */');
  lines.push('export const SMALL = {');
  const small = [...(vocab.small_codes ?? [])].sort((p, q) =>
    p.kind === q.kind ? p.field.localeCompare(q.field) : p.kind.localeCompare(q.kind),
  );
  const byKind = new Map();
  for (const s of small) byKind.set(s.kind, [...(byKind.get(s.kind) ?? []), s]);
  for (const [kind, fields] of byKind) {
    const inner = fields
      .map((f) => `${f.field}: { ${f.names.map((n, i) => `${pascal(n)}: ${i}`).join(', ')} }`)
      .join(', ');
    lines.push(`  ${pascal(kind)}: { ${inner} },`);
  }
  lines.push('} as const;');
  lines.push('/** The engine (kebab-case) names of the small codes, by kind, field and code. */');
  lines.push('export const SMALL_NAMES = {');
  for (const [kind, fields] of byKind) {
    const inner = fields.map((f) => `${f.field}: [${f.names.map((n) => `'${n}'`).join(', ')}]`).join(', ');
    lines.push(`  ${pascal(kind)}: { ${inner} },`);
  }
  lines.push('} as const;');
  lines.push('');
  lines.push(`/** Thread id of the scheduler (delivering) thread. */`);
  lines.push(`export const SCHEDULER = ${vocab.threads.scheduler};`);
  lines.push(`/** First thread id of auxiliary roles (role k is AUX_BASE + k). */`);
  lines.push(`export const AUX_BASE = ${vocab.threads.aux_base};`);
  lines.push(`/** A request field naming no request. */`);
  lines.push(`export const NO_REQUEST = ${vocab.no_request};`);
  lines.push('');
  return lines.join('\n');
}

writeWhenRun(import.meta.url, '../src/trace/vocabulary.json', '../src/trace/vocabulary.gen.ts', generate);
