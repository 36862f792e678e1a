import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Report, RunOutcome } from '../engine/protocol';
import { readyInfo } from '../engine/testing';

/**
 * The lesson scope: a lesson's run list holds its own runs only, and a
 * reload during a lesson (the hash names it, with the moment on screen)
 * starts it again at that moment. The run store runs on a fake engine; the
 * page's URL is a stub.
 */

const page = vi.hoisted(() => {
  const url = { pathname: '/', search: '', hash: '' };
  return {
    url,
    location: url,
    history: {
      replaceState: (_s: unknown, _t: string, next: string) => {
        const i = next.indexOf('#');
        url.hash = i >= 0 ? next.slice(i) : '';
      },
    },
  };
});
vi.stubGlobal('location', page.location);
vi.stubGlobal('history', page.history);

vi.mock('../store', async () => {
  const { createRunStore } = await import('../store/runStore');
  const { useStore } = await import('zustand');
  const report = (scenario: string): Report => ({ scenario, cores: 2, runs: [] });
  const runStore = createRunStore({
    ready: () => Promise.resolve(readyInfo(4)),
    stop: () => {},
    validate: () => Promise.resolve([]),
    run: (text): Promise<RunOutcome> => Promise.resolve({ ok: true, report: report(text.slice(0, 20)), report_id: 1 }),
    cancel: () => Promise.resolve(null),
    setPaused: () => Promise.resolve(null),
    trace: () => Promise.resolve(new ArrayBuffer(0)),
  });
  return {
    runStore,
    useRun: <T>(sel: (s: ReturnType<typeof runStore.getState>) => T) => useStore(runStore, sel),
    warmEngine: () => {},
  };
});

const { runStore } = await import('../store');
const { lessonStore, lessonOfRun, previousInScope } = await import('./store');
const { LESSONS, lessonById } = await import('./lessons');
const { linkStore, openLink } = await import('../components/links');
const { navStore } = await import('../components/nav');

const byId = (id: string) => {
  const l = lessonById(id);
  if (!l) throw new Error(`no lesson ${id}`);
  return l;
};

beforeEach(() => {
  lessonStore.getState().stop();
  page.url.hash = '';
});

describe('lesson scope', () => {
  it('a lesson owns the runs it started; the run before another lesson is not in its list', async () => {
    await lessonStore.getState().start(byId('barriers'));
    const first = runStore.getState().runSerial;
    expect(lessonOfRun(first)?.id).toBe('barriers');
    // The next lesson, started right after: the run before it (lesson 1's) is out of its scope.
    await lessonStore.getState().start(byId('stealing'));
    const second = runStore.getState().runSerial;
    expect(second).toBe(first + 1);
    expect(lessonStore.getState().runs).toEqual([second]);
    expect(previousInScope(lessonStore.getState(), second, first)).toBe(false);
    // A re-run of the same lesson (a what-if) keeps the one before it in scope, to compare.
    await lessonStore.getState().rerun(runStore.getState().text, 'More writes');
    const third = runStore.getState().runSerial;
    expect(lessonStore.getState().runs).toEqual([second, third]);
    expect(previousInScope(lessonStore.getState(), third, second)).toBe(true);
    expect(lessonOfRun(third)?.id).toBe('stealing');
  });

  it('outside a lesson the run before stays offered, as in the lab', () => {
    expect(lessonStore.getState().lessonId).toBeNull();
    expect(previousInScope(lessonStore.getState(), 5, 4)).toBe(true);
  });

  it('ending a lesson clears it and its moment from the URL', async () => {
    await lessonStore.getState().start(byId('barriers'));
    expect(page.url.hash).toContain('lesson=barriers');
    page.url.hash += '&runs=early&view=sync&lead=early&at=release%3A2';
    lessonStore.getState().stop();
    expect(page.url.hash).not.toMatch(/lesson=|runs=|at=|view=|lead=/);
    expect(lessonStore.getState()).toMatchObject({ lessonId: null, runs: [] });
  });
});

describe('reload during a lesson', () => {
  it('starts the lesson named in the hash again and hands its moment to the classroom', async () => {
    expect(LESSONS.some((l) => l.id === 'cycles')).toBe(true);
    page.url.hash = '#tab=classroom&lesson=cycles&runs=busy-wait&view=sync&lead=busy-wait&at=release%3A3';
    navStore.setState({ tab: 'classroom' });
    const before = runStore.getState().runSerial;
    await openLink();
    expect(lessonStore.getState().lessonId).toBe('cycles');
    expect(runStore.getState().runSerial).toBe(before + 1);
    expect(runStore.getState().file).toBe(byId('cycles').scenario);
    // The moment belongs to the run the reload started.
    expect(linkStore.getState()).toMatchObject({
      momentSerial: before + 1,
      moment: { runs: ['busy-wait'], view: 'sync', lead: 'busy-wait', at: 'release:3' },
    });
  });

  it('leaves a lesson that is on alone, and does nothing for a hash without a lesson', async () => {
    await lessonStore.getState().start(byId('barriers'));
    const serial = runStore.getState().runSerial;
    page.url.hash = '#tab=classroom&lesson=stealing';
    await openLink();
    expect(lessonStore.getState().lessonId).toBe('barriers');
    lessonStore.getState().stop();
    page.url.hash = '#tab=classroom';
    await openLink();
    expect(lessonStore.getState().lessonId).toBeNull();
    expect(runStore.getState().runSerial).toBe(serial);
  });
});
