/**
 * The family modules fill the same tables the central files used to hold:
 * every scheduler's family, color and synchronization, the views of each
 * family in their tab order, the listings, the bookmarks lessons name, and
 * the guess for scheduler ids no module lists.
 */
import { describe, expect, it } from 'vitest';
import { knownFinder } from './bookmarks';
import './builtin';
import { FAMILIES } from './families';
import { familyModules } from './family';
import { profileOf } from './profiles';
import { codes, loadAllPseudoCode } from './pseudocode/types';
import { familyWait } from './status';
import { REASON_NAMES } from '../trace/codec';
import { reasonWords } from '../trace/reasons';
import { viewsFor, type Family } from './registry';

const B = 'barrier smallest';
const C = 'cycle last';
const CB = 'cycle+barrier last';
// id, family, sync, steals, steals while waiting, color, high-contrast color (as before the modules).
const TABLE: [string, Family, string | null, boolean, boolean, string, string][] = [
  ['sequential', 'sequential', null, false, false, '#667085', '#d0d5dd'],
  ['early', 'early', B, false, false, '#2f6fde', '#5fa8ff'],
  ['busy-wait', 'early', C, false, false, '#d92d20', '#ff6b5e'],
  ['ws-conservative', 'work-stealing', B, true, false, '#7a5af8', '#b69cff'],
  ['ws-moderate', 'work-stealing', CB, true, true, '#0e9384', '#2ee6cf'],
  ['ws-aggressive', 'work-stealing', C, true, true, '#dc6803', '#ffa53d'],
  ['ws-optimistic', 'work-stealing', C, true, true, '#2e9e44', '#4ee67a'],
  ['late', 'late', null, false, false, '#c11574', '#ff6fc1'],
  ['epaxos', 'epaxos', null, false, false, '#9e7700', '#ffd43b'],
  ['pepaxos', 'epaxos', null, false, false, '#6b4f00', '#e6c200'],
  ['repart-rr', 'repartitioning', null, false, false, '#475467', '#98a2b3'],
  ['repart-sw', 'repartitioning', null, false, false, '#475467', '#98a2b3'],
  ['repart-base', 'repartitioning', null, false, false, '#475467', '#98a2b3'],
  ['repart-async', 'repartitioning', null, false, false, '#475467', '#98a2b3'],
  ['libasync', 'coloring', null, false, false, '#155b75', '#5ad1ff'],
  ['mely', 'coloring', null, false, false, '#4e5ba6', '#9aa8ff'],
];

describe('family modules', () => {
  it('are all registered, once each', () => {
    expect(familyModules().map((m) => m.family)).toEqual(FAMILIES.map((m) => m.family));
    expect(new Set(FAMILIES.map((m) => m.family)).size).toBe(FAMILIES.length);
  });

  it('give every scheduler its family, synchronization and colors', () => {
    for (const [id, family, sync, steals, waiting, color, colorHc] of TABLE) {
      const p = profileOf(id);
      const s = p.sync && `${p.sync.kind}${p.sync.barrierAfter ? '+barrier' : ''} ${p.sync.executor}`;
      expect([p.family, s, p.steals, p.stealsWhileWaiting, p.color, p.colorHc], id).toEqual([
        family,
        sync,
        steals,
        waiting,
        color,
        colorHc,
      ]);
    }
    const ids = FAMILIES.flatMap((m) => m.schedulers.map((s) => s.id));
    expect(new Set(ids).size, 'one module per scheduler id').toBe(ids.length);
    for (const r of TABLE) expect(ids).toContain(r[0]);
  });

  it('guess the family of scheduler ids no module lists', () => {
    expect(profileOf('ws-new').family).toBe('work-stealing');
    expect(profileOf('repart-new').family).toBe('repartitioning');
    expect(profileOf('no-such-scheduler').family).toBe('sequential');
    expect(profileOf('no-such-scheduler').color).toBe('#667085');
  });

  it('show each family its views in tab order', () => {
    const ids = (fs: Family[]) => viewsFor(fs).map((v) => v.id);
    expect(ids(['sequential'])).toEqual(['threads', 'charts']);
    expect(ids(['early'])).toEqual(['threads', 'sync', 'mapping', 'charts']);
    expect(ids(['work-stealing'])).toEqual(['threads', 'sync', 'mapping', 'charts']);
    expect(ids(['late'])).toEqual(['threads', 'graph', 'charts']);
    expect(ids(['epaxos'])).toEqual(['threads', 'graph', 'charts']);
    expect(ids(['repartitioning'])).toEqual(['threads', 'partitions', 'charts']);
    expect(ids(['coloring'])).toEqual(['threads', 'coloring', 'charts']);
    const these = [...new Set(TABLE.map((r) => r[1]))];
    expect(ids(these)).toEqual(['threads', 'sync', 'partitions', 'coloring', 'graph', 'mapping', 'charts']);
  });

  it('give a listing to every scheduler, and only to theirs', async () => {
    // Some families' listings are fetched on first need (a chunk of their own): fetch them all.
    await loadAllPseudoCode();
    const listed = codes.flatMap((c) => c.schedulers);
    for (const [id] of TABLE) expect(listed.includes(id), id).toBe(true);
    for (const m of FAMILIES) {
      const own = new Set(m.schedulers.map((s) => s.id));
      const listings = typeof m.pseudocode === 'function' ? await m.pseudocode() : (m.pseudocode ?? []);
      for (const c of listings) for (const id of c.schedulers) expect(own.has(id), `${m.family}: ${id}`).toBe(true);
    }
  });

  it('register every bookmark they declare', () => {
    const ids = FAMILIES.flatMap((m) => Object.keys(m.bookmarks ?? {}));
    expect(ids.length).toBeGreaterThan(20);
    for (const id of ids) expect(knownFinder(id), id).toBe(true);
    expect(knownFinder('no-such-finder')).toBe(false);
  });

  it('word the wait reasons only they record, one family each, and the status reads them', () => {
    const owners: Record<string, string[]> = {};
    for (const m of FAMILIES)
      for (const r of Object.keys(m.status?.waits ?? {})) owners[r] = [...(owners[r] ?? []), m.family];
    expect(owners).toEqual({
      marker: ['work-stealing'],
      'map-switch': ['repartitioning'],
      lock: ['late'],
      'full-graph': ['late'],
      scc: ['epaxos'],
      semaphore: ['epaxos'],
    });
    for (const m of FAMILIES)
      for (const [r, w] of Object.entries(m.status?.waits ?? {})) {
        const code = (REASON_NAMES as readonly string[]).indexOf(r);
        expect(reasonWords(code), r).toBe(w?.words);
        expect(familyWait(code), r).toBe(w);
      }
    // A shared reason stays central: no family declares it.
    for (const r of ['empty-queue', 'full-queue', 'barrier', 'cycle'] as const)
      expect(familyWait(REASON_NAMES.indexOf(r)), r).toBeUndefined();
  });
});
