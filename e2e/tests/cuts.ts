import type { Page } from "@playwright/test";

/**
 * What a projector's screen shows cut (issue 27): checks of the Classroom's
 * layout at a bookmark, each the list of what is cut (empty when nothing
 * is), with enough words to find it on the screenshot.
 */

/**
 * The captions of the pseudo-code panels that do not show their whole
 * sentence: a caption clamped to a few lines (stacked runs) hides the rest
 * of its text, and the sentence of the step is what the class reads.
 */
export async function captionsCut(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("[data-testid=step-caption]")]
      .filter(
        (c) =>
          c.getBoundingClientRect().height > 0 &&
          c.scrollHeight > c.clientHeight + 1,
      )
      .map(
        (c) =>
          `"${c.textContent}": ${c.scrollHeight} px of text in ${c.clientHeight}`,
      ),
  );
}

/**
 * The rows of text of the views that scroll in the view's box, each to be
 * whole on screen or not drawn (web/src/views/wholeRows.ts): the Colors &
 * steals view (a color's chip, a core's name, its running event and
 * count, a stealing queue's line), the Synchronization view (titles, a
 * barrier's or cycle's head and threads, the thread list, its notes) and
 * the Partitions view (title, counts, the graph's caption).
 */
const VIEW_ROWS = [
  "[data-testid=color-chip], .coloring-core-name, .coloring-running, .coloring-queued, .coloring-more, [data-testid=stealing-queue-core]",
  [
    ".track-title",
    ".sync-track h4",
    ".sync-head",
    ".sync-thread",
    ".sync-track p",
    ".lane-list > li",
  ]
    .map((r) => `[data-testid=sync-view] ${r}`)
    .join(", "),
  ".repart-track > h4, .repart-stats, .repart-graph figcaption, .repart-graph > p",
].join(", ");

/**
 * The rows of the view (by default every view's rows of text, above) that
 * the view's box shows in part: a row not hidden that crosses the top or
 * the bottom of what the box shows (it scrolls; a row is whole on screen
 * or not drawn).
 */
export async function rowsCutByView(
  page: Page,
  rows = VIEW_ROWS,
): Promise<string[]> {
  return page.evaluate((rows) => {
    const box = document.querySelector<HTMLElement>(".view-box");
    if (!box) return [];
    const top = box.getBoundingClientRect().top + box.clientTop;
    const bottom = top + box.clientHeight;
    const out: string[] = [];
    for (const r of box.querySelectorAll<HTMLElement>(rows)) {
      if (getComputedStyle(r).visibility === "hidden") continue;
      const q = r.getBoundingClientRect();
      const crosses = (y: number) => q.top < y - 0.5 && q.bottom > y + 0.5;
      if (q.height > 0 && (crosses(top) || crosses(bottom)))
        out.push(
          `"${r.textContent!.trim().slice(0, 30)}" ${Math.round(q.top)}..${Math.round(q.bottom)} across the view's ${Math.round(top)}..${Math.round(bottom)}`,
        );
    }
    return out;
  }, rows);
}

/**
 * The threads view's runs whose lanes are less than `ems` of the view's
 * type tall: their chips' numbers are then too small to read on a
 * projector. A canvas that does not say its lane height counts as too thin.
 */
export async function lanesTooThin(page: Page, ems: number): Promise<string[]> {
  return page.evaluate(
    (ems) =>
      [
        ...document.querySelectorAll<HTMLCanvasElement>(
          "[data-testid=threads-view] canvas",
        ),
      ]
        .filter(
          (c) => !(Number(c.dataset.laneH) >= ems * Number(c.dataset.font)),
        )
        .map(
          (c) =>
            `${c.getAttribute("aria-label")}: lanes ${c.dataset.laneH} px in ${c.dataset.font} px type`,
        ),
    ems,
  );
}
