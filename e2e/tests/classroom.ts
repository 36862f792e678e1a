import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, type TestInfo } from '@playwright/test';

/**
 * Helpers for the Classroom specs: run a shipped scenario as a teacher
 * would, pick the runs to replay, read the replay position, take the
 * screenshots the instructor guide shows.
 */

/** Runs started on the current page (the run store numbers them from 1). */
let runCount = 0;
export function resetRunCount(): void {
  runCount = 0;
}

/** Run a shipped scenario (optionally edited) and open the Classroom tab on its report. */
export async function runScenario(page: Page, file: string, edit?: (text: string) => string) {
  await page.getByTestId('tab-run').click();
  await page.getByTestId('scenario-picker').selectOption(file);
  if (edit) {
    const source = page.getByTestId('scenario-text');
    await source.fill(edit(await source.inputValue()));
  }
  const serial = runCount++;
  await page.getByTestId('run').click();
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'done');
  await page.getByTestId('tab-classroom').click();
  // The replay belongs to this run, not to an earlier one.
  await expect(page.getByTestId('run-choice')).toHaveAttribute('data-run-serial', String(serial + 1));
  await expect(page.getByTestId('timeline')).toBeVisible();
}

/** Replay only the run of `scheduler` (uncheck the others). */
export async function replayOnly(page: Page, scheduler: string) {
  const boxes = page.getByTestId('run-choice').locator('input[type=checkbox][data-testid^=pick-]');
  for (let i = 0; i < (await boxes.count()); i++) {
    const b = boxes.nth(i);
    const mine = (await b.getAttribute('data-testid')) === `pick-${scheduler}`;
    if ((await b.isChecked()) !== mine) await b.click();
  }
  await expect(page.getByTestId('pseudo-panel')).toContainText(scheduler);
}

export async function position(page: Page): Promise<number> {
  return Number(await page.getByTestId('position').getAttribute('data-position'));
}

/**
 * Screenshot attached to the report; with PSMR_DOC_IMG=1 also copied into
 * docs/img/ for the instructor guide (how its pictures are regenerated).
 */
export async function shot(page: Page, info: TestInfo, name: string, forDocs = true) {
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  await info.attach(name, { path, contentType: 'image/png' });
  if (forDocs && process.env.PSMR_DOC_IMG === '1') {
    const docs = fileURLToPath(new URL(`../../docs/img/${name}.png`, import.meta.url));
    mkdirSync(dirname(docs), { recursive: true });
    copyFileSync(path, docs);
  }
}

/**
 * Jump from release to release until one synchronizes at least two threads
 * (a class mapped to one thread also "synchronizes", alone), and return the
 * box of the barrier or cycle the current event released.
 */
export async function releaseOfSeveral(page: Page) {
  const group = page.locator('[data-testid=sync-group][data-just-released=true]');
  for (let i = 0; i < 50; i++) {
    await page.getByTestId('next-release').click();
    await expect(group).toHaveCount(1);
    const members = (await group.getAttribute('data-members'))!.split(',').filter(Boolean);
    if (members.length >= 2) return group;
  }
  throw new Error('no release of a class with two or more threads in the first 50');
}
