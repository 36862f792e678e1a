import { expect, test } from "@playwright/test";
import { openReplay } from "../support/replay";
import { position, resetRunCount, shot } from "./classroom";

/**
 * The Classroom's dependency-graph view (web/src/views/late-epaxos/) on the
 * shipped classroom scenarios: ePaxos/PePaxos SCC boxes with their order
 * and worker, replay-synchronized; the CBASE graph with its bound and lock.
 */

test.beforeEach(() => {
  resetRunCount();
});

test("the ePaxos instance graph boxes SCCs in execution order and follows the replay", async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const problems = await openReplay(page, "classroom-epaxos.json");
  // Replay both runs side by side.
  const pe = page.getByTestId("pick-pepaxos");
  if (!(await pe.isChecked())) await pe.click();
  await page.getByTestId("view-graph").click();
  const view = page.getByTestId("graphs-view");
  await expect(view).toBeVisible();
  await expect(view.getByTestId("epaxos-track")).toHaveCount(2);

  // At the start nothing is committed: no SCC box yet.
  await page.keyboard.press("Home");
  await expect(view.getByTestId("scc-box")).toHaveCount(0);

  // Step forward until the first SCC is boxed; the position moves with it.
  const before = await position(page);
  for (let i = 0; i < 240; i++) {
    if ((await view.getByTestId("scc-box").count()) > 0) break;
    await page.keyboard.press("ArrowRight");
  }
  expect(await position(page)).toBeGreaterThan(before);
  const first = view.getByTestId("scc-box").first();
  await expect(first).toBeVisible();
  expect(Number(await first.getAttribute("data-order"))).toBeGreaterThanOrEqual(
    1,
  );
  // The pseudo-code panel shows Algorithm 2 and its caption names SCCs as the view numbers them.
  const panel = page.getByTestId("pseudo-panel").first();
  await expect(panel).toContainText("Algorithm 2");
  await expect(panel).toContainText(/SCC #\d+/);
  await shot(page, info, "classroom-epaxos-first-scc");

  // Stepping back removes it again (the view is derived at the position).
  const stepsBack = await position(page);
  await page.keyboard.press("ArrowLeft");
  expect(await position(page)).toBeLessThan(stepsBack);

  // At the end every SCC of the leader (epaxos) ran, on its one thread;
  // pepaxos's ran on several workers.
  await page.keyboard.press("End");
  const workersOf = async (scheduler: string) =>
    view
      .locator(`[data-testid=epaxos-track][data-scheduler=${scheduler}]`)
      .getByTestId("scc-box")
      .evaluateAll((bs) =>
        bs.map((b) => [
          b.getAttribute("data-state"),
          b.getAttribute("data-worker"),
        ]),
      );
  const par = await workersOf("pepaxos");
  const one = await workersOf("epaxos");
  expect(par.length).toBeGreaterThan(3);
  // pepaxos follows epaxos's progress (requests completed), so its last
  // SCCs may still be running on their workers (one per worker at most).
  expect(par.filter(([s]) => s !== "done").length).toBeLessThanOrEqual(3);
  expect(one.every(([s]) => s === "done")).toBe(true);
  expect(new Set(one.map(([, w]) => w)).size).toBe(1);
  expect(new Set(par.map(([, w]) => w)).size).toBeGreaterThan(1);
  // Some SCC boxes hold a collision: two or more instances ordered by seq.
  const members = await view
    .getByTestId("scc-box")
    .evaluateAll((bs) =>
      bs.map((b) => (b.getAttribute("data-members") ?? "").split(",").length),
    );
  expect(Math.max(...members)).toBeGreaterThan(1);
  await shot(page, info, "classroom-epaxos-end");
  expect(problems).toEqual([]);
});

test("the CBASE graph shows its bound, the ready requests and the lock queue", async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const problems = await openReplay(page, "classroom-late.json");
  await page.getByTestId("view-graph").click();
  const view = page.getByTestId("graphs-view");
  await expect(view.getByTestId("late-track")).toHaveCount(1);
  await page.keyboard.press("Home");
  let sawNode = false;
  let sawFull = false;
  for (let i = 0; i < 120 && !(sawNode && sawFull); i++) {
    await page.keyboard.press("ArrowRight");
    sawNode ||= (await view.getByTestId("late-node").count()) > 0;
    sawFull ||= (await view.getByTestId("graph-full").count()) > 0;
  }
  expect(sawNode).toBe(true);
  expect(sawFull).toBe(true);
  // The bound of classroom-late.json, as slots.
  await expect(view.getByTestId("late-slots").locator(".slot")).toHaveCount(8);
  await expect(view.getByTestId("lock-queue")).toContainText("graph lock");
  await expect(page.getByTestId("pseudo-panel").first()).toContainText(
    "Scheduler (CBASE)",
  );
  await shot(page, info, "classroom-late-graph");
  expect(problems).toEqual([]);
});
