import { describe, expect, it } from 'vitest';
import catalog from './catalog.json';
import { covers, FAMILY_PACKAGES, familiesOf, packageFor, WORKLOAD_FAMILY } from './packages';

/** A scenario text with these scheduler ids and workload fields. */
function scenario(ids: string[], workload: object = { requests: 10 }): string {
  return JSON.stringify({ name: 't', workload, schedulers: ids.map((id) => ({ id })) });
}

describe('packageFor', () => {
  it('one family (plus sequential): that family’s package', () => {
    expect(packageFor(scenario(['sequential', 'early', 'busy-wait']))).toBe('early');
    expect(packageFor(scenario(['late']))).toBe('late');
    expect(packageFor(scenario(['sequential', 'libasync', 'mely']))).toBe('coloring');
  });

  it('several families, unknown ids or unreadable text: the full engine', () => {
    expect(packageFor(scenario(['early', 'late']))).toBe('full');
    expect(packageFor(scenario(['early', 'no-such-scheduler']))).toBe('full');
    expect(packageFor('{ "schedulers": [ { "id": "late" } ')).toBe('full');
    expect(packageFor('{ "name": "no schedulers" }')).toBe('full');
  });

  it('sequential only: any package', () => {
    expect(packageFor(scenario(['sequential']))).toBeNull();
  });

  it('a workload only one family runs counts as that family', () => {
    expect(packageFor(scenario(['sequential'], { commits: { simulate: {} } }))).toBe('epaxos');
    expect(packageFor(scenario(['early'], { ycsb: { workload: 'a' } }))).toBe('full');
  });

  it('ids named by the run options count too', () => {
    expect(packageFor(scenario(['early']), ['late'])).toBe('full');
    expect(packageFor(scenario(['early']), ['a label'])).toBe('early');
  });

  it('every family of the catalog but sequential has a package', () => {
    const families = new Set(catalog.schedulers.map((s) => s.family));
    families.delete('sequential');
    expect([...families].sort()).toEqual([...FAMILY_PACKAGES].sort());
    for (const s of catalog.schedulers) {
      const f = familiesOf(scenario([s.id]));
      expect(f?.size ?? -1, s.id).toBe(s.family === 'sequential' ? 0 : 1);
    }
  });
});

describe('the catalog’s package list', () => {
  it('one package per family but sequential, named as the family (its cargo feature)', () => {
    expect([...FAMILY_PACKAGES]).toEqual(['early', 'work-stealing', 'late', 'epaxos', 'repartitioning', 'coloring']);
    for (const f of catalog.families) expect(f.package).toBe(f.name === 'sequential' ? null : f.name);
  });

  it('the workload fields one family reads, from psmr-core’s gates', () => {
    expect(WORKLOAD_FAMILY).toEqual({ ycsb: 'repartitioning', events: 'coloring', commits: 'epaxos' });
    expect(packageFor(scenario(['sequential'], { events: { kind: 'x' } }))).toBe('coloring');
    expect(packageFor(scenario(['repart-base'], { ycsb: { workload: 'a' } }))).toBe('repartitioning');
  });
});

describe('covers', () => {
  it('the full engine covers everything; a family package its own family and sequential', () => {
    expect(covers('full', 'late')).toBe(true);
    expect(covers('late', 'late')).toBe(true);
    expect(covers('late', null)).toBe(true);
    expect(covers('late', 'early')).toBe(false);
    expect(covers('late', 'full')).toBe(false);
  });
});
