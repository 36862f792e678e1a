import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { expect, test, type Page } from "@playwright/test";
import { resetRunCount, runScenario } from "./classroom";
import { openLab } from "./lab";

/**
 * The lessons of the families status.spec.ts does not cover (event coloring,
 * repartitioning, the mapping lesson, the sequential baseline) record a
 * replayable trace of more than 100 events in the browser, with the events
 * their lesson is about. With PSMR_SAVE_TRACES=1 each is saved (Classroom's
 * "trace ⤓" button) as a fixture of the per-family consistency tests
 * (web/src/views/lessonTraces.test.ts): `<id>.<scenario>.s<shards>.trace.b64`.
 *
 * Sizes are cut down from the lessons' (a fixture stays small): two fork/join
 * rounds of coloring, 3,000 repartitioning requests with Base repartitioning
 * every 1,000, 400 sequential requests.
 */

test.use({ trace: "off" });
test.beforeEach(() => resetRunCount());

interface Case {
  scenario: string;
  shards: number;
  /** Runs to replay: the scheduler id (the fixture's name), which of the runs with that id (0: the first), the scenario part of the file name. */
  runs: { id: string; nth?: number; as?: string }[];
  edit?: (text: string) => string;
}

const CASES: Case[] = [
  {
    scenario: "coloring-classroom.json",
    shards: 1,
    runs: [{ id: "libasync" }, { id: "mely" }],
    edit: (t) => t.replace('"requests": 20020', '"requests": 2002'),
  },
  {
    scenario: "repart-classroom.json",
    shards: 4,
    runs: [{ id: "repart-base" }, { id: "repart-async" }],
    edit: (t) =>
      t
        .replace('"requests": 20000', '"requests": 3000')
        .replace('"delta_p": 2500', '"delta_p": 1000'),
  },
  {
    scenario: "classroom-mapping.json",
    shards: 4,
    runs: [{ id: "early", nth: 1, as: "classroom-mapping-optimized" }],
  },
  {
    scenario: "quickstart.json",
    shards: 2,
    runs: [{ id: "sequential" }],
    edit: (t) => t.replace('"requests": 20000', '"requests": 400'),
  },
];

/** Replay only the `nth` run of scheduler `id` (two runs of the mapping lesson share the id `early`). */
async function replayOnlyNth(page: Page, id: string, nth: number) {
  const boxes = page
    .getByTestId("run-choice")
    .locator("input[type=checkbox][data-testid^=pick-]");
  let k = 0;
  for (let i = 0; i < (await boxes.count()); i++) {
    const b = boxes.nth(i);
    const mine =
      (await b.getAttribute("data-testid")) === `pick-${id}` && k++ === nth;
    if ((await b.isChecked()) !== mine) await b.click();
  }
  await expect(page.getByTestId("pseudo-panel")).toContainText(id);
}

for (const c of CASES) {
  test(`a lesson run records a replayable trace: ${c.scenario}`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const { problems } = await openLab(page);
    await runScenario(page, c.scenario, c.edit);
    for (const { id, nth = 0, as } of c.runs) {
      await replayOnlyNth(page, id, nth);
      const n = Number(
        await page.getByTestId("position").getAttribute("data-events"),
      );
      expect(n, `${id}: events`).toBeGreaterThan(100);
      if (process.env.PSMR_SAVE_TRACES !== "1") continue;
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByTestId("download-trace").click(),
      ]);
      const bytes = readFileSync((await download.path())!);
      const dir = fileURLToPath(
        new URL("../../web/src/trace/fixtures/", import.meta.url),
      );
      mkdirSync(dir, { recursive: true });
      const file = `${id}.${as ?? c.scenario.replace(/\.json$/, "")}.s${c.shards}.trace.b64`;
      writeFileSync(
        dir + file,
        gzipSync(bytes, { level: 9 }).toString("base64") + "\n",
      );
    }
    expect(problems).toEqual([]);
  });
}
