import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { openLab } from "./lab";

test("the classroom charts export their numbers as CSV and the chart as SVG", async ({
  page,
}) => {
  await openLab(page);
  await page.getByTestId("run").click();
  await expect(page.getByTestId("phase")).toHaveAttribute("data-phase", "done");
  await page.getByTestId("tab-classroom").click();
  await page.getByTestId("view-charts").click();

  // The per-thread times: one CSV row per worker thread of the first run.
  const [csv] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("export-threads-csv").click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/\.csv$/);
  const lines = (await readFile((await csv.path())!, "utf8"))
    .trim()
    .split("\n");
  expect(lines[0]).toBe("thread,exec_ms,wait_ms,idle_ms");
  expect(lines.length).toBeGreaterThan(1);
  for (const line of lines.slice(1)) {
    const [name, ...values] = line.split(",");
    expect(name).toMatch(/^T\d+$/);
    for (const v of values) expect(Number(v)).toBeGreaterThanOrEqual(0);
  }

  // The throughput chart as a standalone SVG file.
  const [svg] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("export-throughput-svg").click(),
  ]);
  const text = await readFile((await svg.path())!, "utf8");
  expect(text).toContain("<svg");
  expect(text).toContain("Throughput over time");
});
