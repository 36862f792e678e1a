import { describe, expect, it } from 'vitest';
import { rawName } from './consistency';

describe('the lesson consistency kit', () => {
  it('catches a caption that restates a raw event', () => {
    expect(rawName('Scheduler delivered r2499 (R3) (Delivered).')).toBe('Delivered');
    expect(rawName('T0 starts executing r27 (ExecStart).')).toBe('ExecStart');
    expect(rawName('T0 sends a ColorSteal.')).toBe('ColorSteal');
    expect(rawName('The scheduler delivers r12 (R1): it goes into the queue of T0.')).toBeNull();
  });
});
