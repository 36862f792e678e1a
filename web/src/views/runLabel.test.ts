import { describe, expect, it } from 'vitest';
import type { RunReport } from '../engine/protocol';
import { runLabel } from './tracks';

describe('run names in the classroom run list and track headings', () => {
  it('say a run on virtual cores is a model, and leave a real run as it was', () => {
    const real = { scheduler: 'repart-base', label: 'Base dp=2500' } as RunReport;
    const model = { ...real, mode_label: 'virtual 8 cores (model, reference cost table)' } as RunReport;
    expect(runLabel(real, [real], 0)).toBe('repart-base (Base dp=2500)');
    expect(runLabel(model, [model], 0)).toBe(
      'repart-base (Base dp=2500) · virtual 8 cores (model, reference cost table)',
    );
  });
});
