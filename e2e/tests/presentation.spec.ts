import { expect, test, type Page } from "@playwright/test";
import {
  expectChartAxesVisible,
  fullyVisible,
  pageScrolls,
  position,
  presentLesson,
  replayOnly,
  resetRunCount,
  runScenario,
  shot,
} from "./classroom";
import { openLab } from "./lab";

/**
 * The presentation layout on a projector's 1280x720 and a 1920x1080
 * screen: the view, the highlighted pseudo-code line and the timeline are
 * on screen at every step, with no page scrolling, and large type reaches
 * the header and the charts.
 */

/**
 * One step forward (ArrowRight). Waits for the step to land (the position
 * moves), not for a time: under load the render and the panel's scroll come
 * a few frames later.
 */
async function stepForward(page: Page, step: number) {
  const before = await position(page);
  await page.keyboard.press("ArrowRight");
  await expect
    .poll(() => position(page), {
      message: `step ${step}: the replay moves`,
    })
    .toBeGreaterThan(before);
}

/** The highlighted pseudo-code line (if any), the scrubber and play are on screen, and the page does not scroll. */
async function expectStepOnScreen(page: Page, step: number) {
  const line = page.locator("[data-current=true]");
  if ((await line.count()) > 0) {
    // The panel scrolls its line into view in the frame after the step
    // is drawn: poll until it has (fails if it never does).
    await expect
      .poll(() => fullyVisible(line.first()), {
        message: `step ${step}: highlighted line visible`,
      })
      .toBe(true);
  }
  await expectControlsOnScreen(page, step, ["scrubber", "play"]);
}

/** The timeline's controls `testIds` are fully visible and the page does not scroll. */
async function expectControlsOnScreen(
  page: Page,
  step: number,
  testIds: string[],
) {
  for (const id of testIds)
    expect(
      await fullyVisible(page.getByTestId(id)),
      `step ${step}: ${id} visible`,
    ).toBe(true);
  expect(
    await pageScrolls(page),
    `step ${step}: the page itself does not scroll`,
  ).toBe(false);
}

/** Open the lab at `size` and start `lesson` in the presentation layout; the lab's problems. */
async function lessonAt(
  page: Page,
  size: { width: number; height: number },
  lesson: string,
) {
  await page.setViewportSize(size);
  const { problems } = await openLab(page);
  await presentLesson(page, lesson);
  return problems;
}

test.use({ trace: "off" });
test.beforeEach(() => resetRunCount());

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
    await runScenario(page, "classroom-spin.json");
    await replayOnly(page, "early");
    await page.getByTestId("present").click();
    await expect(page.getByTestId("sidebar")).toHaveCount(0);
    await expect(page.getByTestId("app")).toHaveClass(/present/);
    await expect(page.getByTestId("app")).toHaveClass(/large/);

    let captions = new Set<string>();
    for (let step = 0; step < 40; step++) {
      await stepForward(page, step);
      const caption = page.getByTestId("step-caption");
      await expect
        .poll(() => fullyVisible(caption), {
          message: `step ${step}: caption visible`,
        })
        .toBe(true);
      const text = (await caption.textContent()) ?? "";
      captions.add(text);
      if (step === 5)
        expect(
          [...captions].some((c) => c.startsWith("The scheduler delivers r0,")),
        ).toBe(true);
      await expectStepOnScreen(page, step);
    }
    expect(captions.size, "every step has its own sentence").toBeGreaterThan(
      30,
    );
    captions = new Set();
    // Lanes use the height they are given (not two thin strips on a big screen).
    const lanes = (await page
      .getByTestId("threads-view")
      .first()
      .boundingBox())!;
    const view = (await page.locator(".view-box").boundingBox())!;
    expect(
      lanes.height,
      "lanes and their words fill at least half of the view",
    ).toBeGreaterThan(view.height * 0.5);
    // The class legend under the lanes is inside the view, not cut at its bottom.
    await expect
      .poll(() => fullyVisible(page.getByTestId("class-legend").first()), {
        message: "class legend",
      })
      .toBe(true);
    await shot(page, info, `classroom-present-${size.width}`);

    // Large type reaches the header and the charts' axes.
    const tabFont = await page
      .getByTestId("tab-classroom")
      .evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    expect(tabFont).toBeGreaterThanOrEqual(20);
    await page.getByTestId("view-charts").click();
    const tick = page
      .locator("[data-testid=charts-view] svg .tick text")
      .first();
    await expect(tick).toBeVisible();
    // The lazy charts chunk may draw its axes before it has measured its box
    // and drawn again: wait for the drawn axes, not for a time.
    await expect
      .poll(() => tick.evaluate((e) => e.getBoundingClientRect().height), {
        message: "axis labels in large type",
      })
      .toBeGreaterThanOrEqual(15);
    // Each chart fits the view whole: x-axis labels, axis title and legend inside it.
    await expectChartAxesVisible(page, `${size.width}x${size.height}`);
    // The guide shows the 1280x720 charts (the projector's size).
    await shot(
      page,
      info,
      `classroom-charts-${size.width}`,
      size.width === 1280,
    );
    expect(problems).toEqual([]);
  });
}

test("a lesson at 1280x720: one-line lesson bar; caption, highlighted line, legend, timeline and chart axes visible", async ({
  page,
}, info) => {
  test.setTimeout(240_000);
  const problems = await lessonAt(
    page,
    { width: 1280, height: 720 },
    "stealing",
  );
  const bar = page.getByTestId("lesson-bar");
  await expect(bar, "the short screen gets the one-line bar").toHaveAttribute(
    "data-compact",
    "true",
  );
  const barBox = (await bar.boundingBox())!;
  expect(barBox.height, "the lesson bar is one line").toBeLessThan(60);
  // The compare / what-if / questions row is folded behind one button.
  await expect(page.getByTestId("what-ifs")).toHaveCount(0);
  await page.getByTestId("lesson-more").click();
  await expect(page.getByTestId("what-if-writes")).toBeVisible();
  await expect(page.getByTestId("lesson-compare")).toBeVisible();
  await page.getByTestId("lesson-more").click();
  await expect(page.getByTestId("what-ifs")).toHaveCount(0);

  // The steal, then the algorithm's steps after it.
  const first = page.getByTestId("bookmark-0");
  await expect(first, "this run stole").toBeEnabled();
  await first.click();
  await expect(page.getByTestId("bookmark-chosen")).toHaveText(/steals/);
  const steps = 25;
  for (let step = 0; step <= steps; step++) {
    if (step > 0) await stepForward(page, step);
    await expect
      .poll(() => fullyVisible(page.getByTestId("step-caption")), {
        message: `step ${step}: whole caption visible`,
      })
      .toBe(true);
    await expectStepOnScreen(page, step);
  }
  // The lanes with their class legend, under the lesson bar.
  await page.getByTestId("bookmark-1").click();
  await expect(page.getByTestId("threads-view").first()).toBeVisible();
  await expect
    .poll(() => fullyVisible(page.getByTestId("class-legend").first()), {
      message: "class legend under the lanes",
    })
    .toBe(true);
  await expect
    .poll(() => fullyVisible(page.getByTestId("step-caption")), {
      message: "caption",
    })
    .toBe(true);
  await shot(page, info, "lesson-present-1280-lanes", false);
  await page.getByTestId("view-charts").click();
  await expectChartAxesVisible(page, "lesson at 1280x720");
  await shot(page, info, "lesson-present-1280-charts", false);
  expect(problems).toEqual([]);
});

test("a lesson at 1920x1080 keeps the full lesson bar", async ({ page }) => {
  const problems = await lessonAt(
    page,
    { width: 1920, height: 1080 },
    "stealing",
  );
  const bar = page.getByTestId("lesson-bar");
  await expect(bar).toHaveAttribute("data-compact", "false");
  await expect(page.getByTestId("what-if-writes")).toBeVisible();
  await expect(page.getByTestId("bookmark-0")).toContainText("1. ");
  await expect
    .poll(() => fullyVisible(page.getByTestId("step-caption")), {
      message: "caption",
    })
    .toBe(true);
  expect(problems).toEqual([]);
});

test("a compare lesson at 1280x720: each bookmark found in its run; both captions and both highlighted lines fully visible", async ({
  page,
}, info) => {
  test.setTimeout(240_000);
  const problems = await lessonAt(page, { width: 1280, height: 720 }, "cycles");
  // Compare early with busy-wait: early's track comes first.
  await page.getByTestId("lesson-more").click();
  await page.getByTestId("lesson-compare").click();
  const panels = page.getByTestId("pseudo-panel");
  await expect(panels).toHaveCount(2);
  await expect(panels.first()).toContainText("early");
  // The spinning thread is busy-wait's: the bookmark is looked up in that
  // run, not in the first ticked one (early never spins).
  const spin = page.getByTestId("bookmark-0");
  await expect(
    spin,
    "busy-wait's first spin, found with early first",
  ).toBeEnabled();
  const busyKey = await panels.nth(1).getAttribute("data-track");
  await expect(spin).toHaveAttribute("data-track", busyKey!);
  await spin.click();
  await expect(panels.nth(1).getByTestId("step-caption")).toContainText(
    "spins",
  );

  const captions = page.getByTestId("step-caption");
  let bothLines = 0;
  for (let step = 0; step <= 20; step++) {
    if (step > 0) await stepForward(page, step);
    for (let k = 0; k < 2; k++) {
      await expect
        .poll(() => fullyVisible(captions.nth(k)), {
          message: `step ${step}: caption ${k + 1} whole`,
        })
        .toBe(true);
      const line = panels.nth(k).locator("[data-current=true]");
      if ((await line.count()) > 0) {
        await expect
          .poll(() => fullyVisible(line.first()), {
            message: `step ${step}: highlighted line ${k + 1} visible`,
          })
          .toBe(true);
      }
    }
    if (
      (await panels.nth(0).locator("[data-current=true]").count()) > 0 &&
      (await panels.nth(1).locator("[data-current=true]").count()) > 0
    )
      bothLines++;
    await expectControlsOnScreen(page, step, ["scrubber"]);
  }
  expect(
    bothLines,
    "steps where both runs show their highlighted line",
  ).toBeGreaterThan(10);
  await shot(page, info, "lesson-cycles-compare-1280", false);
  expect(problems).toEqual([]);
});

for (const size of [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
]) {
  test(`stacked runs with long names at ${size.width}x${size.height} presenting: each name is cut in its scheduler's row and whole in the lanes' title`, async ({
    page,
  }, info) => {
    await page.setViewportSize(size);
    const { problems } = await openLab(page);
    // A compare of two schedulers with long labels (a short run of the coloring lesson's scenario).
    const names = [
      "libasync-smp stealing the first color under half (the paper's base rule)",
      "mely with the time-left heuristic, penalties off, batch of ten events",
    ];
    await runScenario(page, "coloring-classroom.json", (text) =>
      text
        .replace('"requests": 20020', '"requests": 2002')
        .replace('"label": "libasync-steal"', `"label": "${names[0]}"`)
        .replace('"label": "mely-time-left"', `"label": "${names[1]}"`),
    );
    await page.getByTestId("present").click();
    await expect(page.getByTestId("app")).toHaveClass(/present/);
    await page.getByTestId("view-threads").click();
    // Both runs replayed: stacked, each names its run in its scheduler's row.
    const second = page.getByTestId("run-choice").getByTestId("pick-mely");
    if (!(await second.isChecked())) await second.click();
    for (let step = 0; step < 12; step++) await stepForward(page, step);
    const lanes = page.getByTestId("threads-view").locator("canvas");
    await expect(lanes).toHaveCount(2);
    // The canvas draws a name cut to what the status leaves; its title holds
    // it whole (the run's label: the scheduler, then the scenario's label).
    for (let i = 0; i < 2; i++) {
      const whole = names[i].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      await expect(lanes.nth(i)).toHaveAttribute("title", new RegExp(whole));
    }
    await shot(page, info, `threads-long-run-names-${size.width}`, false);
    expect(problems).toEqual([]);
  });
}
