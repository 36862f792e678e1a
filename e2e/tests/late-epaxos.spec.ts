import { test, expect, type Page } from "@playwright/test";
import { openLab, skipWithoutFaultInjection } from "./lab";

/**
 * Late scheduling, ePaxos and PePaxos in the browser: the schedulers run on
 * the wasm engine's threads and are judged correct, a commit workload is
 * simulated in the browser, and the deliberately broken variants (fault
 * injection builds only) are caught by the oracle.
 */

/** Put `scenario` in the source box, run it, wait for the end. */
async function runScenario(page: Page, scenario: object) {
  await page.getByTestId("tab-run").click();
  await page
    .getByTestId("scenario-text")
    .fill(JSON.stringify(scenario, null, 2));
  await page.getByTestId("run").click();
  await expect(page.getByTestId("phase")).toHaveAttribute("data-phase", "done");
}

/** `data-correct` of every result row. */
async function rowVerdicts(page: Page) {
  return page
    .getByTestId("result-row")
    .evaluateAll((rs) => rs.map((r) => r.getAttribute("data-correct")));
}

test("late, epaxos and pepaxos run in the browser and are judged correct", async ({
  page,
}) => {
  const { problems } = await openLab(page);
  await runScenario(page, {
    name: "Late in the browser",
    description: "CBASE on a mixed list workload.",
    app: { kind: "linked-list", shards: 2, size: 1000 },
    workload: { seed: 3, requests: 3000, writes: 0.2, global: 0.05 },
    threads: 3,
    schedulers: [{ id: "sequential" }, { id: "late" }],
    run: { trace: true },
  });
  expect(await rowVerdicts(page)).toEqual(["true", "true"]);

  // A simulated ePaxos commit stream with collisions (no batching, all
  // writes on one list): SCCs of several instances.
  await runScenario(page, {
    name: "ePaxos in the browser",
    description: "A simulated commit stream.",
    app: { kind: "linked-list", shards: 1, size: 100 },
    workload: {
      seed: 2,
      requests: 2000,
      writes: 1,
      commits: { batch_max: 1 },
    },
    threads: 3,
    schedulers: [{ id: "sequential" }, { id: "epaxos" }, { id: "pepaxos" }],
    run: { trace: true },
  });
  expect(await rowVerdicts(page)).toEqual(["true", "true", "true"]);
  await expect(page.getByTestId("verdict")).toHaveAttribute(
    "data-correct",
    "true",
  );
  expect(problems).toEqual([]);
});

test("broken late and pepaxos variants are caught in the browser", async ({
  page,
}) => {
  const { engine } = await openLab(page);
  await skipWithoutFaultInjection(engine);
  // Slow conflicting writes and two workers: an SCC started before the one
  // it depends on finished, or a graph without edges, runs two of them
  // together. Several entries, because a schedule can be lucky.
  const entries = (id: string, fault: string) =>
    [1, 2, 3].map((i) => ({ id, label: `${id}-${i}`, fault }));
  await runScenario(page, {
    name: "Broken PePaxos",
    description:
      "Fault injection: SCCs do not wait for the SCCs they depend on.",
    app: { kind: "spin", shards: 1, ns: 100000 },
    workload: { seed: 4, requests: 300, writes: 1, commits: { batch_max: 1 } },
    threads: 2,
    schedulers: entries("pepaxos", "pepaxos-skip-scc-wait"),
    run: { trace: false },
  });
  expect(await rowVerdicts(page)).toContain("false");
  await expect(page.getByTestId("verdict")).toHaveAttribute(
    "data-correct",
    "false",
  );
  await expect(page.getByTestId("verdict")).toContainText(
    /conflicting requests reversed|sequential execution answers|differs from sequential/,
  );

  await runScenario(page, {
    name: "Broken late",
    description: "Fault injection: a dependency graph without edges.",
    app: { kind: "spin", shards: 1, ns: 100000 },
    workload: { seed: 4, requests: 300, writes: 1 },
    threads: 2,
    schedulers: entries("late", "late-ignore-conflicts"),
    run: { trace: false },
  });
  expect(await rowVerdicts(page)).toContain("false");
});
