/**
 * Authoring in the real app: located errors while typing (schema and
 * engine), share links (damaged, oversized, valid), and a Check whose
 * expectation fails is reported as failed with the engine's message.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { encodeScenario } from '../../web/src/share/codec';

const QUICKSTART = fileURLToPath(new URL('../../scenarios/quickstart.json', import.meta.url));

/** A small valid scenario (quickstart with fewer requests, so runs are quick). */
function smallScenario(patch: Record<string, unknown> = {}): string {
  const doc = JSON.parse(readFileSync(QUICKSTART, 'utf8')) as Record<string, unknown> & {
    workload: Record<string, unknown>;
    run?: Record<string, unknown>;
  };
  doc.name = 'e2e small';
  doc.workload = { ...doc.workload, requests: 2000 };
  doc.run = { ...(doc.run ?? {}), trace: false };
  return JSON.stringify({ ...doc, ...patch }, null, 2);
}

async function openAuthoring(page: Page, hash = '#tab=author'): Promise<void> {
  await page.goto('/' + hash);
  await expect(page.getByTestId('scenario-editor')).toBeVisible();
}

/** Replace the editor's whole text, as a paste would. */
async function setEditorText(page: Page, text: string): Promise<void> {
  const editor = page.getByTestId('scenario-editor');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

async function engineReady(page: Page): Promise<void> {
  await expect(page.getByTestId('check-button')).toBeEnabled({
    timeout: 60_000,
  });
}

/** The 1-based number of the first line of `text` that holds `marker`. */
function lineOf(text: string, marker: string): number {
  return text.split('\n').findIndex((l) => l.includes(marker)) + 1;
}

/**
 * Open the editor with the engine up, write `text`, and expect exactly one
 * problem mentioning `about`, found by `source` (the schema at once, the
 * engine within 15 s). Returns that problem.
 */
async function writeWithProblem(page: Page, text: string, about: string, source: 'schema' | 'engine') {
  await openAuthoring(page);
  await engineReady(page);
  await setEditorText(page, text);
  const problem = page.getByTestId('problem').filter({ hasText: about });
  await expect(problem).toHaveCount(1, source === 'engine' ? { timeout: 15_000 } : undefined);
  await expect(problem).toHaveAttribute('data-source', source);
  return problem;
}

test('a schema error is shown at its line with its field path', async ({ page }) => {
  const text = smallScenario().replace('"threads": 2', '"threads": "two"');
  const problem = await writeWithProblem(page, text, 'threads', 'schema');
  await expect(problem).toContainText(`${lineOf(text, '"threads": "two"')}:14`);
  await expect(problem).toContainText(/integer/);
  // ... and in the editor itself, as a CodeMirror diagnostic.
  await expect(page.locator('.cm-lintRange-error').first()).toBeVisible();
});

test('an engine-only error (threads over the browser limit) is located the same way', async ({ page }) => {
  const text = smallScenario({ threads: 40 }); // the schema allows 64, the browser engine 16
  const problem = await writeWithProblem(page, text, 'threads', 'engine');
  await expect(problem).toContainText(`${lineOf(text, '"threads": 40')}:`);
  await expect(page.getByTestId('problems')).toHaveAttribute('data-count', '1');
});

test('an unknown class name in the workload mix is located by the engine', async ({ page }) => {
  const text = smallScenario({
    workload: { seed: 1, requests: 2000, mix: { R1: 0.5, Q7: 0.5 } },
  });
  const problem = await writeWithProblem(page, text, 'Q7', 'engine');
  await expect(problem).toContainText(`${lineOf(text, '"Q7"')}:`);
  await expect(problem).toContainText('workload.mix.Q7');
});

test('a class mapping that breaks rule R.4 is located by the engine', async ({ page }) => {
  // R1 (concurrent, threads 0 and 1) conflicts with W1 (sequential, thread 0 only): R.4 wants R1's
  // threads inside W1's. Every other rule holds.
  const classes = {
    R1: { mode: 'concurrent', threads: [0, 1] },
    W1: { mode: 'sequential', threads: [0] },
    R2: { mode: 'concurrent', threads: [1] },
    W2: { mode: 'sequential', threads: [0, 1] },
    Rg: { mode: 'concurrent', threads: [0] },
    Wg: { mode: 'sequential', threads: [0, 1] },
  };
  const text = smallScenario({
    threads: 2,
    schedulers: [{ id: 'early', early: { mapping: { kind: 'explicit', classes } } }],
  });
  const problem = await writeWithProblem(page, text, 'R.4', 'engine');
  await expect(problem).toContainText('schedulers[0].early.mapping');
  await expect(page.getByTestId('problems')).toHaveAttribute('data-count', '1');
});

test('a syntax error is located and the text is not sent to the engine', async ({ page }) => {
  await openAuthoring(page);
  await setEditorText(page, '{\n  "name": "x",\n}');
  const problem = page.getByTestId('problem');
  await expect(problem).toHaveCount(1);
  await expect(problem).toHaveAttribute('data-source', 'syntax');
  await expect(problem).toContainText('3:1');
});

test('a damaged share link shows an error, not a blank page', async ({ page }) => {
  const good = await encodeScenario(smallScenario());
  if (!good.ok) throw new Error(good.error);
  const p = good.payload;
  const damaged = p.slice(0, 20) + (p[20] === 'A' ? 'B' : 'A') + p.slice(21);
  await openAuthoring(page, `#tab=author&scenario=${damaged}`);
  await expect(page.getByTestId('share-error')).toContainText('damaged');
  await expect(page.getByTestId('scenario-editor')).toBeVisible();

  await openAuthoring(page, `#tab=author&scenario=${p.slice(0, p.length - 8)}`);
  await expect(page.getByTestId('share-error')).toContainText('damaged');

  await openAuthoring(page, `#tab=author&scenario=${'A'.repeat(20_000)}`);
  await expect(page.getByTestId('share-error')).toContainText('too large');
});

test('a valid share link opens the scenario and it runs', async ({ page }) => {
  const text = smallScenario({ name: 'shared by e2e' });
  const enc = await encodeScenario(text);
  if (!enc.ok) throw new Error(enc.error);
  await openAuthoring(page, `#tab=author&scenario=${enc.payload}`);
  await expect(page.getByTestId('authoring-file')).toHaveText('shared.json');
  await expect(page.getByTestId('scenario-editor')).toContainText('shared by e2e');
  await expect(page.getByTestId('share-error')).toHaveCount(0);
  await engineReady(page);
  await page.getByTestId('run-this').click();
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'done', { timeout: 120_000 });
  await page.getByTestId('tab-run').click();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-correct', 'true');
});

test('the Share button makes a link that opens the same text', async ({ page }) => {
  await openAuthoring(page);
  const text = smallScenario({ name: 'round trip through the share button' });
  await setEditorText(page, text);
  await page.getByTestId('share-button').click();
  const url = await page.getByTestId('share-url').inputValue();
  expect(url).toContain('#tab=author&scenario=');
  const other = await page.context().newPage();
  await other.goto(url);
  await expect(other.getByTestId('authoring-file')).toHaveText('shared.json');
  await expect(other.getByTestId('scenario-editor')).toContainText('round trip through the share button');
});

test('Check reports a failing expectation as failed, with its message', async ({ page }) => {
  await openAuthoring(page);
  await engineReady(page);
  const text = smallScenario({
    schedulers: [{ id: 'sequential' }],
    expect: {
      correct: true,
      counters: [{ scheduler: 'sequential', counter: 'steals', op: '>', value: 1000000 }],
    },
  });
  await setEditorText(page, text);
  await page.getByTestId('check-button').click();
  const result = page.getByTestId('check-result');
  await expect(result).toHaveAttribute('data-verdict', 'fail', {
    timeout: 120_000,
  });
  const steals = page.getByTestId('expectation').filter({ hasText: 'steals' });
  await expect(steals).toHaveAttribute('data-status', 'fail');
  await expect(steals).toContainText(/steals = \d+ \(median of 1\)/); // the engine's measured value
  await expect(page.getByTestId('expectation').and(page.locator('[data-status="pass"]'))).not.toHaveCount(0);
});

test('the schema drives completion and hover documentation', async ({ page }) => {
  await openAuthoring(page);
  await setEditorText(page, '{\n  \n}');
  // Cursor on the empty line inside the object; a quote opens a property name.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('End');
  await page.keyboard.type('"');
  await page.keyboard.press('Control+Space');
  const completions = page.locator('.cm-tooltip-autocomplete');
  await expect(completions).toBeVisible();
  await expect(completions).toContainText('threads');
  await expect(completions).toContainText('schedulers');
  await page.keyboard.press('Escape');

  await setEditorText(page, smallScenario());
  await page.keyboard.press('ControlOrMeta+Home');
  // Rest the pointer on the key `threads`, as a user would: if the editor redraws the line under the
  // pointer before the hover delay ends (the schema check's marks arrive late on a loaded machine),
  // CodeMirror drops that hover, and the user moves the pointer off and back. The position is read
  // again each time, since a redraw can move the text.
  await expect(async () => {
    const at = await threadsKeyCentre(page);
    expect(at).not.toBeNull();
    await page.mouse.move(1, 1);
    await page.mouse.move(at!.x, at!.y);
    await expect(page.locator('.cm-tooltip-hover')).toContainText('Worker threads', { timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
});

/** The centre of the key `threads` in the editor (a text range: the editor's lines have no per-token elements). */
async function threadsKeyCentre(page: Page): Promise<{ x: number; y: number } | null> {
  return page.evaluate(() => {
    const content = document.querySelector('.cm-content');
    if (!content) return null;
    const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const i = n.textContent?.indexOf('"threads"') ?? -1;
      if (i < 0) continue;
      const r = document.createRange();
      r.setStart(n, i + 1);
      r.setEnd(n, i + 8);
      const b = r.getBoundingClientRect();
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    }
    return null;
  });
}
