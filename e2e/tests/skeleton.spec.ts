import { expect, test } from "@playwright/test";
import { openLab } from "./lab";
import * as run from "../support/run";

test("the default scenario runs on several threads and is judged correct", async ({
  page,
}) => {
  const { engine, problems } = await openLab(page);

  // The page is cross-origin isolated, so the engine could share memory.
  expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(true);
  await expect(engine).toHaveAttribute("data-isolated", "true");
  // The pool has more than one thread (it is sized for the largest run).
  const poolThreads = Number(await engine.getAttribute("data-pool-threads"));
  expect(poolThreads).toBeGreaterThan(1);

  // The quickstart scenario is selected by default.
  await expect(page.getByTestId("scenario-picker")).toHaveValue(
    "quickstart.json",
  );
  await expect(page.getByTestId("scenario-description")).toContainText(
    "linked list",
  );

  await page.getByTestId("run").click();
  await expect(page.getByTestId("phase")).toHaveAttribute("data-phase", "done");

  // Every run of the scenario is in the table, each with a positive throughput.
  const rows = page.getByTestId("result-row");
  await expect(rows).not.toHaveCount(0);
  const throughputs = await page
    .getByTestId("throughput")
    .evaluateAll((cells) =>
      cells.map((c) => Number(c.getAttribute("data-value"))),
    );
  expect(throughputs.length).toBeGreaterThan(1);
  for (const t of throughputs) expect(t).toBeGreaterThan(0);

  // The oracle's verdict is shown: correct.
  const verdict = page.getByTestId("verdict");
  await expect(verdict).toHaveAttribute("data-correct", "true");
  await expect(verdict).toContainText("correct");

  // The chart drew the throughput series.
  const chart = page.getByTestId("throughput-chart");
  expect(Number(await chart.getAttribute("data-points"))).toBeGreaterThan(0);
  expect(Number(await chart.getAttribute("data-max-ops"))).toBeGreaterThan(0);

  expect(problems).toEqual([]);
});

test("a broken scenario shows a located error and the lab stays usable", async ({
  page,
}) => {
  const { source, original } = await run.openScenarioSource(page);
  expect(original).toMatch(/"threads": \d+/);

  // Ask for zero worker threads: the engine refuses, pointing at the line.
  const broken = original.replace(/"threads": \d+/, '"threads": 0');
  await source.fill(broken);
  await page.getByTestId("run").click();
  await expect(page.getByTestId("phase")).toHaveAttribute(
    "data-phase",
    "refused",
  );
  const diagnostic = page.getByTestId("diagnostic").first();
  const line =
    broken.split("\n").findIndex((l) => l.includes('"threads": 0')) + 1;
  await expect(diagnostic).toContainText(`quickstart.json:${line}:`);
  await expect(diagnostic).toContainText("threads");
  await expect(page.getByTestId("verdict")).toHaveCount(0);

  // Fixing the text makes it run again.
  await source.fill(original);
  await page.getByTestId("run").click();
  await expect(page.getByTestId("phase")).toHaveAttribute("data-phase", "done");
  await expect(page.getByTestId("diagnostic")).toHaveCount(0);
  await expect(page.getByTestId("verdict")).toHaveAttribute(
    "data-correct",
    "true",
  );
});

test("a deliberately broken stealer is caught: red verdict naming the pair", run.withFaults(async ({
  page,
}) => {

  // Slow requests, most of them on one hot shard, 30% writes: sequential
  // requests wait in front of concurrent ones, which the broken stealer
  // (ignores the ready/exec flags and markers) takes and runs too early.
  // Several entries, because a schedule can be lucky; each is checked.
  const scenario = {
    name: "Broken stealer",
    description: "Fault injection: the oracle must catch the broken stealer.",
    app: { kind: "spin", shards: 2, ns: 5000 },
    workload: {
      seed: 21,
      requests: 600,
      writes: 0.3,
      global: 0,
      skew: { kind: "skewed", hot: 0, share: 0.95 },
    },
    threads: 4,
    schedulers: run.brokenEntries("ws-aggressive", "ws-ignore-flags", 4),
    run: { trace: false },
  };
  await run.scenarioJson(page, scenario);

  const verdict = await run.expectCaught(page, 4);
  // The message names the two conflicting requests and their classes.
  await expect(verdict).toContainText(
    /conflicting requests reversed: #\d+ \(\w+\) started before #\d+ \(\w+\) finished/,
  );
}));

test("a long run shows live throughput and Cancel stops it, judging what ran", async ({
  page,
}) => {
  const { source, original } = await run.openScenarioSource(page);
  // Ten times the requests, each paced to 20 µs: several seconds per scheduler.
  const long = original
    .replace(/"requests": \d+/, '"requests": 200000')
    .replace(/"run": \{[^}]*\}/, '"run": { "trace": false, "pace_ns": 20000 }');
  expect(long).toContain("pace_ns");
  await source.fill(long);
  await page.getByTestId("run").click();

  // Live: the executed count grows and the chart gets points while running.
  const phase = page.getByTestId("phase");
  await expect(phase).toContainText(
    /run 1\/\d+: \S+ × \d+ · [\d,]+\/200,000 executed/,
  );
  const chart = page.getByTestId("throughput-chart");
  await expect
    .poll(async () => Number(await chart.getAttribute("data-points")))
    .toBeGreaterThan(1);
  await expect(phase).toHaveAttribute("data-phase", "running");

  await page.getByTestId("cancel").click();
  await expect(phase).toHaveAttribute("data-phase", "cancelled");
  // The delivered prefix was checked by the oracle and found correct.
  const verdict = page.getByTestId("verdict");
  await expect(verdict).toHaveAttribute("data-correct", "true");
  await expect(verdict).toContainText("cancelled");
  const rows = page.getByTestId("result-row");
  await expect(rows).toHaveCount(1);

  // The lab is usable again.
  await source.fill(original);
  await page.getByTestId("run").click();
  await expect(phase).toHaveAttribute("data-phase", "done");
});
