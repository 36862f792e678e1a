import { expect, test, type Locator, type Page } from "@playwright/test";

/**
 * Open the lab, start the engine as a teacher would before class (the
 * header's engine badge: the page does not start it by itself, see
 * first-load.spec.ts), wait until its thread pool is up and unfold the
 * scenario sidebar (folded on the Lessons tab). Returns the
 * engine badge and the page errors / console errors seen so far (a test
 * may assert that none occurred).
 */
export async function openLab(page: Page) {
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()}`);
  });
  await page.goto("/");
  const engine = page.getByTestId("engine-info");
  await expect(engine).toHaveAttribute("data-state", "idle");
  await engine.click();
  await expect(
    engine,
    `engine did not start: ${problems.join("; ")}`,
  ).toHaveAttribute("data-state", "ready");
  // The lab's controls at hand: the Lessons tab folds the scenario sidebar to a strip.
  await page.getByTestId("sidebar-unfold").click();
  await expect(page.getByTestId("scenario-picker")).toBeVisible();
  return { engine, problems };
}

/**
 * Skip the calling test unless the engine was built with the
 * fault-injection feature (`npm test` builds it so; a plain `npm start`
 * build does not know the `fault` field).
 */
export async function skipWithoutFaultInjection(engine: Locator) {
  const features = (await engine.getAttribute("title")) ?? "";
  test.skip(
    !features.includes("fault-injection"),
    "engine built without fault-injection",
  );
}
