/**
 * The web app decodes traces with the engine's vocabulary: vocabulary.json
 * is the engine's (a cargo test checks it against `psmr schema --trace`),
 * and vocabulary.gen.ts must be what the generator makes of it.
 */
import { describe as suite, expect, it } from 'vitest';

// @ts-expect-error: a plain ESM script without types.
import { generate } from '../../scripts/gen-vocabulary.mjs';
import vocabulary from './vocabulary.json';
import committed from './vocabulary.gen.ts?raw';
import {
  F,
  FLAG_COLORS,
  FLAG_FILLS_QUEUE,
  FLAG_STEAL,
  FLAG_STEALS_COLOR,
  KIND,
  KIND_CODES,
  KIND_COUNT,
  KIND_NAMES,
  describe,
  make,
  named,
} from './codec';
// A family's own kinds get their sentences when the app registers the families (views/family.ts).
import '../views/families';

suite('trace vocabulary', () => {
  it('vocabulary.gen.ts is generated from vocabulary.json', () => {
    expect(committed, 'run: node scripts/gen-vocabulary.mjs').toBe(generate(vocabulary));
  });

  it('every kind of the engine is known, with its fields in distinct words', () => {
    expect(KIND_CODES.length).toBe(vocabulary.kinds.length);
    expect(KIND_COUNT).toBe(Math.max(...vocabulary.kinds.map((k) => k.code)) + 1);
    for (const k of vocabulary.kinds) {
      const name = KIND_NAMES[k.code];
      expect(name, k.name).toBeDefined();
      if (name === undefined) continue;
      const words = Object.values(F[name]);
      expect(new Set(words).size, k.name).toBe(words.length);
      expect(Object.keys(F[name])).toEqual(k.fields.map((f) => f.name));
    }
  });

  it('fields round-trip by name, and every kind has its own description', () => {
    for (const name of KIND_NAMES) {
      if (name === undefined) continue; // a code no kind uses yet
      const fields: Record<string, number> = {};
      Object.keys(F[name]).forEach(
        (f, i) => (fields[f] = f === 'reason' || f === 'cycle' || f === 'ready' ? 1 : 10 + i),
      );
      const e = make(name, fields, 5, 2);
      expect(e.kind).toBe(KIND[name]);
      expect(named(e)).toEqual({ kind: name, t_ns: 5, thread: 2, ...fields });
      expect(
        describe(e, (c) => `C${c}`),
        name,
      ).not.toMatch(/ event \d+$/);
    }
  });

  it("a flag's roles read the fields the engine names for them", () => {
    const tables = {
      steal: FLAG_STEAL,
      'fills-queue': FLAG_FILLS_QUEUE,
      colors: FLAG_COLORS,
      'steals-color': FLAG_STEALS_COLOR,
    };
    for (const k of vocabulary.kinds) {
      const name = KIND_NAMES[k.code];
      if (name === undefined) continue;
      const words: Record<string, number> = F[name];
      for (const [flag, table] of Object.entries(tables)) {
        const given = k.flags.find((f) => f.name === flag);
        const roles: Record<string, number> | null = table[k.code];
        expect(roles !== null, `${k.name} ${flag}`).toBe(given !== undefined);
        if (!given || !roles) continue;
        for (const [role, field] of Object.entries(given.fields))
          expect(roles[role], `${k.name} ${flag} ${role}`).toBe(words[field]);
      }
    }
  });
});
