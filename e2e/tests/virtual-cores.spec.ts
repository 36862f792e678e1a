import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { encodeScenario } from "../../web/src/share/codec";

/**
 * Runs on virtual cores (issue 25) in Chromium's threaded wasm: the same
 * traces as natively, byte for byte, and labelled as a model's numbers.
 *
 * e2e/fixtures/virtual-digests.json holds the trace digests of one scenario
 * per family on 4 virtual cores, written by the native test
 * `cargo test -p psmr-cli --test virtual_digests` from `psmr run
 * --virtual-cores 4 --digest` (which fails when the native traces differ
 * from the file). Here the page runs the same scenarios and its result rows
 * must show the same digests.
 */

interface Fixture {
  cores: number;
  scenarios: {
    file: string;
    requests: number;
    digests: Record<string, string>;
  }[];
}
const fixture = JSON.parse(
  readFileSync(
    new URL("../fixtures/virtual-digests.json", import.meta.url),
    "utf8",
  ),
) as Fixture;

const LABEL = `virtual ${fixture.cores} cores (model, reference cost table)`;

/** Open `file` with `requests` requests as a shared link, and start the engine. */
async function openScenario(page: Page, file: string, requests: number) {
  const doc = JSON.parse(
    readFileSync(new URL(`../../scenarios/${file}`, import.meta.url), "utf8"),
  ) as {
    workload: { requests: number };
  };
  doc.workload.requests = requests;
  const enc = await encodeScenario(JSON.stringify(doc, null, 2));
  if (!enc.ok) throw new Error(enc.error);
  await page.goto(`/#tab=run&scenario=${enc.payload}`);
  await expect(page.getByTestId("scenario-text")).toHaveValue(
    /"requests": \d+/,
  );
  const engine = page.getByTestId("engine-info");
  await engine.click();
  await expect(engine).toHaveAttribute("data-state", "ready");
}

async function runVirtual(page: Page, cores: number) {
  await page.getByTestId("run-virtual").check();
  await page.getByTestId("run-virtual-cores").fill(String(cores));
  await expect(page.getByTestId("run-virtual-note")).toContainText(
    `virtual ${cores} cores (model`,
  );
  await page.getByTestId("run").click();
  await expect(page.getByTestId("phase")).toHaveAttribute(
    "data-phase",
    "done",
    { timeout: 240_000 },
  );
}

for (const s of fixture.scenarios) {
  test(`${s.file} on ${fixture.cores} virtual cores has the native trace digests`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await openScenario(page, s.file, s.requests);
    await runVirtual(page, fixture.cores);
    const rows = page.getByTestId("result-row");
    const got = await rows.evaluateAll((rs) =>
      Object.fromEntries(
        rs.map((r) => [
          r.getAttribute("data-label"),
          r.getAttribute("data-trace-digest"),
        ]),
      ),
    );
    expect(got).toEqual(s.digests);
    await expect(page.getByTestId("verdict")).toHaveAttribute(
      "data-correct",
      "true",
    );
    // Every row, the table and the chart say these are a model's numbers.
    for (const cell of await rows.getByTestId("threads").allTextContents())
      expect(cell).toBe(LABEL);
    await expect(page.getByTestId("results-model")).toContainText(LABEL);
    await expect(page.getByTestId("chart-model")).toContainText(LABEL);
    await expect(
      page.getByTestId("throughput-chart").locator(".legend-item").first(),
    ).toContainText(`× ${LABEL}`);
  });
}

test("more virtual cores than the pool can hold are refused before the run, saying why", async ({
  page,
}) => {
  await openScenario(page, "quickstart.json", 200);
  await page.getByTestId("run-virtual").check();
  await page.getByTestId("run-virtual-cores").fill("17");
  const why = page.getByTestId("override-error-virtual-cores");
  await expect(why).toContainText("from 1 to 16, got 17");
  await expect(why).toContainText("pool threads");
  await expect(page.getByTestId("run")).toBeDisabled();
  // Off again: a real run, labelled by its thread count.
  await page.getByTestId("run-virtual").uncheck();
  await page.getByTestId("run").click();
  await expect(page.getByTestId("phase")).toHaveAttribute("data-phase", "done");
  await expect(page.getByTestId("results-model")).toHaveCount(0);
  await expect(page.getByTestId("result-row").first()).not.toHaveAttribute(
    "data-trace-digest",
    /./,
  );
});

/** Each result row's trace digest, by its label. */
async function digests(page: Page): Promise<Record<string, string | null>> {
  return page
    .getByTestId("result-row")
    .evaluateAll((rs) =>
      Object.fromEntries(
        rs.map((r) => [
          r.getAttribute("data-label"),
          r.getAttribute("data-trace-digest"),
        ]),
      ),
    );
}

test("a family's engine package gives the native digests, and so does the full engine after it", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const late = fixture.scenarios.find((s) => s.file === "classroom-late.json");
  const quick = fixture.scenarios.find((s) => s.file === "quickstart.json");
  if (!late || !quick)
    throw new Error("fixture lacks classroom-late.json or quickstart.json");
  const engine = page.getByTestId("engine-info");

  // A late-only scenario starts the late family's package (issue 30).
  await openScenario(page, late.file, late.requests);
  await expect(engine).toHaveAttribute("data-package", "late");
  await runVirtual(page, fixture.cores);
  expect(await digests(page)).toEqual(late.digests);

  // quickstart.json has two families: its run loads the full engine.
  await openScenario(page, quick.file, quick.requests);
  await expect(page.getByTestId("scenario-text")).toHaveValue(/"busy-wait"/);
  await runVirtual(page, fixture.cores);
  await expect(engine).toHaveAttribute("data-package", "full");
  expect(await digests(page)).toEqual(quick.digests);

  // The same late scenario again, now on the full engine: the same digests as on its package.
  await openScenario(page, late.file, late.requests);
  await expect(page.getByTestId("scenario-text")).not.toHaveValue(
    /"busy-wait"/,
  );
  await runVirtual(page, fixture.cores);
  await expect(engine).toHaveAttribute("data-package", "full");
  expect(await digests(page)).toEqual(late.digests);
});
