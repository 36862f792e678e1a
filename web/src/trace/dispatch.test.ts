import { describe, expect, it } from 'vitest';
import { decode, encode, KIND, make, named } from './codec';
import { kindTable, onEvent, onNamed, onPacked } from './dispatch';

describe('kind dispatch', () => {
  it('puts each handler at its kind code and leaves the other codes empty', () => {
    const table = kindTable({ Steal: 'steal', ExecEnd: 'end' });
    expect(table[KIND.Steal]).toBe('steal');
    expect(table[KIND.ExecEnd]).toBe('end');
    expect(table.filter((h) => h !== undefined)).toHaveLength(2);
  });

  it('runs the handler of each event kind, the fallback for the others (packed, object and named events)', () => {
    const events = [
      make('Delivered', { req: 7, class: 2 }, 10, 0xffff),
      make('ExecStart', { req: 7 }, 20, 1),
      make('Flag', { ready: 1 }, 30, 1),
    ];
    const trace = decode(encode(events));
    const packed = onPacked<typeof trace, string, string>(
      { ExecStart: (t, i, tag) => `${tag} start r${t.get(i, 3)}` },
      (t, i) => `other ${t.kind(i)}`,
    );
    expect([0, 1, 2].map((i) => packed(trace, i, 'p'))).toEqual([
      `other ${KIND.Delivered}`,
      'p start r7',
      `other ${KIND.Flag}`,
    ]);
    const object = onEvent({ Delivered: (e: { kind: number; a: number }) => e.a }, () => -1);
    expect(events.map((e) => object(e, undefined))).toEqual([7, -1, -1]);
    const byName = onNamed<number, string>(
      { Delivered: (e, n) => `r${e.req} of class ${e.class} #${n}`, Flag: (e) => `flag ${e.ready}` },
      (e) => e.kind,
    );
    expect(events.map((e, n) => byName(named(e), n))).toEqual(['r7 of class 2 #0', 'ExecStart', 'flag 1']);
  });
});
