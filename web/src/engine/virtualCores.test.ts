import { describe, expect, it } from 'vitest';
import type { Report, RunReport } from './contract.gen';
import {
  maxVirtualCores,
  modelLabel,
  runLabel,
  sameKind,
  threadsLabel,
  virtualCoresProblem,
  virtualOf,
  type LabReport,
} from './virtualCores';

const run = { label: 'naive', threads: 4 } as Pick<RunReport, 'label' | 'threads'>;
const real = { runs: [] } as unknown as Report;
const model = { cores: 4, cost_table: 'reference', trace_digests: ['00000000000000ff'] };
const virtual: LabReport = { ...real, virtual_run: model };

describe('labels of runs on virtual cores', () => {
  it('a virtual run is named as a model everywhere, a real one by its thread count', () => {
    expect(modelLabel(model)).toBe('virtual 4 cores (model, reference cost table)');
    expect(modelLabel({ ...model, cores: 1 })).toBe('virtual 1 core (model, reference cost table)');
    expect(threadsLabel(virtual, run)).toBe('virtual 4 cores (model, reference cost table)');
    expect(runLabel(virtual, run)).toBe('naive × virtual 4 cores (model, reference cost table)');
    expect(threadsLabel(real, run)).toBe('4');
    expect(runLabel(real, run)).toBe('naive × 4');
    expect(virtualOf(real)).toBeNull();
    expect(virtualOf(null)).toBeNull();
  });

  it('a model never shares a chart with measurements', () => {
    expect(sameKind(real, real)).toBe(true);
    expect(sameKind(virtual, virtual)).toBe(true);
    expect(sameKind(real, virtual)).toBe(false);
    expect(sameKind(virtual, real)).toBe(false);
  });
});

describe('how many virtual cores the browser hosts', () => {
  it('every virtual core needs its own pool thread beside the roles and the driver', () => {
    // The worker starts 16 + 1 + 2 + 1 = 20 threads for the browser limits.
    expect(maxVirtualCores(20, { max_threads: 16, max_roles: 2 })).toBe(16);
    expect(maxVirtualCores(10, { max_threads: 16, max_roles: 2 })).toBe(7);
    expect(maxVirtualCores(2, { max_threads: 16, max_roles: 2 })).toBe(0);
  });

  it('says why a count is refused', () => {
    expect(virtualCoresProblem(16, 16, 20)).toBeNull();
    expect(virtualCoresProblem(1, 16, 20)).toBeNull();
    const why = virtualCoresProblem(32, 16, 20) ?? '';
    expect(why).toContain('from 1 to 16, got 32');
    expect(why).toContain('one runs at a time, but all of them wait at once');
    expect(virtualCoresProblem(0, 16, null)).toContain("one of the engine's pool threads");
  });
});
