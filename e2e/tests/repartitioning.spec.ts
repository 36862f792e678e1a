import { expect, test } from "@playwright/test";
import { resetRunCount, runScenario, shot } from "./classroom";
import { openLab } from "./lab";
import * as run from "../support/run";

test.beforeEach(() => {
  resetRunCount();
});

/** A small YCSB scenario on the key-value store for the repartitioning schedulers. */
function ycsbScenario(
  workload: string,
  keys: number,
  requests: number,
  schedulers: object[],
  run: object,
) {
  return {
    name: "Repartitioning in the browser",
    description: "The repartitioning schedulers on a YCSB stream.",
    app: { kind: "kv-store", shards: 4, keys },
    workload: { seed: 2, requests, ycsb: { workload } },
    threads: 4,
    schedulers,
    run,
  };
}

test("the four repartitioning strategies run in the browser and are judged correct", async ({
  page,
}) => {
  await openLab(page);
  const scenario = ycsbScenario(
    "e-paper-001",
    1000,
    4000,
    [
      { id: "repart-rr" },
      { id: "repart-sw" },
      { id: "repart-base", repart: { delta_p: 1000 } },
      { id: "repart-async", repart: { window: 500, queue_bound: 64 } },
    ],
    { trace: true },
  );
  await run.scenarioJson(page, scenario, 120_000);
  await run.expectAllCorrect(page, 4);
});

test("map switches without their sync are caught by the oracle in the browser", run.withFaults(async ({
  page,
}) => {
  // Async keeps scheduling while maps switch; bounded queues and a paced
  // execution keep the old owners' queues full of requests on moved keys,
  // which the new owners run too early without the switch's sync. Several
  // entries, because a schedule can be lucky.
  const broken = run.brokenEntries("repart-async", "repart-no-switch-sync", 4, {
    repart: { window: 300, queue_bound: 32 },
  });
  const scenario = ycsbScenario("a", 300, 3000, broken, {
    trace: false,
    pace_ns: 20000,
  });
  await run.scenarioJson(page, scenario, 120_000);
  const verdict = await run.expectVerdict(page, false);
  await expect(verdict).toContainText(/conflicting requests reversed/);
}));

test("the Partitions view draws the workload graph, the map switches, Base's pauses and the syncs", async ({
  page,
}, info) => {
  const { problems } = await openLab(page);
  // The classroom scenario, shorter so its traces stay small.
  await runScenario(page, "repart-classroom.json", (text) =>
    text.replace('"requests": 20000', '"requests": 8000'),
  );
  // Base beside Async, at the end of the replay.
  for (const [id, on] of [
    ["pick-repart-rr", false],
    ["pick-repart-base", true],
    ["pick-repart-async", true],
  ] as const) {
    const box = page.getByTestId(id);
    if ((await box.isChecked()) !== on) await box.click();
  }
  await page.getByTestId("view-partitions").click();
  await page.keyboard.press("End");
  const view = page.getByTestId("repart-view");
  await expect(view).toBeVisible();
  await expect(view.getByTestId("repart-track")).toHaveCount(2);
  // The engine's workload graph of the stream arrived (keys and co-access edges).
  await expect(view.locator("figcaption").first()).toContainText(
    /Workload graph of the stream: \d+ keys/,
  );
  await expect(view.getByTestId("repart-graph-error")).toHaveCount(0);
  // Every track lists its switches and syncs; Base's shows its pauses shaded.
  const stats = await view
    .getByTestId("repart-stats")
    .evaluateAll((ps) => ps.map((p) => p.textContent ?? ""));
  expect(stats.some((s) => /[1-9]\d* map switches/.test(s))).toBe(true);
  expect(stats.some((s) => /pauses/.test(s))).toBe(true);
  expect(await view.getByTestId("repart-pause").count()).toBeGreaterThan(0);
  await shot(page, info, "classroom-repartitioning");
  expect(problems).toEqual([]);
});
