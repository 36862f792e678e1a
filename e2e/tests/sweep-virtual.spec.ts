/**
 * The Sweep tab's virtual-cores axis (issue 27): ticked virtual core counts
 * are swept once after the measured sweep and drawn in a panel of their
 * own, every legend entry and CSV row saying the numbers are a model's.
 * Screenshots of the tab at 1920x1080 and, in present mode, 1280x720.
 */
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { csvRows } from "../../scripts/csv-rows.mjs";
import { openSweep, pickOnly } from "../support/sweep";

const EXECUTORS = ["early", "busy-wait"];
const VIRTUAL = [1, 4, 8];

test("a virtual-cores axis beside the real threads, drawn and exported apart", async ({
  page,
}) => {
  test.setTimeout(400_000);
  await page.setViewportSize({ width: 1920, height: 1080 });
  const problems = await openSweep(page);
  await pickOnly(page, "sweep-executor-", EXECUTORS);
  await pickOnly(page, "sweep-thread-", ["1", "2"]);
  await pickOnly(
    page,
    "sweep-vcores-",
    VIRTUAL.map((n) => String(n)),
  );
  // Beyond what the engine's pool hosts: offered, greyed out, with the reason.
  await expect(page.getByTestId("sweep-vcores-32")).toBeDisabled();
  await page.getByTestId("sweep-requests").fill("1000");
  await page.getByTestId("sweep-run").click();
  await expect(page.getByTestId("sweep-phase")).toHaveAttribute(
    "data-phase",
    "done",
    { timeout: 360_000 },
  );

  // The measured chart holds the measured points only, the virtual panel the model's.
  const real = page.locator(
    'svg[data-kind="real"] [data-testid="sweep-point"]',
  );
  const model = page
    .getByTestId("sweep-virtual")
    .locator('[data-testid="sweep-point"]');
  await expect(real).toHaveCount(EXECUTORS.length * 2);
  await expect(model).toHaveCount(EXECUTORS.length * VIRTUAL.length);
  for (const v of await model.evaluateAll((els) =>
    els.map((e) => e.getAttribute("data-virtual")),
  ))
    expect(v).toBe("true");
  await expect(page.getByTestId("sweep-virtual").locator("svg")).toContainText(
    "virtual (model)",
  );
  await expect(page.getByTestId("sweep-virtual-table")).toContainText(
    "virtual cores (model)",
  );
  // No spread drawn for the model: one run per point.
  await expect(
    page.getByTestId("sweep-virtual").getByTestId("sweep-spread"),
  ).toHaveCount(0);
  await page.screenshot({
    path: "test-results/sweep-virtual-1920.png",
    fullPage: true,
  });

  // One CSV, both sweeps, every row saying which numbers it holds.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("sweep-export-csv").click(),
  ]);
  const rows = csvRows(readFileSync(await download.path(), "utf8"));
  const measured = rows.filter((r) => r.numbers === "measured (real threads)");
  const virtual = rows.filter((r) => r.numbers !== "measured (real threads)");
  expect(measured).toHaveLength(1 + EXECUTORS.length * 2);
  expect(virtual).toHaveLength(1 + EXECUTORS.length * VIRTUAL.length);
  // The engine's own label, on every row (it writes "cores" for one core too).
  for (const r of virtual.filter((x) => x.executor !== "sequential"))
    expect(r.numbers).toMatch(
      new RegExp(
        `^virtual ${r.threads} cores? \\(model, reference cost table\\)$`,
      ),
    );

  // Present mode on a projector's 1280x720.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByTestId("present").click();
  await page.getByTestId("sweep-virtual").scrollIntoViewIfNeeded();
  await page.screenshot({
    path: "test-results/sweep-virtual-present-1280.png",
  });
  expect(problems).toEqual([]);
});
