/**
 * Decoder, indexing and seeking on a 1M-event synthetic trace
 * (docs/benchmarks/frontend.md). Run: `npx vitest bench --run src/trace` in web/.
 */
import { bench, describe } from 'vitest';
import { decode } from './codec';
import { analyze } from './index';
import { ReplayModel } from './model';
import { rng, synthesize } from './synth';

const { buffer } = synthesize({
  threads: 16,
  requests: 1e9,
  shards: 4,
  writes: 0.2,
  global: 0.05,
  mode: 'ws',
  seed: 1,
  execTicks: 6,
  maxEvents: 1_000_000,
  skew: 0.5,
});
const trace = decode(buffer);
const model = new ReplayModel(trace, analyze(trace));
const r = rng(7);

describe('1M-event trace', () => {
  bench('decode (validate every event)', () => {
    decode(buffer);
  });
  bench(
    'index + checkpoints (the trace worker, once per trace)',
    () => {
      analyze(trace);
    },
    { iterations: 3 },
  );
  bench('seek to a random position (checkpoint + at most one stride)', () => {
    model.stateAt(Math.floor(r() * model.length));
  });
  bench('step forward one event', () => {
    const p = model.stateAt(0).position;
    model.stateAt(p + 1);
  });
});
