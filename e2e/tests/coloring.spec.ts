import { expect, test, type Page } from "@playwright/test";
import { resetRunCount, runScenario, runShipped, shot } from "./classroom";
import { openLab, skipWithoutFaultInjection } from "./lab";

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

/** `data-correct` of every result row. */
async function rowVerdicts(page: Page) {
  return page
    .getByTestId("result-row")
    .evaluateAll((rs) => rs.map((r) => r.getAttribute("data-correct")));
}

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
  expect(await rowVerdicts(page)).toEqual([
    "true",
    "true",
    "true",
    "true",
    "true",
  ]);
  await expect(page.getByTestId("verdict")).toHaveAttribute(
    "data-correct",
    "true",
  );
  // The SWS-like pipeline, traced (the classroom scenario).
  await runShipped(page, "coloring-sws.json", undefined, RUN_TIMEOUT_MS);
  expect(await rowVerdicts(page)).toEqual(["true", "true", "true"]);
  await expect(page.getByTestId("verdict")).toHaveAttribute(
    "data-correct",
    "true",
  );
  expect(problems).toEqual([]);
});

test("a stealer that takes the color being executed is caught by the oracle in the browser", async ({
  page,
}) => {
  const { engine } = await openLab(page);
  await skipWithoutFaultInjection(engine);
  // Many rounds of long fork events of color 0 on core 0: the idle core
  // steals color 0 while its victim runs one, and runs the next fork at the
  // same time. Several entries per runtime, because a schedule can be lucky.
  const broken = (id: string, i: number) => ({
    id,
    label: `${id}-broken-${i}`,
    fault: "steal-running",
  });
  await page.getByTestId("tab-run").click();
  await page.getByTestId("scenario-text").fill(
    JSON.stringify(
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
        schedulers: [1, 2, 3].flatMap((i) => [
          broken("libasync", i),
          broken("mely", i),
        ]),
        run: { trace: false },
      },
      null,
      2,
    ),
  );
  await page.getByTestId("run").click();
  await expect(page.getByTestId("phase")).toHaveAttribute(
    "data-phase",
    "done",
    { timeout: 120_000 },
  );
  const rows = await rowVerdicts(page);
  expect(rows).toHaveLength(6);
  expect(rows).toContain("false");
  const verdict = page.getByTestId("verdict");
  await expect(verdict).toHaveAttribute("data-correct", "false");
  // The violation names a color: two events of it at once, or out of order
  // ("events of color 0 ran out of registration order: ...").
  await expect(verdict).toContainText(
    /conflicting requests reversed|ran out of registration order/,
  );
  await expect(verdict).toContainText(/color \d+/);
});

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
