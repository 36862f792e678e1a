import { test, expect } from "@playwright/test";
import { openLab } from "./lab";
import * as run from "../support/run";

/**
 * Late scheduling, ePaxos and PePaxos in the browser: the schedulers run on
 * the wasm engine's threads and are judged correct, a commit workload is
 * simulated in the browser, and the deliberately broken variants (fault
 * injection builds only) are caught by the oracle.
 */

test("late, epaxos and pepaxos run in the browser and are judged correct", async ({
  page,
}) => {
  const { problems } = await openLab(page);
  await run.scenarioJson(page, {
    name: "Late in the browser",
    description: "CBASE on a mixed list workload.",
    app: { kind: "linked-list", shards: 2, size: 1000 },
    workload: { seed: 3, requests: 3000, writes: 0.2, global: 0.05 },
    threads: 3,
    schedulers: [{ id: "sequential" }, { id: "late" }],
    run: { trace: true },
  });
  expect(await run.rowVerdicts(page)).toEqual(["true", "true"]);

  // A simulated ePaxos commit stream with collisions (no batching, all
  // writes on one list): SCCs of several instances.
  await run.scenarioJson(page, {
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
  await run.expectAllCorrect(page, 3);
  expect(problems).toEqual([]);
});

test("broken late and pepaxos variants are caught in the browser", run.withFaults(async ({
  page,
}) => {
  // Slow conflicting writes and two workers: an SCC started before the one
  // it depends on finished, or a graph without edges, runs two of them
  // together. Several entries, because a schedule can be lucky.
  await run.scenarioJson(page, {
    name: "Broken PePaxos",
    description:
      "Fault injection: SCCs do not wait for the SCCs they depend on.",
    app: { kind: "spin", shards: 1, ns: 100000 },
    workload: { seed: 4, requests: 300, writes: 1, commits: { batch_max: 1 } },
    threads: 2,
    schedulers: run.brokenEntries("pepaxos", "pepaxos-skip-scc-wait", 3),
    run: { trace: false },
  });
  const verdict = await run.expectCaught(page);
  await expect(verdict).toContainText(
    /conflicting requests reversed|sequential execution answers|differs from sequential/,
  );

  await run.scenarioJson(page, {
    name: "Broken late",
    description: "Fault injection: a dependency graph without edges.",
    app: { kind: "spin", shards: 1, ns: 100000 },
    workload: { seed: 4, requests: 300, writes: 1 },
    threads: 2,
    schedulers: run.brokenEntries("late", "late-ignore-conflicts", 3),
    run: { trace: false },
  });
  await run.expectCaught(page);
}));
