import { expect, test } from '@playwright/test';
import { encodeScenario } from '../../web/src/share/codec';
import { openLab } from './lab';

/**
 * Links that keep what they share: a shared scenario survives tab switches
 * and a reload, opens in any tab, and a classroom moment ("look at this
 * steal") opens the classroom at that moment of a fresh run.
 */

test.use({ trace: 'off' });

function hash(page: import('@playwright/test').Page) {
  return page.evaluate(() => location.hash);
}

test('a shared scenario link survives tab switches and a reload, in any tab', async ({ page }) => {
  const text = JSON.stringify(
    {
      name: 'linked by e2e',
      description: 'a small scenario shared by link',
      app: { kind: 'spin', shards: 2, ns: 1000 },
      workload: { seed: 9, requests: 300, writes: 0.1 },
      threads: 2,
      schedulers: [{ id: 'sequential' }, { id: 'early' }],
      run: { trace: true },
    },
    null,
    2,
  );
  const enc = await encodeScenario(text);
  if (!enc.ok) throw new Error(enc.error);
  await page.goto(`/#tab=run&scenario=${enc.payload}`);
  await expect(page.getByTestId('scenario-text')).toHaveValue(/linked by e2e/);
  // The picker says where the text came from.
  await expect(page.getByTestId('scenario-picker')).toContainText('linked by e2e');
  // A link without a moment runs nothing, so it does not start the engine either.
  await expect(page.getByTestId('engine-info')).toHaveAttribute('data-state', 'idle');
  for (const tab of ['classroom', 'sweep', 'lessons', 'run']) {
    await page.getByTestId(`tab-${tab}`).click();
    expect(await hash(page)).toContain(`tab=${tab}`);
    expect(await hash(page)).toContain(`scenario=${enc.payload}`);
  }
  await page.reload();
  await expect(page.getByTestId('tab-run')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('scenario-text')).toHaveValue(/linked by e2e/);
  await page.getByTestId('run').click();
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'done');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-correct', 'true');
});

test('a damaged link says so instead of opening another scenario', async ({ page }) => {
  await page.goto('/#tab=classroom&scenario=AAAA-not-a-scenario');
  await expect(page.getByTestId('link-error')).toContainText('Could not open the shared link');
  await expect(page.getByTestId('scenario-text')).toHaveValue(/Quickstart/);
});

test('"share this moment" opens the classroom at the same steal, after a reload too', async ({ page, context }) => {
  test.setTimeout(180_000);
  const { problems } = await openLab(page);
  await page.getByTestId('start-lesson-stealing').click();
  await expect(page.getByTestId('lesson-bar')).toBeVisible({ timeout: 120_000 });
  // The second steal of the run, in the synchronization view.
  await page.getByTestId('view-sync').click();
  await page.getByTestId('next-steal').click();
  await page.getByTestId('next-steal').click();
  await expect(page.getByTestId('steal-arrow').first()).toBeVisible();
  await page.getByTestId('share-moment').click();
  const url = await page.getByTestId('moment-url').inputValue();
  expect(url).toContain('at=steal%3A2');
  expect(url).toContain('view=sync');

  // Someone else opens it: the scenario runs again and the classroom shows its second steal.
  const other = await context.newPage();
  await other.goto(url);
  await expect(other.getByTestId('engine-info')).toHaveAttribute('data-state', 'ready');
  const arrow = other.getByTestId('steal-arrow').first();
  await expect(arrow).toBeVisible({ timeout: 120_000 });
  await expect(other.getByTestId('view-sync')).toHaveAttribute('aria-selected', 'true');
  await expect(other.getByTestId('current-event')).toContainText('steals');
  const stealAt = Number(await other.getByTestId('position').getAttribute('data-position'));
  // It is the run's second steal.
  expect(stealAt).toBeGreaterThan(0);
  await expect(other.getByTestId('step-caption')).toContainText('steal');

  // Tab switches keep the link; a reload opens the moment again.
  await other.getByTestId('tab-run').click();
  await other.getByTestId('tab-classroom').click();
  expect(await other.evaluate(() => location.hash)).toContain('at=steal');
  await other.reload();
  await expect(other.getByTestId('steal-arrow').first()).toBeVisible({ timeout: 120_000 });
  await expect(other.getByTestId('current-event')).toContainText('steals');
  expect(problems).toEqual([]);
});
