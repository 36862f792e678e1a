/** Steps of the Sweep tab shared by its e2e test and the benchmark measurements. */
import { expect, type Page } from '@playwright/test';

export async function openSweep(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  await page.goto('/');
  await page.getByTestId('tab-sweep').click();
  await expect(page.getByTestId('sweep-panel')).toBeVisible();
  // Opening the Sweep tab starts the engine (its limits set the thread choices).
  await expect(page.getByTestId('engine-info')).toHaveAttribute('data-state', 'ready');
  return problems;
}

/** Tick exactly `wanted` among the checkboxes whose test ids start with `prefix`. */
export async function pickOnly(page: Page, prefix: string, wanted: string[]): Promise<void> {
  const boxes = page.locator(`[data-testid^="${prefix}"]`);
  for (const box of await boxes.all()) {
    const id = (await box.getAttribute('data-testid')) ?? '';
    await box.setChecked(wanted.includes(id.slice(prefix.length)));
  }
}
