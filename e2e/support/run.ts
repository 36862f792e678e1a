import { expect, type Locator, type Page } from "@playwright/test";
import { openLab, skipWithoutFaultInjection } from "../tests/lab";
import { callSite, stepAt } from "./site";

/**
 * What a user does in the Run tab, as steps the specs share: write a
 * scenario in the source box and run it, read every run's verdict, see the
 * oracle catch a deliberately broken scheduler.
 */

/**
 * Write `scenario` (as JSON) in the Run tab's source box, run it and wait
 * for the end (within `timeout` ms; the config's expect timeout without it).
 */
export async function scenarioJson(
  page: Page,
  scenario: object,
  timeout?: number,
) {
  await page.getByTestId("tab-run").click();
  await page
    .getByTestId("scenario-text")
    .fill(JSON.stringify(scenario, null, 2));
  await page.getByTestId("run").click();
  await expect(page.getByTestId("phase")).toHaveAttribute(
    "data-phase",
    "done",
    timeout === undefined ? undefined : { timeout },
  );
}

/** `data-correct` of every result row, in the table's order. */
export async function rowVerdicts(page: Page) {
  return page
    .getByTestId("result-row")
    .evaluateAll((rs) => rs.map((r) => r.getAttribute("data-correct")));
}

/** The overall verdict is `correct` (green) or not (red). Returns the verdict. */
export async function expectVerdict(
  page: Page,
  correct: boolean,
): Promise<Locator> {
  const verdict = page.getByTestId("verdict");
  await expect(verdict).toHaveAttribute("data-correct", String(correct));
  return verdict;
}

/**
 * `count` entries of scheduler `id` with `fault` injected (several, because
 * a schedule can be lucky), labelled `<id>-broken-<i>`, with `params` added.
 */
export function brokenEntries(
  id: string,
  fault: string,
  count: number,
  params: object = {},
) {
  return Array.from({ length: count }, (_, i) => ({
    id,
    label: `${id}-broken-${i + 1}`,
    fault,
    ...params,
  }));
}

/**
 * The body of a test of deliberately broken schedulers, for a spec's
 * `test`: `test(title, withFaults(steps))`. The lab is opened for them
 * (a failure to open is reported at the spec's line that called
 * `withFaults`, see `stepAt`; the test is skipped unless the engine was
 * built with fault injection), then `steps`.
 */
export function withFaults(steps: (args: { page: Page }) => Promise<void>) {
  const at = callSite();
  return async ({ page }: { page: Page }) => {
    const { engine } = await stepAt(at, "open the lab", () => openLab(page));
    await skipWithoutFaultInjection(engine);
    await steps({ page });
  };
}

/** Every one of the `runs` runs was judged correct, and so is the overall verdict. */
export async function expectAllCorrect(page: Page, runs: number) {
  expect(await rowVerdicts(page)).toEqual(Array(runs).fill("true"));
  await expectVerdict(page, true);
}

/**
 * The oracle caught a broken run: at least one of the runs (`runs` of
 * them, when given) is judged wrong, and so is the overall verdict.
 * Returns the verdict, for the violation it names.
 */
export async function expectCaught(page: Page, runs?: number) {
  const rows = await rowVerdicts(page);
  if (runs !== undefined) expect(rows).toHaveLength(runs);
  expect(rows).toContain("false");
  return expectVerdict(page, false);
}

/** Open the lab on the Run tab's source box; returns the box and the text it starts with. */
export async function openScenarioSource(page: Page) {
  await openLab(page);
  const source = page.getByTestId("scenario-text");
  return { source, original: await source.inputValue() };
}
