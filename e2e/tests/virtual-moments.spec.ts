import { expect, test } from "@playwright/test";
import { openLab } from "./lab";

/**
 * A lesson's run on virtual cores (issue 27): offered beside the real run,
 * drawn in outcome charts of its own, and a shared moment of it reopens on
 * exactly the same step (the re-run on the same virtual cores gives the same
 * trace), after a reload too.
 */

test.use({ trace: "off" });

const LABEL = "virtual 8 cores (model, reference cost table)";

test("a lesson's virtual run is charted apart from the real one, and its shared moment reopens on the same step", async ({
  page,
  context,
}) => {
  test.setTimeout(400_000);
  const { problems } = await openLab(page);
  await page.getByTestId("start-lesson-epaxos").click();
  const bar = page.getByTestId("lesson-bar");
  await expect(bar).toBeVisible({ timeout: 120_000 });
  const virtual = page.getByTestId("lesson-virtual");
  await expect(virtual).toHaveAttribute("data-cores", "8");
  await virtual.click();
  await expect(page.getByTestId("what-if-tag")).toContainText(LABEL, {
    timeout: 240_000,
  });
  // The run list names the virtual runs so, and offers the real run before.
  const list = page.getByTestId("run-choice");
  await expect(list).toContainText(`pepaxos · ${LABEL}`);
  await expect(page.getByTestId("pick-before-pepaxos")).toBeVisible();

  // The outcome charts: the real run before and the virtual run, each in charts of its own.
  await page.getByTestId("view-charts").click();
  const tput = page.getByTestId("outcome-throughput");
  await expect(tput).toHaveCount(2);
  await expect(tput.nth(0)).toHaveAttribute("data-kind", "real");
  await expect(tput.nth(0)).toHaveAttribute("data-before", "true");
  await expect(tput.nth(1)).toHaveAttribute("data-kind", "virtual");
  await expect(tput.nth(1).locator("svg")).toContainText(LABEL);
  await expect(page.getByTestId("virtual-note")).toContainText("model");
  const outcome = page.getByTestId("lesson-outcome").locator("li");
  await expect(outcome).toHaveCount(1);
  await expect(outcome.first()).toHaveAttribute("data-holds", "true");
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({
    path: "test-results/virtual-lesson-charts-1920.png",
  });
  await page.setViewportSize({ width: 1280, height: 720 });

  // A moment of the virtual run: a few steps in, in the graph view.
  await page.getByTestId("view-graph").click();
  for (let i = 0; i < 7; i++) await page.getByTestId("step-forward").click();
  const position = page.getByTestId("position");
  const at = await position.getAttribute("data-position");
  expect(Number(at)).toBeGreaterThan(0);
  const event = await page.getByTestId("current-event").first().textContent();
  await page.getByTestId("share-moment").click();
  const url = await page.getByTestId("moment-url").inputValue();
  expect(url).toContain("vc=8");
  expect(url).toContain(`pos=${at}`);
  expect(url).toMatch(/dg=[0-9a-f]{16}/);

  // Someone else opens it: the same virtual run, the same step, nothing "not found".
  const other = await context.newPage();
  await other.goto(url);
  await expect(other.getByTestId("what-if-tag")).toContainText(LABEL, {
    timeout: 240_000,
  });
  const otherPos = other.getByTestId("position");
  await expect(otherPos).toHaveAttribute("data-position", at!, {
    timeout: 60_000,
  });
  await expect(other.getByTestId("current-event").first()).toHaveText(event!);
  await expect(other.getByTestId("moment-missing")).toHaveCount(0);
  await expect(other.getByTestId("moment-differs")).toHaveCount(0);

  // After a reload: the same again.
  await other.reload();
  await expect(other.getByTestId("what-if-tag")).toContainText(LABEL, {
    timeout: 240_000,
  });
  await expect(other.getByTestId("position")).toHaveAttribute(
    "data-position",
    at!,
    { timeout: 60_000 },
  );
  await expect(other.getByTestId("current-event").first()).toHaveText(event!);
  await expect(other.getByTestId("moment-missing")).toHaveCount(0);
  await expect(other.getByTestId("moment-differs")).toHaveCount(0);
  // The lesson's charts in present mode, on a projector's 1280x720.
  await page.getByTestId("view-charts").click();
  await page.getByTestId("present").click();
  await page.screenshot({
    path: "test-results/virtual-lesson-charts-present-1280.png",
  });
  await tput.nth(1).scrollIntoViewIfNeeded();
  await page.screenshot({
    path: "test-results/virtual-lesson-charts-present-1280-virtual.png",
  });
  expect(problems).toEqual([]);
});
