/**
 * Every shipped scenario, checked in the real app in headless Chromium:
 * open it from the gallery, press Check (the engine runs it as often as its
 * expect block says and judges each expectation), and fail with the
 * expectation's own message when one fails.
 *
 * A scenario tagged "slow" is left out unless PSMR_E2E_ALL=1. Speed
 * expectations on a machine with too few cores come back "skipped" from the
 * engine and do not fail the test; they are listed in the test's output.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';

const SCENARIOS_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));
const ALL = process.env.PSMR_E2E_ALL === '1';
/** Longest a scenario's check may take, all repetitions included. */
const CHECK_TIMEOUT_MS = 240_000;

interface ScenarioFile {
  file: string;
  tags: string[];
}

function shippedScenarios(): ScenarioFile[] {
  return readdirSync(SCENARIOS_DIR)
    .filter((f) => f.endsWith('.json') && f !== 'scenario.schema.json')
    .sort()
    .map((file) => {
      const doc = JSON.parse(readFileSync(SCENARIOS_DIR + file, 'utf8')) as { tags?: unknown };
      const tags = Array.isArray(doc.tags) ? doc.tags.filter((t): t is string => typeof t === 'string') : [];
      return { file, tags };
    });
}

/** Open the authoring tab and wait until the engine can check. */
async function openAuthoring(page: Page): Promise<void> {
  await page.goto('/#tab=author');
  await expect(page.getByTestId('check-button')).toBeEnabled({ timeout: 60_000 });
}

const scenarios = shippedScenarios();

// Each scenario is its own test group, so `--shard=i/n` splits the files
// across CI runners one by one (docs/authoring.md, "Large suites"). One
// worker still runs them one after another.
test.describe.configure({ mode: 'parallel' });

test('the scenarios folder has scenarios to check', () => {
  expect(scenarios.length).toBeGreaterThan(0);
});

for (const s of scenarios) {
  const slow = s.tags.includes('slow');
  test(`check ${s.file}`, async ({ page }, info) => {
    test.skip(slow && !ALL, 'tagged "slow"; set PSMR_E2E_ALL=1 to include it');
    test.setTimeout(CHECK_TIMEOUT_MS + 90_000);
    await openAuthoring(page);
    const entry = page.getByTestId(`gallery-${s.file}`);
    await expect(entry, `${s.file} is not in the app's gallery: rebuild the web app`).toBeVisible({
      timeout: 10_000,
    });
    await entry.click();
    await expect(page.getByTestId('authoring-file')).toHaveText(s.file);
    await page.getByTestId('check-button').click();

    const result = page.getByTestId('check-result');
    await expect(result).toBeVisible({ timeout: CHECK_TIMEOUT_MS });
    const verdict = await result.getAttribute('data-verdict');
    // refused / error / cancelled: the scenario could not be judged at all.
    expect(verdict, `${s.file}: ${await result.innerText()}`).not.toMatch(/^(refused|error|cancelled)$/);

    const lines = page.getByTestId('expectation');
    const failures: string[] = [];
    const skipped: string[] = [];
    for (const line of await lines.all()) {
      const status = await line.getAttribute('data-status');
      const text = await line.innerText();
      if (status === 'fail') failures.push(text);
      if (status === 'skipped') skipped.push(text);
    }
    // Every scenario expects at least correctness per scheduler: an empty list means nothing was judged.
    expect(await lines.count(), `${s.file}: no expectation was judged`).toBeGreaterThan(0);
    if (skipped.length) info.annotations.push({ type: 'skipped expectations', description: skipped.join('\n') });
    expect(failures, `${s.file}: failed expectations`).toEqual([]);
    expect(verdict).toBe('pass');
  });
}
