import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { replayOnly, resetRunCount, runScenario } from './classroom';
import { openLab } from './lab';

/**
 * One state, one story: a teacher scrubs to random moments of real runs;
 * the lanes, the thread list and every synchronization card say the same
 * thing about every thread.
 *
 * With PSMR_SAVE_TRACES=1 the traces are also saved (Classroom's "trace ⤓"
 * button) as the engine fixtures of web/src/views/status.test.ts.
 */

test.use({ trace: 'off' });
test.beforeEach(() => resetRunCount());

type Said = { activity: string; req: string };

async function lanesSay(page: Page): Promise<Record<string, Said>> {
  await page.getByTestId('view-threads').click();
  const items = page.getByTestId('lane-status').first().locator('li');
  const out: Record<string, Said> = {};
  for (const li of await items.all()) {
    out[(await li.getAttribute('data-thread'))!] = {
      activity: (await li.getAttribute('data-activity'))!,
      req: (await li.getAttribute('data-req'))!,
    };
  }
  return out;
}

async function syncSays(page: Page): Promise<{ list: Record<string, Said>; cards: (Said & { thread: string })[] }> {
  await page.getByTestId('view-sync').click();
  // The view is its own chunk, fetched the first time it is shown: wait for it before reading it.
  await expect(page.getByTestId('thread-list').first()).toBeVisible();
  const list: Record<string, Said> = {};
  for (const li of await page.getByTestId('thread-list').first().locator('li').all()) {
    list[(await li.getAttribute('data-thread'))!] = {
      activity: (await li.getAttribute('data-activity'))!,
      req: (await li.getAttribute('data-req'))!,
    };
  }
  const cards: (Said & { thread: string })[] = [];
  for (const m of await page.locator('[data-testid=sync-group] [data-role]').all()) {
    cards.push({
      thread: (await m.getAttribute('data-thread'))!,
      activity: (await m.getAttribute('data-activity'))!,
      req: (await m.getAttribute('data-status-req'))!,
    });
  }
  return { list, cards };
}

/** A seeded sequence of positions (the same moments on every run of the test). */
function positions(n: number, count: number, seed: number): number[] {
  let s = seed;
  return Array.from({ length: count }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return Math.floor((s / 2147483648) * n);
  });
}

async function saveTrace(page: Page, scheduler: string, scenario: string, shards: number) {
  if (process.env.PSMR_SAVE_TRACES !== '1') return;
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-trace').click()]);
  const bytes = readFileSync((await download.path())!);
  const dir = fileURLToPath(new URL('../../web/src/trace/fixtures/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const name = `${scheduler}.${scenario.replace(/\.json$/, '')}.s${shards}.trace.b64`;
  writeFileSync(dir + name, gzipSync(bytes, { level: 9 }).toString('base64') + '\n');
}

/**
 * Replay only `scheduler`'s run of the case, save its trace, and return how
 * many events it has (more than 100: enough positions to sample).
 */
async function replayAndSave(page: Page, scheduler: string, c: { scenario: string; shards: number }): Promise<number> {
  await replayOnly(page, scheduler);
  await saveTrace(page, scheduler, c.scenario, c.shards);
  const n = Number(await page.getByTestId('position').getAttribute('data-events'));
  expect(n).toBeGreaterThan(100);
  return n;
}

/** Move the scrubber to event position `p` and wait until the replay is there. */
async function seek(page: Page, p: number) {
  await page.getByTestId('scrubber').fill(String(p));
  await expect(page.getByTestId('position')).toHaveAttribute('data-position', String(p));
}

const CASES: { scenario: string; shards: number; schedulers: string[] }[] = [
  { scenario: 'classroom-spin.json', shards: 2, schedulers: ['early', 'busy-wait'] },
  { scenario: 'ws-classroom.json', shards: 2, schedulers: ['ws-conservative', 'ws-aggressive'] },
];

for (const c of CASES) {
  test(`thread status agrees across views at random positions: ${c.scenario}`, async ({ page }) => {
    test.setTimeout(240_000);
    const { problems } = await openLab(page);
    await runScenario(page, c.scenario);
    for (const scheduler of c.schedulers) {
      const n = await replayAndSave(page, scheduler, c);
      let cardsSeen = 0;
      for (const p of positions(n, 12, 17)) {
        await seek(page, p);
        const lanes = await lanesSay(page);
        const { list, cards } = await syncSays(page);
        expect(Object.keys(lanes).length, `${scheduler} @${p}`).toBeGreaterThan(0);
        expect(list, `${scheduler} @${p}: thread list = lanes`).toEqual(lanes);
        for (const card of cards) {
          const lane = lanes[card.thread];
          if (lane) expect({ activity: card.activity, req: card.req }, `${scheduler} @${p} T${card.thread}`).toEqual(lane);
        }
        for (const [t, s] of Object.entries(lanes)) {
          // "idle" only with an empty queue.
          if (s.activity === 'idle') {
            const q = await page.getByTestId('thread-list').first().locator(`li[data-thread="${t}"]`).getAttribute('data-queue');
            expect(q, `${scheduler} @${p} T${t} idle`).toBe('0');
          }
        }
        cardsSeen += cards.length;
      }
      expect(cardsSeen, `${scheduler}: some positions show a barrier or cycle`).toBeGreaterThan(0);
    }
    expect(problems).toEqual([]);
  });
}

/** What the Dependency graph view says: its thread list, and the threads its drawing marks as waiting or idle. */
async function graphSays(page: Page) {
  await page.getByTestId('view-graph').click();
  await expect(page.getByTestId('graphs-view')).toBeVisible();
  const list: Record<string, Said> = {};
  for (const li of await page.getByTestId('graphs-view').getByTestId('thread-list').first().locator('li').all()) {
    list[(await li.getAttribute('data-thread'))!] = {
      activity: (await li.getAttribute('data-activity'))!,
      req: (await li.getAttribute('data-req'))!,
    };
  }
  const ids = async (testid: string, attr: string) => {
    const out: string[] = [];
    for (const el of await page.getByTestId(testid).all()) {
      for (const x of ((await el.getAttribute(attr)) ?? '').split(',').filter(Boolean)) out.push(x);
    }
    return out;
  };
  return {
    list,
    // Workers only: the scheduler (65535) queues on the lock too but has no lane.
    lock: (await ids('lock-queue', 'data-threads')).filter((t) => Number(t) < 0xff00),
    idle: await ids('late-idle', 'data-threads'),
    sccWaits: await ids('scc-wait', 'data-worker'),
  };
}

const GRAPH_CASES: { scenario: string; shards: number; schedulers: string[] }[] = [
  { scenario: 'classroom-late.json', shards: 2, schedulers: ['late'] },
  { scenario: 'classroom-epaxos.json', shards: 4, schedulers: ['pepaxos', 'epaxos'] },
];

for (const c of GRAPH_CASES) {
  test(`thread status agrees between the lanes and the dependency graph at random positions: ${c.scenario}`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const { problems } = await openLab(page);
    await runScenario(page, c.scenario);
    for (const scheduler of c.schedulers) {
      const n = await replayAndSave(page, scheduler, c);
      const seen = new Set<string>();
      for (const p of positions(n, 12, 23)) {
        await seek(page, p);
        const lanes = await lanesSay(page);
        const graph = await graphSays(page);
        expect(Object.keys(lanes).length, `${scheduler} @${p}`).toBeGreaterThan(0);
        expect(graph.list, `${scheduler} @${p}: graph view's thread list = lanes`).toEqual(lanes);
        for (const t of graph.lock) expect(lanes[t]?.activity, `${scheduler} @${p}: T${t} queued on the lock`).toBe('lock');
        for (const t of graph.idle) expect(lanes[t]?.activity, `${scheduler} @${p}: T${t} idle`).toBe('idle');
        for (const t of graph.sccWaits) {
          expect(lanes[t]?.activity, `${scheduler} @${p}: T${t} waits for another SCC`).toBe('dependency');
        }
        for (const [t, s] of Object.entries(lanes)) {
          if (s.activity === 'lock') expect(graph.lock, `${scheduler} @${p}: T${t} in the lock queue`).toContain(t);
          seen.add(s.activity);
        }
      }
      expect([...seen].some((a) => a !== 'idle'), `${scheduler}: some positions show a busy thread`).toBe(true);
    }
    expect(problems).toEqual([]);
  });
}
