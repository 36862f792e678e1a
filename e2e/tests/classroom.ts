import { copyFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import {
  expect,
  type Locator,
  type Page,
  type TestInfo,
} from "@playwright/test";

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

/**
 * Pick a shipped scenario, optionally edit its text, run it, wait for the
 * end (within `timeout` ms; the config's expect timeout without it).
 */
export async function runShipped(
  page: Page,
  file: string,
  edit?: (text: string) => string,
  timeout?: number,
) {
  await page.getByTestId("tab-run").click();
  await page.getByTestId("scenario-picker").selectOption(file);
  if (edit) {
    const source = page.getByTestId("scenario-text");
    await source.fill(edit(await source.inputValue()));
  }
  await page.getByTestId("run").click();
  await expect(page.getByTestId("phase")).toHaveAttribute(
    "data-phase",
    "done",
    timeout === undefined ? undefined : { timeout },
  );
}

/** Run a shipped scenario (optionally edited) and open the Classroom tab on its report. */
export async function runScenario(
  page: Page,
  file: string,
  edit?: (text: string) => string,
) {
  const serial = runCount++;
  await runShipped(page, file, edit);
  await page.getByTestId("tab-classroom").click();
  // The replay belongs to this run, not to an earlier one.
  await expect(page.getByTestId("run-choice")).toHaveAttribute(
    "data-run-serial",
    String(serial + 1),
  );
  await expect(page.getByTestId("timeline")).toBeVisible();
}

/**
 * In the presentation layout (switched on if it is not), start `lesson`
 * from the Lessons tab and wait until the lesson bar shows it.
 */
export async function presentLesson(page: Page, lesson: string) {
  if (
    !(await page.getByTestId("app").getAttribute("class"))?.includes("present")
  ) {
    await page.getByTestId("present").click();
  }
  await page.getByTestId("tab-lessons").click();
  await page.getByTestId(`start-lesson-${lesson}`).click();
  await expect(page.getByTestId("lesson-bar")).toHaveAttribute(
    "data-lesson",
    lesson,
    { timeout: 120_000 },
  );
}

/** Replay only the run of `scheduler` (uncheck the others). */
export async function replayOnly(page: Page, scheduler: string) {
  const boxes = page
    .getByTestId("run-choice")
    .locator("input[type=checkbox][data-testid^=pick-]");
  for (let i = 0; i < (await boxes.count()); i++) {
    const b = boxes.nth(i);
    const mine = (await b.getAttribute("data-testid")) === `pick-${scheduler}`;
    if ((await b.isChecked()) !== mine) await b.click();
  }
  await expect(page.getByTestId("pseudo-panel")).toContainText(scheduler);
}

export async function position(page: Page): Promise<number> {
  return Number(
    await page.getByTestId("position").getAttribute("data-position"),
  );
}

/**
 * Screenshot attached to the report; with PSMR_DOC_IMG=1 also copied into
 * docs/img/ for the instructor guide (how its pictures are regenerated).
 */
export async function shot(
  page: Page,
  info: TestInfo,
  name: string,
  forDocs = true,
) {
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true, animations: "disabled" });
  await info.attach(name, { path, contentType: "image/png" });
  if (forDocs && process.env.PSMR_DOC_IMG === "1") {
    const docs = fileURLToPath(
      new URL(`../../docs/img/${name}.png`, import.meta.url),
    );
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
  const group = page.locator(
    "[data-testid=sync-group][data-just-released=true]",
  );
  for (let i = 0; i < 50; i++) {
    await page.getByTestId("next-release").click();
    await expect(group).toHaveCount(1);
    const members = (await group.getAttribute("data-members"))!
      .split(",")
      .filter(Boolean);
    if (members.length >= 2) return group;
  }
  throw new Error(
    "no release of a class with two or more threads in the first 50",
  );
}

/** The element's box lies inside the window and inside every scrolling ancestor's visible box. */
export async function fullyVisible(el: Locator): Promise<boolean> {
  return el.evaluate((node) => {
    const r = node.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const inside = (o: DOMRect) =>
      r.top >= o.top - 1 &&
      r.bottom <= o.bottom + 1 &&
      r.left >= o.left - 1 &&
      r.right <= o.right + 1;
    if (!inside(new DOMRect(0, 0, window.innerWidth, window.innerHeight)))
      return false;
    for (let p = node.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (
        /(auto|scroll|hidden)/.test(s.overflowY + s.overflowX) &&
        !inside(p.getBoundingClientRect())
      )
        return false;
    }
    return true;
  });
}

export async function pageScrolls(page: Page): Promise<boolean> {
  return page.evaluate(
    () => document.documentElement.scrollHeight > window.innerHeight + 1,
  );
}

/** How many of the elements `loc` matches are not fully visible (0: all are; none matched counts as 1). */
export async function notFullyVisible(loc: Locator): Promise<number> {
  const all = await loc.all();
  if (all.length === 0) return 1;
  let hidden = 0;
  for (const el of all) if (!(await fullyVisible(el))) hidden++;
  return hidden;
}

/**
 * Every chart of the Charts view, scrolled into view one after the other:
 * its x-axis tick labels, its x-axis title and its legend lie inside the
 * chart's SVG, the view and the window (each chart fits the view whole).
 */
export async function expectChartAxesVisible(page: Page, where: string) {
  const figures = page.locator(
    "[data-testid=charts-view] figure:has(svg .x-axis)",
  );
  await expect(figures.first()).toBeVisible();
  const n = await figures.count();
  for (let k = 0; k < n; k++) {
    const fig = figures.nth(k);
    await fig.evaluate((e) => e.scrollIntoView({ block: "start" }));
    for (const part of [".x-axis .tick text", ".x-label", ".legend"]) {
      const loc = fig.locator(`svg ${part}`);
      // A bar chart has no x-axis title; one series has no legend. Every chart has tick labels.
      if (part !== ".x-axis .tick text" && (await loc.count()) === 0) continue;
      await expect
        .poll(() => notFullyVisible(loc), {
          message: `${where}: chart ${k + 1}: ${part} inside the chart and the view`,
        })
        .toBe(0);
    }
  }
  await figures.first().evaluate((e) => e.scrollIntoView({ block: "start" }));
}
