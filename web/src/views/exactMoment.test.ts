import { describe, expect, it } from 'vitest';
import { shardedClasses } from '../engine/classes';
import type { RunReport } from '../engine/protocol';
import { loadTraceHere } from '../trace/load';
import { synthesizeSmall } from '../trace/synth';
import { landMoment } from './exactMoment';
import { nameMoment } from './moments';
import { makeTrack } from './tracks';

/** A replay track of a synthetic early run (seed `seed`: another seed stands for a re-run with new timings). */
function track(seed: number) {
  const s = synthesizeSmall({ threads: 2, seed });
  const run = { scheduler: 'early', label: 'early' } as RunReport;
  return makeTrack('k', 'early', run, loadTraceHere(s.buffer), shardedClasses(2));
}

describe('where a shared moment lands', () => {
  const t = track(3);
  const pos = Math.floor(t.model.length * 0.6);
  const at = nameMoment(t, pos);

  it('a virtual run with the same trace digest reopens exactly the shared step', () => {
    const l = landMoment(t, { at, pos, len: t.model.length, dg: 'abc' }, 'abc');
    expect(l).toEqual({ position: pos, exact: true, differs: null });
  });

  it('a virtual run whose digest differs says so and lands on the nearest equal moment', () => {
    const l = landMoment(t, { at: 'done:50', pos, dg: 'abc' }, 'abd');
    expect(l.exact).toBe(false);
    expect(l.position).not.toBeNull();
    expect(nameMoment(t, l.position!)).toBe('done:50');
    expect(l.differs).toContain('abd');
    expect(l.differs).toContain('nearest equal moment, done:50');
  });

  it('a real run re-run with new timings says the trace differs and lands on the named moment', () => {
    const again = track(4);
    const l = landMoment(again, { at: 'done:50', pos, len: t.model.length }, null);
    expect(nameMoment(again, l.position!)).toBe('done:50');
    expect(l.exact).toBe(false);
    expect(l.differs).toContain('real threads');
  });

  it('an old link (a name only) lands on its name and says nothing more', () => {
    const l = landMoment(t, { at: 'done:50' }, null);
    expect(nameMoment(t, l.position!)).toBe('done:50');
    expect(l.differs).toBeNull();
  });
});
