import { expect, test, type Page } from "@playwright/test";
import { resetRunCount, runScenario, runShipped, shot } from "./classroom";
import { openLab } from "./lab";
import * as run from "../support/run";

/**
 * The event-coloring runtimes (Libasync-smp and Mely) in the browser: they
 * run on the wasm engine's threads and the oracle judges every run, and the
 * deliberately broken stealer (fault injection builds only) is caught.
 */

test.beforeEach(() => {
  resetRunCount();
});

/** How long one run of these specs may take (ms). */
const RUN_TIMEOUT_MS = 120_000;

test("libasync and mely run the coloring scenarios in the browser and are judged correct", async ({
  page,
}) => {
  const { problems } = await openLab(page);
  // Unbalanced fork/join rounds (fewer rounds than the shipped file): both
  // runtimes with and without stealing, and Mely's time-left heuristic.
  await runShipped(
    page,
    "coloring-unbalanced.json",
    (text) => text.replace('"requests": 20020', '"requests": 4004'),
    RUN_TIMEOUT_MS,
  );
  await run.expectAllCorrect(page, 5);
  // The SWS-like pipeline, traced (the classroom scenario).
  await runShipped(page, "coloring-sws.json", undefined, RUN_TIMEOUT_MS);
  await run.expectAllCorrect(page, 3);
  expect(problems).toEqual([]);
});

test("a stealer that takes the color being executed is caught by the oracle in the browser", run.withFaults(async ({
  page,
}) => {
  // Many rounds of long fork events of color 0 on core 0: the idle core
  // steals color 0 while its victim runs one, and runs the next fork at the
  // same time. Several entries per runtime, because a schedule can be lucky.
  await run.scenarioJson(
    page,
    {
      name: "Broken coloring runtimes",
      description: "Fault injection: a steal takes the color being run.",
      app: { kind: "handlers", colors: 3 },
      workload: {
        seed: 3,
        requests: 300,
        events: {
          kind: "unbalanced",
          round: 2,
          long_share: 1.0,
          long_ns: [50000, 100000],
          handlers: { fork: { ns: 100000 } },
        },
      },
      threads: 2,
      schedulers: [
        ...run.brokenEntries("libasync", "steal-running", 3),
        ...run.brokenEntries("mely", "steal-running", 3),
      ],
      run: { trace: false },
    },
    RUN_TIMEOUT_MS,
  );
  const verdict = await run.expectCaught(page, 6);
  // The violation names a color: two events of it at once, or out of order
  // ("events of color 0 ran out of registration order: ...").
  await expect(verdict).toContainText(
    /conflicting requests reversed|ran out of registration order/,
  );
  await expect(verdict).toContainText(/color \d+/);
}));

test("the Colors & steals view shows the cores' color-queues, a steal moving a whole color, and a color never overlapping", async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const { problems } = await openLab(page);
  // Unbalanced rounds, traced, fewer of them: every round leaves core 1
  // idle while core 0 holds a thousand colors, so the stealers steal.
  await runScenario(page, "coloring-unbalanced.json", (text) =>
    text
      .replace('"requests": 20020', '"requests": 2002')
      .replace('"trace": false', '"trace": true'),
  );
  // Replay Libasync-smp's and Mely's stealing runs side by side.
  const choice = page.getByTestId("run-choice");
  for (const [label, on] of [
    ["(libasync-steal)", true],
    ["(mely-time-left)", true],
    ["(libasync-no-steal)", false],
  ] as const) {
    const box = choice.locator("label", { hasText: label }).locator("input");
    if ((await box.isChecked()) !== on) await box.click();
  }
  await page.getByTestId("view-coloring").click();
  const view = page.getByTestId("coloring-view");
  await expect(view).toBeVisible();
  const tracks = view.getByTestId("coloring-track");
  await expect(tracks).toHaveCount(2);
  // Jump to the first steal of the first track that has one.
  let stole = false;
  for (let k = 0; k < (await tracks.count()) && !stole; k++) {
    const next = tracks.nth(k).getByTestId("next-color-steal");
    if (await next.isDisabled()) continue;
    await next.click();
    const steal = tracks.nth(k).getByTestId("coloring-steal");
    await expect(steal).toHaveAttribute("data-fresh", "true");
    await expect(steal).toContainText(
      /T1 steals color \d+ from T0, the whole color: \d+ events?/,
    );
    // Every core is drawn, and the stolen color's executions never overlap.
    await expect(tracks.nth(k).getByTestId("coloring-core")).toHaveCount(2);
    // Each core's count is its event chips plus those not drawn (replayed from the trace).
    for (const row of await tracks.nth(k).getByTestId("coloring-core").all()) {
      const counts = await row
        .getByTestId("color-chip")
        .evaluateAll((cs) =>
          cs.map((c) => Number(c.getAttribute("data-count"))),
        );
      expect(Number(await row.getAttribute("data-queued"))).toBe(
        counts.reduce((a, b) => a + b, 0) +
          Number(await row.getAttribute("data-hidden")),
      );
    }
    await expect(tracks.nth(k).getByTestId("coloring-lane")).toHaveAttribute(
      "data-overlaps",
      "0",
    );
    stole = true;
  }
  expect(stole).toBe(true);
  // Mely's time-left heuristic refuses steals: the view says why, with the
  // two times compared (refusals of other heuristics have their own reason).
  const mely = tracks.nth(1);
  await expect(mely).toContainText("mely-time-left");
  await expect(mely.getByTestId("next-refusal")).toBeEnabled();
  await mely.getByTestId("next-refusal").click();
  await expect(mely.getByTestId("coloring-refusal")).toContainText(
    /did not steal color \d+ from T\d: (time left [\d.]+ [nµ]s < steal cost [\d.]+ [nµ]s|fewer than two colors queued|no stealable color)/,
  );
  // Mely (time-left on) keeps a stealing queue per core.
  await expect(mely.getByTestId("stealing-queue")).toBeVisible();
  await expect(mely.getByTestId("stealing-queue-core")).toHaveCount(2);
  await shot(page, info, "classroom-coloring");
  expect(problems).toEqual([]);
});
