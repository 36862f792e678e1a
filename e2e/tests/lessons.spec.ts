import { expect, test, type Page } from "@playwright/test";
import {
  bookmark,
  expectCaption,
  expectNoPaperNumbers,
  inLesson,
  lessonTool,
} from "../support/lesson";
import { shot } from "./classroom";
import { openLab } from "./lab";

/**
 * Lesson mode, as a teacher uses it: the first screen offers the lessons;
 * one click runs a lesson and opens the Classroom on it; every lesson's
 * bookmarks reach its mechanism (the barrier, the spinning thread, the
 * steal) in this run; no student-facing text names a paper by number.
 */

test.use({ trace: "off" });

/** The sync group the step just released, as the Synchronization view marks it. */
const justReleased = (page: Page) =>
  page.locator("[data-testid=sync-group][data-just-released=true]");

test("the first screen offers the lessons and the instructor guide", async ({
  page,
}, info) => {
  const { problems } = await openLab(page);
  await expect(page.getByTestId("tab-lessons")).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await expect(page.locator("[data-lesson]")).toHaveCount(9);
  await expect(page.getByTestId("start-lesson-barriers")).toBeEnabled();
  await expectNoPaperNumbers(page);
  // The first screen as a visitor sees it: the scenario sidebar folded to its strip.
  await page.getByTestId("sidebar-fold").click();
  await shot(page, info, "lessons-first-screen");
  await page.getByTestId("open-guide").click();
  await expect(page.getByTestId("guide")).toContainText("10-minute lesson");
  await expect(page.locator(".guide img").first()).toBeVisible();
  expect(problems).toEqual([]);
});

test("lesson 1: a write goes to both queues and both threads meet at the barrier", inLesson("barriers", async ({
  page,
}, info) => {
  await expect(page.getByTestId("pseudo-panel")).toContainText("early");

  await bookmark(page, 0);
  await expectCaption(page, "is sequential: it goes into every");
  await shot(page, info, "lesson-barriers-dispatch");

  await bookmark(page, 1);
  await expect(page.getByTestId("sync-view")).toBeVisible();
  const executing = page.locator(
    "[data-testid=sync-group][data-phase=executing]",
  );
  await expect(executing.first()).toBeVisible();
  const members = (await executing.first().getAttribute("data-members"))!.split(
    ",",
  );
  expect(members.length).toBeGreaterThanOrEqual(2);
  expect(
    (await executing.first().getAttribute("data-arrived"))!.split(",").sort(),
  ).toEqual([...members].sort());
  await expectCaption(page, "have arrived");
  await shot(page, info, "lesson-barriers-gathered");

  await bookmark(page, 2);
  await expect(justReleased(page)).toHaveAttribute("data-phase", "released");
  await expectNoPaperNumbers(page);
}));

test("lesson 2: a thread spins in a busy-wait cycle until the last to arrive runs the request", inLesson("cycles", async ({
  page,
}, info) => {
  await bookmark(page, 0);
  await expect(
    page
      .locator("[data-testid=sync-group][data-kind=cycle] [data-role=spins]")
      .first(),
  ).toBeVisible();
  await expectCaption(page, "spins");
  await shot(page, info, "lesson-cycles-spin");
  await bookmark(page, 1);
  await expect(justReleased(page)).toHaveAttribute("data-kind", "cycle");
  // Compare with early, aligned by requests completed: two tracks, each with its own caption.
  await lessonTool(page, "lesson-compare");
  await expect(page.getByTestId("pseudo-panel")).toHaveCount(2);
  await expect(page.getByTestId("step-caption")).toHaveCount(2);
  await shot(page, info, "lesson-cycles-compare");
}));

test("lesson 3: an idle thread steals a batch, drawn from victim to stealer", inLesson("stealing", async ({
  page,
}, info) => {
  await bookmark(page, 0);
  const arrow = page.getByTestId("steal-arrow").first();
  await expect(arrow).toBeVisible();
  expect(await arrow.getAttribute("data-victim")).not.toBe(
    await arrow.getAttribute("data-stealer"),
  );
  await expectCaption(page, "steals");
  await expect(page.locator("[data-current=true]")).toContainText("stolen");
  await shot(page, info, "lesson-stealing-steal");
  await bookmark(page, 1);
  await expect(page.getByTestId("threads-view")).toBeVisible();
  await shot(page, info, "lesson-stealing-lanes");
}));

test("lesson 4: the late scheduler's graph fills, blocks the scheduler, and hands out ready requests", inLesson("late", async ({
  page,
}, info) => {
  await expect(page.getByTestId("pseudo-panel")).toContainText("late");
  await bookmark(page, 0);
  const track = page.getByTestId("late-track");
  await expect(track).toBeVisible();
  await expect(track.getByTestId("graph-full")).toContainText(
    "scheduler blocked",
  );
  await expectCaption(page, "graph is full");
  await shot(page, info, "lesson-late-full");
  await bookmark(page, 1);
  await expectCaption(page, "leaves the graph");
  await expect(
    track.locator("[data-testid=late-node][data-state=ready]").first(),
  ).toBeVisible();
  // The workers in the graph view say what the lanes say.
  await expect(track.getByTestId("thread-list").locator("li")).toHaveCount(3);
  await expectNoPaperNumbers(page);
}));

test("lesson 5: one collision makes an SCC; PePaxos runs independent SCCs side by side", inLesson("epaxos", async ({
  page,
}, info) => {
  // Both runs, side by side, in the dependency graph.
  await expect(page.getByTestId("pseudo-panel")).toHaveCount(2);
  await expect(page.getByTestId("epaxos-track")).toHaveCount(2);
  await bookmark(page, 0);
  const boxes = page.locator("[data-testid=scc-box]");
  const sizes = await boxes.evaluateAll((bs) =>
    bs.map(
      (b) =>
        (b.getAttribute("data-members") ?? "").split(",").filter(Boolean)
          .length,
    ),
  );
  expect(
    Math.max(...sizes),
    "an SCC of several instances is drawn",
  ).toBeGreaterThanOrEqual(2);
  await shot(page, info, "lesson-epaxos-collision");
  const side = await bookmark(page, 1);
  expect(side).toBe("scc-parallel");
  const pe = page.locator("[data-testid=epaxos-track][data-scheduler=pepaxos]");
  const running = await pe
    .locator("[data-testid=scc-box][data-state=running]")
    .evaluateAll((bs) => bs.map((b) => b.getAttribute("data-worker")));
  expect(
    new Set(running).size,
    "SCCs running on two workers at once",
  ).toBeGreaterThanOrEqual(2);
  await shot(page, info, "lesson-epaxos-parallel");
  // Every native run had cross-SCC waits (docs/benchmarks/classroom-mechanisms.md): not optional.
  expect(await bookmark(page, 2)).toBe("scc-wait");
  const waiting = pe.locator(
    "[data-testid=thread-list] li[data-activity=dependency]",
  );
  await expect(waiting).toHaveCount(1);
  await expect(waiting).toContainText(
    /waiting for SCC #\d+'s dependency on instance \d+/,
  );
  await expectNoPaperNumbers(page);
}));

test("repartitioning lesson: Base pauses, Async switches maps, a scan makes workers meet", inLesson("repartitioning", async ({
  page,
}) => {
  await expect(page.getByTestId("pseudo-panel")).toHaveCount(2);
  for (let i = 0; i < 3; i++) await bookmark(page, i);
  // The last bookmark opens the lanes at a sync: a worker there says so.
  await expect(page.getByTestId("threads-view").first()).toBeVisible();
  await expect(page.getByTestId("step-caption").first()).toBeVisible();
  await expectNoPaperNumbers(page);
}));

test("event coloring lesson: a whole color stolen, Mely's stealing queue, a steal refused with its reason", inLesson("coloring", async ({
  page,
}, info) => {
  const view = page.getByTestId("coloring-view");
  await expect(view).toBeVisible();
  const tracks = view.getByTestId("coloring-track");
  await expect(tracks).toHaveCount(2);
  // 1. Libasync-smp's first steal: the whole color moves from victim to stealer.
  expect(await bookmark(page, 0)).toBe("color-steal");
  const lib = tracks.first();
  await expect(lib).toContainText("libasync-steal");
  const steal = lib.getByTestId("coloring-steal");
  await expect(steal).toHaveAttribute("data-fresh", "true");
  // The lesson's colors hold several queued events: the steal moves all of them.
  await expect(steal).toContainText(
    /T\d steals color \d+ from T\d, the whole color: ([2-9]|\d\d+) events/,
  );
  const stolen = Number(await steal.getAttribute("data-count"));
  expect(stolen, "events moved by the bookmarked steal").toBeGreaterThanOrEqual(2);
  expect(await steal.getAttribute("data-victim")).not.toBe(
    await steal.getAttribute("data-stealer"),
  );
  // Each core's queue: one chip per queued event, counts that add up.
  const cores = lib.getByTestId("coloring-core");
  await expect(cores).toHaveCount(2);
  await expectCaption(page, "steals color", 0);
  await shot(page, info, "lesson-coloring-steal");
  // 2. (When this run had one) a steal that cost more than the work it moved.
  if (await page.getByTestId("bookmark-1").isEnabled()) {
    expect(await bookmark(page, 1)).toBe("costly-steal");
    await expect(steal).toContainText("cost more than it gained");
  }
  // 3. Mely refuses a steal on time left: the reason with both times, and its stealing queue.
  expect(await bookmark(page, 2)).toBe("time-left-refused");
  const mely = tracks.nth(1);
  await expect(mely).toContainText("mely");
  await expect(mely.getByTestId("coloring-refusal")).toHaveAttribute(
    "data-heuristic",
    "2",
  );
  await expect(mely.getByTestId("coloring-refusal")).toContainText(
    /did not steal color \d+ from T\d: time left [\d.]+ [nµ]s < steal cost [\d.]+ [nµ]s/,
  );
  await expect(mely.getByTestId("stealing-queue")).toBeVisible();
  await expect(mely.getByTestId("stealing-queue-core")).toHaveCount(2);
  await shot(page, info, "lesson-coloring-refused");
  // 4. The stolen events in the stealer's queue, in the threads view.
  expect(await bookmark(page, 3)).toBe("color-steal");
  await expect(page.getByTestId("threads-view").first()).toBeVisible();
  await expectNoPaperNumbers(page);
}));

test("optional lesson: naive and optimized mappings side by side, differences marked", inLesson("mapping", async ({
  page,
}, info) => {
  await expect(page.getByTestId("mapping-table")).toHaveCount(2);
  await expect(page.locator("[data-differs=true]").first()).toBeVisible();
  await shot(page, info, "lesson-mapping");
}));

test("what if: more writes, re-run on the same seed, compare with the run before", inLesson("barriers", async ({
  page,
}) => {
  const before = Number(
    await page.getByTestId("position").getAttribute("data-events"),
  );
  await lessonTool(page, "what-if-writes");
  await expect(page.getByTestId("lesson-bar")).toContainText(
    "what if: More writes",
    { timeout: 120_000 },
  );
  // The changed run and the run before it, side by side.
  await expect(page.getByTestId("pseudo-panel")).toHaveCount(2);
  await expect(page.locator(".run-pick.before")).not.toHaveCount(0);
  await expect(page.getByTestId("scenario-text")).toHaveCount(0); // no JSON on screen in a lesson
  const after = Number(
    await page.getByTestId("position").getAttribute("data-events"),
  );
  expect(after).not.toBe(before);
}));
