// The one way the generators (gen-contract.mjs, gen-vocabulary.mjs) write
// their output: a committed TypeScript file made from a committed JSON file
// by a pure `generate`, which the tests beside the outputs also call to
// check that the committed file is up to date.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * When the script at `scriptUrl` is the one node runs: read the JSON file
 * `input`, write `generate(json)` to `output` (both relative to the script).
 */
export function writeWhenRun(scriptUrl, input, output, generate) {
  if (process.argv[1] !== fileURLToPath(scriptUrl)) return;
  const here = (p) => fileURLToPath(new URL(p, scriptUrl));
  writeFileSync(here(output), generate(JSON.parse(readFileSync(here(input), 'utf8'))));
  console.log(`wrote ${output.replace(/^\.\.\//, '')}`);
}
