import { expect, test } from "@playwright/test";
import { openLab } from "./lab";

test("a run can leave schedulers out and change the thread count without editing the file", async ({
  page,
}) => {
  await openLab(page);
  await expect(page.getByTestId("scenario-picker")).toHaveValue(
    "quickstart.json",
  );

  // Untick busy-wait, ask for 3 worker threads.
  await page.getByTestId("run-scheduler-busy-wait").uncheck();
  await page.getByTestId("run-threads").fill("3");
  await page.getByTestId("run").click();
  await expect(page.getByTestId("phase")).toHaveAttribute("data-phase", "done");

  const rows = page.getByTestId("result-row");
  const schedulers = await rows.evaluateAll((rs) =>
    rs.map((r) => r.getAttribute("data-scheduler")),
  );
  expect(schedulers).not.toContain("busy-wait");
  expect(schedulers).toContain("early");
  const rowThreads = await rows.evaluateAll((rs) =>
    rs.map((r) => [
      r.getAttribute("data-scheduler"),
      r.querySelector("[data-testid=threads]")?.textContent?.trim(),
    ]),
  );
  for (const [scheduler, threads] of rowThreads) {
    if (scheduler !== "sequential") expect(threads).toBe("3");
  }
  await expect(page.getByTestId("verdict")).toHaveAttribute(
    "data-correct",
    "true",
  );
});

test("a bad override is named at its own field, in its own unit, before anything runs", async ({
  page,
}) => {
  await openLab(page);
  await page.getByTestId("run-threads").fill("99");
  await expect(page.getByTestId("override-error-threads")).toContainText(
    "1 to 16",
  );
  await expect(page.getByTestId("run")).toBeDisabled();
  await page.getByTestId("run-threads").fill("");
  await page.getByTestId("run-pace").fill("-5");
  await expect(page.getByTestId("override-error-pace")).toContainText(
    "got -5 µs",
  );
  await expect(page.getByTestId("override-error-threads")).toHaveCount(0);
  await expect(page.getByTestId("run")).toBeDisabled();
  // The lab stays usable: clear the override and run.
  await page.getByTestId("run-pace").fill("");
  await page.getByTestId("run").click();
  await expect(page.getByTestId("phase")).toHaveAttribute("data-phase", "done");
});

test("Pause holds a live run still and Resume lets it finish correctly", async ({
  page,
}) => {
  await openLab(page);
  await page.getByTestId("scenario-picker").selectOption("classroom-spin.json");
  // Slow it to 3 ms a request so there is time to pause it by hand.
  await page.getByTestId("run-pace").fill("3000");
  await page.getByTestId("run").click();
  const phase = page.getByTestId("phase");
  await expect(phase).toContainText(/[1-9][\d,]*\/[\d,]+ executed/);

  await page.getByTestId("pause").click();
  await expect(page.getByTestId("pause")).toHaveText("Resume");
  await expect(phase).toContainText("paused");
  // What was delivered drains; after that the count stands still.
  const executed = async () =>
    Number(
      ((await phase.textContent()) ?? "")
        .match(/([\d,]+)\/[\d,]+ executed/)?.[1]
        ?.replace(/,/g, "") ?? NaN,
    );
  await page.waitForTimeout(500);
  const held = await executed();
  await page.waitForTimeout(800);
  expect(await executed()).toBe(held);

  await page.getByTestId("pause").click();
  await expect(phase).toHaveAttribute("data-phase", "done", {
    timeout: 120_000,
  });
  await expect(page.getByTestId("verdict")).toHaveAttribute(
    "data-correct",
    "true",
  );
});
