import { expect, type Page, type TestInfo } from "@playwright/test";
import { presentLesson } from "../tests/classroom";
import { openLab } from "../tests/lab";
import { callSite, stepAt } from "./site";

/**
 * What a teacher does in a lesson, as steps the specs share: start it on
 * the projector, go to a bookmark, use a lesson tool, read the step's
 * caption; and what no student-facing text may do (name a paper by number).
 */

/** A paper named by its number ("paper 001", "000"): students see titles, never numbers. */
export const PAPER_NUMBER = /paper 0\d\d|(?<![\d,.])\b00[0-4]\b/i;

/** Text of the whole page, for the "no paper numbers" check. */
export async function pageText(page: Page): Promise<string> {
  return (await page.locator("body").innerText()).replace(/\s+/g, " ");
}

/** No text on the page names a paper by its number. */
export async function expectNoPaperNumbers(page: Page) {
  expect(await pageText(page)).not.toMatch(PAPER_NUMBER);
}

/**
 * Open the lab (engine started) and start `lesson` as on a projector: the
 * presentation layout (large type, no sidebar). Returns the page and
 * console errors seen from the start (see `openLab`).
 */
export async function openLesson(page: Page, lesson: string) {
  const { problems } = await openLab(page);
  await presentLesson(page, lesson);
  await expect(page.getByTestId("timeline")).toBeVisible();
  return problems;
}

/**
 * The body of a test of a lesson opened by `start`, for a spec's `test`:
 * `test(title, inLesson(lesson, steps))`. It opens the lesson, takes the
 * spec's `steps`, and ends with the page having reported no problem
 * (console error, failed load) from the start. A failure of the opening or
 * of that last check is reported at the spec's line that called `inLesson`
 * (see `stepAt`); a failure in `steps` at its own line.
 */
export function inLessonWith(
  start: (page: Page, lesson: string) => Promise<string[]>,
) {
  return (
    lesson: string,
    steps: (args: { page: Page }, info: TestInfo) => Promise<void>,
  ) => {
    const at = callSite();
    return async ({ page }: { page: Page }, info: TestInfo) => {
      const problems = await stepAt(at, `open the lesson "${lesson}"`, () =>
        start(page, lesson),
      );
      await steps({ page }, info);
      await stepAt(at, "the page reported no problem", async () => {
        expect(problems).toEqual([]);
      });
    };
  };
}

/** The body of a test of `lesson` opened as a visitor does (`openLesson`), see `inLessonWith`. */
export const inLesson = inLessonWith(openLesson);

/** Click a lesson tool (compare, a what-if): on a short screen it is folded behind "more" first. */
export async function lessonTool(page: Page, id: string) {
  const more = page.getByTestId("lesson-more");
  if (
    (await more.count()) > 0 &&
    (await more.getAttribute("aria-expanded")) !== "true"
  )
    await more.click();
  await page.getByTestId(id).click();
}

/** Click bookmark `i` (it must be enabled: the run reached that moment) and return its finder. */
export async function bookmark(page: Page, i: number): Promise<string> {
  const b = page.getByTestId(`bookmark-${i}`);
  await expect(b, `bookmark ${i} reached in this run`).toBeEnabled();
  await b.click();
  return (await b.getAttribute("data-finder"))!;
}

/**
 * The caption of the step at the replay position says `text`: the one
 * caption on the page, or with `nth` the caption of track `nth`.
 */
export async function expectCaption(page: Page, text: string, nth?: number) {
  const captions = page.getByTestId("step-caption");
  await expect(nth === undefined ? captions : captions.nth(nth)).toContainText(
    text,
  );
}
