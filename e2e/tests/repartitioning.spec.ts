import { expect, test } from "@playwright/test";
import { openLab } from "./lab";

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
  await page
    .getByTestId("scenario-text")
    .fill(JSON.stringify(scenario, null, 2));
  await page.getByTestId("run").click();
  await expect(page.getByTestId("phase")).toHaveAttribute(
    "data-phase",
    "done",
    { timeout: 120_000 },
  );
  await expect(page.getByTestId("verdict")).toHaveAttribute(
    "data-correct",
    "true",
  );
  const rows = await page
    .getByTestId("result-row")
    .evaluateAll((rs) => rs.map((r) => r.getAttribute("data-correct")));
  expect(rows).toEqual(["true", "true", "true", "true"]);
});

test("map switches without their sync are caught by the oracle in the browser", async ({
  page,
}) => {
  const { engine } = await openLab(page);
  const features = (await engine.getAttribute("title")) ?? "";
  test.skip(
    !features.includes("fault-injection"),
    "engine built without fault-injection",
  );
  // Async keeps scheduling while maps switch; bounded queues and a paced
  // execution keep the old owners' queues full of requests on moved keys,
  // which the new owners run too early without the switch's sync. Several
  // entries, because a schedule can be lucky.
  const broken = (i: number) => ({
    id: "repart-async",
    label: `broken-${i}`,
    fault: "repart-no-switch-sync",
    repart: { window: 300, queue_bound: 32 },
  });
  const scenario = ycsbScenario("a", 300, 3000, [1, 2, 3, 4].map(broken), {
    trace: false,
    pace_ns: 20000,
  });
  await page
    .getByTestId("scenario-text")
    .fill(JSON.stringify(scenario, null, 2));
  await page.getByTestId("run").click();
  await expect(page.getByTestId("phase")).toHaveAttribute(
    "data-phase",
    "done",
    { timeout: 120_000 },
  );
  const verdict = page.getByTestId("verdict");
  await expect(verdict).toHaveAttribute("data-correct", "false");
  await expect(verdict).toContainText(/conflicting requests reversed/);
});
