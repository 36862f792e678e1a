import { describe, expect, it } from 'vitest';
import { coresNote, runThreads } from './coresNote';

describe('the cores note beside the outcome charts', () => {
  const base = { scheduler: 'repart-base', threads: 4, roles: [{ name: 'tracker', thread: 65280 }] };
  const async = {
    scheduler: 'repart-async',
    threads: 4,
    roles: [
      { name: 'tracker', thread: 65280 },
      { name: 'partitioner', thread: 65281 },
    ],
  };

  it('counts workers, the delivering thread and auxiliary threads', () => {
    expect(runThreads(base as never)).toBe(6);
    expect(runThreads(async as never)).toBe(7);
    expect(runThreads({ scheduler: 'sequential', threads: 2 })).toBe(1);
  });

  it('speaks on 2 cores with the measured count, and not when every thread has a core', () => {
    const note = coresNote([base, async] as never, 2);
    expect(note).toContain('on 2 cores');
    expect(note).toContain('up to 7 threads');
    expect(coresNote([base, async] as never, 8)).toBeNull();
    expect(coresNote([base] as never, 0)).toBeNull();
  });
});
