import { expect, test, type Locator, type Page } from '@playwright/test';
import { position, replayOnly, resetRunCount, runScenario, shot } from './classroom';
import { openLab } from './lab';

/**
 * The presentation layout on a projector's 1280x720 and a 1920x1080
 * screen: the view, the highlighted pseudo-code line and the timeline are
 * on screen at every step, with no page scrolling, and large type reaches
 * the header and the charts.
 */

test.use({ trace: 'off' });
test.beforeEach(() => resetRunCount());

/** The element's box lies inside the window and inside every scrolling ancestor's visible box. */
async function fullyVisible(el: Locator): Promise<boolean> {
  return el.evaluate((node) => {
    const r = node.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const inside = (o: DOMRect) =>
      r.top >= o.top - 1 && r.bottom <= o.bottom + 1 && r.left >= o.left - 1 && r.right <= o.right + 1;
    if (!inside(new DOMRect(0, 0, window.innerWidth, window.innerHeight))) return false;
    for (let p = node.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (/(auto|scroll|hidden)/.test(s.overflowY + s.overflowX) && !inside(p.getBoundingClientRect())) return false;
    }
    return true;
  });
}

async function pageScrolls(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight + 1);
}

for (const size of [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
]) {
  test(`presentation at ${size.width}x${size.height}: view, pseudo-code line and timeline visible at every step`, async ({
    page,
  }, info) => {
    test.setTimeout(240_000);
    await page.setViewportSize(size);
    const { problems } = await openLab(page);
    await runScenario(page, 'classroom-spin.json');
    await replayOnly(page, 'early');
    await page.getByTestId('present').click();
    await expect(page.getByTestId('sidebar')).toHaveCount(0);
    await expect(page.getByTestId('app')).toHaveClass(/present/);
    await expect(page.getByTestId('app')).toHaveClass(/large/);

    let captions = new Set<string>();
    for (let step = 0; step < 40; step++) {
      // Wait for the step to land (the position moves), not for a time:
      // under load the render and the panel's scroll come a few frames later.
      const before = await position(page);
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => position(page), { message: `step ${step}: the replay moves` }).toBeGreaterThan(before);
      const caption = page.getByTestId('step-caption');
      await expect.poll(() => fullyVisible(caption), { message: `step ${step}: caption visible` }).toBe(true);
      const text = (await caption.textContent()) ?? '';
      captions.add(text);
      if (step === 5) expect([...captions].some((c) => c.startsWith('The scheduler delivers r0,'))).toBe(true);
      const line = page.locator('[data-current=true]');
      if ((await line.count()) > 0) {
        // The panel scrolls its line into view in the frame after the step
        // is drawn: poll until it has (fails if it never does).
        await expect
          .poll(() => fullyVisible(line.first()), { message: `step ${step}: highlighted line visible` })
          .toBe(true);
      }
      expect(await fullyVisible(page.getByTestId('scrubber')), `step ${step}: scrubber visible`).toBe(true);
      expect(await fullyVisible(page.getByTestId('play')), `step ${step}: play visible`).toBe(true);
      expect(await pageScrolls(page), `step ${step}: the page itself does not scroll`).toBe(false);
    }
    expect(captions.size, 'every step has its own sentence').toBeGreaterThan(30);
    captions = new Set();
    // Lanes use the height they are given (not two thin strips on a big screen).
    const lanes = (await page.getByTestId('threads-view').first().boundingBox())!;
    const view = (await page.locator('.view-box').boundingBox())!;
    expect(lanes.height, 'lanes and their words fill at least half of the view').toBeGreaterThan(view.height * 0.5);
    await shot(page, info, `classroom-present-${size.width}`);

    // Large type reaches the header and the charts' axes.
    const tabFont = await page.getByTestId('tab-classroom').evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    expect(tabFont).toBeGreaterThanOrEqual(20);
    await page.getByTestId('view-charts').click();
    const tick = page.locator('[data-testid=charts-view] svg .tick text').first();
    await expect(tick).toBeVisible();
    // The lazy charts chunk may draw its axes before it has measured its box
    // and drawn again: wait for the drawn axes, not for a time.
    await expect
      .poll(() => tick.evaluate((e) => e.getBoundingClientRect().height), { message: 'axis labels in large type' })
      .toBeGreaterThanOrEqual(15);
    // The guide shows the 1280x720 charts (the projector's size).
    await shot(page, info, `classroom-charts-${size.width}`, size.width === 1280);
    expect(problems).toEqual([]);
  });
}
