import { describe, expect, it } from 'vitest';
import catalog from '../../engine/catalog.json';
import { decode, encode, make, SCHEDULER } from '../../trace/codec';
import '../families';
import { codeFor } from '../pseudocode/PseudoPanel';
import { loadAllPseudoCode } from '../pseudocode/types';
import {
  brokenVariants,
  guardLine,
  pairMoment,
  pairOf,
  pairSentence,
  pinnedText,
  sharedFind,
  withFault,
} from './logic';

const SCENARIO = JSON.stringify({
  name: 's',
  workload: { seed: 3, requests: 400 },
  threads: 2,
  schedulers: [{ id: 'sequential' }, { id: 'early', label: 'early (optimizer)' }, { id: 'busy-wait' }],
  run: { trace: true },
  expect: { correct: true },
});

describe('break-it variants', () => {
  it('lists a scheduler’s broken variants with their rule from the catalog', () => {
    const early = brokenVariants('early');
    expect(early.map((v) => v.name)).toEqual(['early-no-barrier']);
    expect(early[0].rule).toContain('barrier');
    expect(brokenVariants('no-such-scheduler')).toEqual([]);
  });

  it('finds the line each fault’s rule stands on in its scheduler’s pseudo-code, for every scheduler', async () => {
    // Some families' listings are fetched on first need (a chunk of their own): fetch them all.
    await loadAllPseudoCode();
    const ids = (catalog as { schedulers: { id: string }[] }).schedulers.map((s) => s.id);
    const missing: string[] = [];
    for (const id of ids) {
      for (const v of brokenVariants(id)) {
        if (!guardLine(codeFor(id), v.guard)) missing.push(`${id} ${v.name}`);
      }
    }
    expect(missing).toEqual([]);
    const line = guardLine(codeFor('early'), brokenVariants('early')[0].guard);
    expect(line).toMatchObject({ listing: 'worker', text: 'barrier[c].await()' });
    const ws = guardLine(codeFor('ws-optimistic'), brokenVariants('ws-optimistic')[0].guard);
    expect(ws?.text).toBe('if Valid(v, c):');
  });
});

describe('scenario text of a broken variant', () => {
  it('selects the fault on the entry named by its label, else its id, else adds the entry', () => {
    const by = (t: string) => (JSON.parse(t) as { schedulers: { id: string; fault?: string }[] }).schedulers;
    expect(by(withFault(SCENARIO, 'early (optimizer)', 'early-no-barrier'))[1].fault).toBe('early-no-barrier');
    const bw = by(withFault(SCENARIO, 'busy-wait', 'busy-wait-early-release'));
    expect(bw.map((e) => e.fault ?? null)).toEqual([null, null, 'busy-wait-early-release']);
    const added = by(withFault(SCENARIO, 'late', 'late-ignore-conflicts'));
    expect(added).toHaveLength(4);
    expect(added[3]).toEqual({ id: 'late', fault: 'late-ignore-conflicts' });
  });

  it('pins a counterexample: the broken entry alone, the token, the requests, expected to break', () => {
    const t = JSON.parse(pinnedText(SCENARIO, 'busy-wait', 'busy-wait-early-release', 's3-c2-pct:7:4:90', 120)) as {
      schedulers: unknown[];
      workload: { seed: number; requests: number };
      run: { schedule: string; trace: boolean };
      expect: { correct: boolean };
    };
    expect(t.schedulers).toEqual([{ id: 'busy-wait', fault: 'busy-wait-early-release' }]);
    expect(t.workload).toEqual({ seed: 3, requests: 120 });
    expect(t.run).toEqual({ trace: true, schedule: 's3-c2-pct:7:4:90' });
    expect(t.expect).toEqual({ correct: false });
  });
});

describe('a shared find', () => {
  it('reads back the entry, fault and token that a pinned counterexample holds', () => {
    const pinned = pinnedText(SCENARIO, 'early (optimizer)', 'early-no-barrier', 's3c2d4k90x7', 120);
    expect(sharedFind(pinned)).toEqual({
      scheduler: 'early (optimizer)',
      fault: 'early-no-barrier',
      token: 's3c2d4k90x7',
    });
  });

  it('is nothing for a scenario without a fault, without a token, or not JSON', () => {
    expect(sharedFind(SCENARIO)).toBeNull();
    expect(sharedFind(withFault(SCENARIO, 'early (optimizer)', 'early-no-barrier'))).toBeNull();
    const pinnedNoFault = JSON.stringify({ ...JSON.parse(SCENARIO), run: { schedule: 's3c2' } });
    expect(sharedFind(pinnedNoFault)).toBeNull();
    expect(sharedFind('{ not json')).toBeNull();
  });
});

describe('the pair', () => {
  const order = {
    kind: 'order' as const,
    first: 17,
    first_class: 'R1',
    second: 41,
    second_class: 'W1',
    cell: { unit: 'shard', lo: 0, hi: 0, text: 'shard 1' },
  };

  it('says which ran first and what sequential order wants', () => {
    expect(pairSentence(pairOf(order)!)).toBe(
      'r41 (W1) ran before r17 (R1) on cell shard 1: sequential order has r17 first.',
    );
    const color = pairOf({ kind: 'color-order', first: 3, second: 5, cell: order.cell });
    expect(pairSentence(color!)).toBe('r5 ran before r3 on cell shard 1: sequential order has r3 first.');
    expect(pairOf({ kind: 'missing', req: 3 })).toBeNull();
    expect(pairOf(null)).toBeNull();
  });

  it('finds the moment the second starts and both threads’ lanes around the pair', () => {
    const ex = (req: number, t: number, thread: number) => make('ExecStart', { req }, t, thread);
    const events = [
      make('Delivered', { req: 1 }, 1, SCHEDULER),
      ex(1, 2, 0),
      ex(2, 3, 0),
      ex(3, 4, 1),
      ex(41, 5, 1),
      ex(4, 6, 0),
      ex(17, 7, 0),
      ex(5, 8, 1),
      ex(6, 9, 0),
    ];
    const m = pairMoment(decode(encode(events)), { first: 17, second: 41 })!;
    expect(m.position).toBe(5);
    expect([m.firstThread, m.secondThread]).toEqual([0, 1]);
    expect(m.lanes.map((l) => l.name)).toEqual(['T1', 'T0']);
    expect(m.lanes[0].chips).toEqual([
      { req: 3, pair: false },
      { req: 41, pair: true },
      { req: 5, pair: false },
    ]);
    expect(m.lanes[1].chips.filter((c) => c.pair).map((c) => c.req)).toEqual([17]);
    expect(m.lanes[1].chips.map((c) => c.req)).toEqual([1, 2, 4, 17, 6]);
    expect(pairMoment(decode(encode(events)), { first: 99, second: 41 })).toBeNull();
  });
});
