/**
 * The web app reads the engine's reports through types generated from the
 * engine's contract: contract.schema.json is the engine's (a cargo test
 * checks it against `psmr schema --contract`), and contract.gen.ts must be
 * what the generator makes of it.
 */
import { describe, expect, it } from 'vitest';

// @ts-expect-error: a plain ESM script without types.
import { generate } from '../../scripts/gen-contract.mjs';
import contract from './contract.schema.json';
import committed from './contract.gen.ts?raw';
import { FAMILIES } from './contract.gen';

describe('engine contract', () => {
  it('contract.gen.ts is generated from contract.schema.json', () => {
    expect(committed, 'run: node scripts/gen-contract.mjs').toBe(generate(contract));
  });

  it('lists the families the engine names', () => {
    expect(FAMILIES).toEqual(contract.$defs.Family.oneOf.map((f) => f.const));
  });
});
