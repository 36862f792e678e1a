import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { fullyVisible, pageScrolls, presentLesson, shot } from "./classroom";
import { openLab, skipWithoutFaultInjection } from "./lab";

/**
 * Break-it mode on a projector (issue 26, part 3): at 1280x720 in the
 * presentation layout, a teacher drops one rule of the scheduler on screen,
 * presses "Find a bad interleaving", and the browser explores schedules
 * until the oracle rejects one; the replay then shows the pair that ran out
 * of order on both threads' lanes, the oracle's sentence, and the
 * pseudo-code line the dropped rule would have enforced. Two families:
 * early scheduling (the "Break it" lesson) and work stealing (the stealing
 * lesson, break-it opened from the run picker). Screenshots go to
 * docs/img/classroom/ with PSMR_DOC_IMG=1.
 */

test.use({ trace: "off" });

/** The oracle's sentence, as the classroom words it. */
const SENTENCE =
  /^r(\d+)( \([^)]+\))? ran before r(\d+)( \([^)]+\))? on cell .+: sequential order has r\3 first\.$/;

/** Press the button, follow the progress, wait for the replayed find; returns the pair (second, first). */
async function findBadInterleaving(page: Page, rule: RegExp) {
  const bar = page.getByTestId("break-it");
  await expect(bar).toBeVisible();
  const variant = page.getByTestId("breakit-variant");
  const option = variant.locator("option").filter({ hasText: rule });
  await expect(option).toHaveCount(1);
  await variant.selectOption((await option.getAttribute("value"))!);
  await page.getByTestId("breakit-find").click();
  // Progress is shown while it explores (the first schedules may already break it).
  await expect(
    page.getByTestId("breakit-progress").or(page.getByTestId("breakit-found")),
  ).toBeVisible();
  const sentence = page.getByTestId("breakit-sentence");
  await expect(sentence).toBeVisible({ timeout: 180_000 });
  const m = SENTENCE.exec((await sentence.textContent()) ?? "");
  expect(m, `sentence: ${await sentence.textContent()}`).not.toBeNull();
  return { second: Number(m![1]), first: Number(m![3]) };
}

/** The pair is marked on the lanes, the sentence and line are on screen, the page does not scroll. */
async function expectPairShown(
  page: Page,
  pair: { first: number; second: number },
  line: string,
) {
  const chips = page.getByTestId("breakit-pair-req");
  await expect(chips.first()).toBeVisible();
  const marked = (await chips.allTextContents()).map((t) => t.trim());
  expect(new Set(marked)).toEqual(
    new Set([`r${pair.first}`, `r${pair.second}`]),
  );
  const lanes = page.getByTestId("breakit-lanes").locator(".break-it-lane");
  // Two threads ran the pair (one thread would have kept its order).
  await expect(lanes).toHaveCount(2);
  await expect(page.getByTestId("breakit-guard")).toContainText(line);
  // The pseudo-code panel marks that line too.
  const guardLine = page.getByTestId("pseudo-guard-line");
  await expect(guardLine).toHaveCount(1);
  await expect(guardLine).toContainText(line);
  // Scrolled into view in the listing when the find opened (not below its fold).
  await expect.poll(() => fullyVisible(guardLine)).toBe(true);
  for (const id of ["breakit-sentence", "breakit-guard", "breakit-lanes"])
    expect(await fullyVisible(page.getByTestId(id)), id).toBe(true);
  for (const chip of await chips.all())
    expect(await fullyVisible(chip)).toBe(true);
  // The replay stands where the second request starts: the pseudo-code panel is on the run.
  await expect(page.getByTestId("pseudo-panel")).toBeVisible();
  await expect(page.getByTestId("breakit-token")).not.toBeEmpty();
  expect(await pageScrolls(page)).toBe(false);
}

async function start(page: Page) {
  await page.setViewportSize({ width: 1280, height: 720 });
  const { engine } = await openLab(page);
  await skipWithoutFaultInjection(engine);
}

test("the Break it lesson finds early's bad interleaving without its barrier", async ({
  page,
  context,
}, info: TestInfo) => {
  test.setTimeout(300_000);
  await start(page);
  await presentLesson(page, "break-it");
  await expect(page.getByTestId("breakit-steps")).toBeVisible();
  const pair = await findBadInterleaving(page, /skip its barrier/);
  await expectPairShown(page, pair, "barrier[c].await()");
  await shot(page, info, "classroom/break-it-early-present-1280");
  // The share link holds the token.
  await page.getByTestId("breakit-share").click();
  await expect(page.getByTestId("breakit-link")).toHaveValue(/scenario=/);
  const url = await page.getByTestId("breakit-link").inputValue();

  // Someone else opens it: the find replays and the bar reopens on it, the fault chosen.
  const other = await context.newPage();
  await other.setViewportSize({ width: 1280, height: 720 });
  await other.goto(url);
  await expect(other.getByTestId("breakit-found")).toBeVisible({
    timeout: 120_000,
  });
  await expect(other.getByTestId("breakit-variant")).toHaveValue(
    "early-no-barrier",
  );
  await expect(other.getByTestId("breakit-sentence")).toHaveText(
    (await page.getByTestId("breakit-sentence").textContent()) ?? "",
  );
  await expect(other.getByTestId("breakit-guard")).toContainText(
    "barrier[c].await()",
  );
  await expect(other.getByTestId("pseudo-guard-line")).toHaveCount(1);
  await expect(other.getByTestId("breakit-token")).toHaveText(
    (await page.getByTestId("breakit-token").textContent()) ?? "",
  );
});

test("break-it on work stealing: a stealer that ignores the flags", async ({
  page,
}, info: TestInfo) => {
  test.setTimeout(300_000);
  await start(page);
  await presentLesson(page, "stealing");
  await page.getByTestId("breakit-toggle").click();
  const pair = await findBadInterleaving(page, /ignores the victim's/);
  await expectPairShown(page, pair, "if Valid(v, c):");
  await shot(page, info, "classroom/break-it-ws-present-1280");
});

/**
 * Every family's guard line at 1280x720 in present mode: a find opened in
 * each family's lesson (one fault the earliest-clock schedule already
 * breaks) shows its guard line fully visible in the pseudo-code panel,
 * wherever that line sits in the listings. Coloring is left out: its
 * lesson's one client never queues two events of a color at once, so
 * `steal-running` cannot happen there (docs/benchmarks/break-it.md).
 */
for (const [lesson, fault] of [
  ["cycles", "busy-wait-early-release"],
  ["late", "late-ignore-conflicts"],
  ["epaxos", "epaxos-ignore-seq"],
  ["repartitioning", "repart-swap-pairs"],
] as const) {
  test(`the guard line of ${fault} is in view when its find opens (${lesson} lesson)`, async ({
    page,
  }, info: TestInfo) => {
    test.setTimeout(300_000);
    await start(page);
    await presentLesson(page, lesson);
    await page.getByTestId("breakit-toggle").click();
    await page.getByTestId("breakit-variant").selectOption(fault);
    // The rule to drop reads in full, whatever its length (the select's box cuts it).
    const rule = page.getByTestId("breakit-rule");
    await expect(rule).toContainText(/Dropped rule: \S/);
    expect(await fullyVisible(rule)).toBe(true);
    await page.getByTestId("breakit-find").click();
    await expect(page.getByTestId("breakit-found")).toBeVisible({
      timeout: 240_000,
    });
    // The find states the dropped rule with its guard line: it is not said twice.
    await expect(rule).toHaveCount(0);
    const guardLine = page.getByTestId("pseudo-guard-line");
    await expect(guardLine).toHaveCount(1);
    await expect.poll(() => fullyVisible(guardLine)).toBe(true);
    expect(await pageScrolls(page)).toBe(false);
    await shot(page, info, `classroom/break-it-${lesson}-present-1280`);
  });
}
