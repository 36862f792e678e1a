import { readFileSync } from "node:fs";
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import {
  fullyVisible,
  notFullyVisible,
  pageScrolls,
  presentLesson,
  shot,
} from "./classroom";
import { inLessonWith } from "../support/lesson";
import { captionsCut, lanesTooThin, rowsCutByView } from "./cuts";
import { openLab } from "./lab";

/**
 * Every lesson's bookmarks as a teacher shows them: on a projector's
 * 1280x720 in the presentation layout, the same in high contrast, and on a
 * 1920x1080 screen. At each bookmark the picture (the view) keeps a stated
 * height, side by side too, the page does not scroll, and every text of
 * the lesson bar is readable on its background (contrast ratio >= 4.5).
 * Screenshots of every bookmark are attached to the report; with
 * PSMR_DOC_IMG=1 a few go to docs/img/classroom/.
 */

interface LessonDef {
  id: string;
  title: string;
  compare?: string[];
  bookmarks: { finder: string; view: string; title: string }[];
}

const LESSONS: LessonDef[] = (
  JSON.parse(
    readFileSync(
      new URL("../../web/src/lessons/lessons.json", import.meta.url),
      "utf8",
    ),
  ) as { lessons: LessonDef[] }
).lessons;

/** The least height of the view (px) at each window size, one run or side by side. */
const MIN_PICTURE = { 720: 360, 1080: 600 } as const;

/** The screenshots kept in docs/img/classroom/ (lesson id, bookmark index, display). */
const FOR_DOCS = new Set([
  "mapping:0:present-1280",
  "repartitioning:0:present-1280",
  "epaxos:0:present-1280",
  "coloring:0:present-1280",
  "stealing:0:hc-1280",
  "repartitioning:2:hc-1280",
  "barriers:1:present-1920",
]);

test.use({ trace: "off" });

/** WCAG contrast ratio of two CSS colors `rgb(...)`/`rgba(...)` (alpha ignored: see `effectiveBackground`). */
function contrast(fg: number[], bg: number[]): number {
  const lum = ([r, g, b]: number[]) => {
    const c = [r, g, b].map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}

/**
 * Each text-bearing element under `root` (by default the lesson bar's
 * buttons, title, bookmark named, links): its text color and the background it is drawn
 * on (its own, else the nearest ancestor's that is not transparent),
 * blended by opacity (a disabled button is drawn at its opacity).
 */
async function textColors(
  page: Page,
  root: string,
  selector = "button, b, span, summary, a, label",
) {
  return page
    .locator(root)
    .first()
    .evaluate((bar, selector) => {
      const rgba = (s: string) =>
        (s.match(/[\d.]+/g) ?? []).map(Number).concat([1]).slice(0, 4);
      const out: { text: string; fg: number[]; bg: number[] }[] = [];
      const els = bar.querySelectorAll<HTMLElement>(selector);
      for (const el of els) {
        const own = [...el.childNodes].some(
          (n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== "",
        );
        if (!own || el.getBoundingClientRect().width === 0) continue;
        let bg = [0, 0, 0, 0];
        for (let p: HTMLElement | null = el; p; p = p.parentElement) {
          const c = rgba(getComputedStyle(p).backgroundColor);
          if (c[3] > 0) {
            bg = c;
            break;
          }
        }
        if (bg[3] === 0) bg = [255, 255, 255, 1];
        const fg = rgba(getComputedStyle(el).color);
        let opacity = 1;
        for (
          let p: HTMLElement | null = el;
          p && p !== bar;
          p = p.parentElement
        )
          opacity *= Number(getComputedStyle(p).opacity);
        // Text at opacity o over bg: o*fg + (1-o)*bg.
        const a = fg[3] * opacity;
        const drawn = [0, 1, 2].map((k) => a * fg[k] + (1 - a) * bg[k]);
        out.push({ text: el.textContent!.trim().slice(0, 30), fg: drawn, bg });
      }
      return out;
    }, selector);
}

async function expectReadable(
  page: Page,
  where: string,
  root = "[data-testid=lesson-bar]",
  selector?: string,
) {
  const colors = await textColors(page, root, selector);
  expect(colors.length, `${where}: texts found`).toBeGreaterThan(3);
  for (const c of colors)
    expect(
      contrast(c.fg, c.bg),
      `${where}: "${c.text}" rgb(${c.fg.map(Math.round)}) on rgb(${c.bg})`,
    ).toBeGreaterThanOrEqual(4.5);
}

/** Height of the picture: the view's box. */
async function pictureHeight(page: Page): Promise<number> {
  return (await page.locator(".view-box").boundingBox())?.height ?? 0;
}

/**
 * The ePaxos instances (the SCC boxes' and the grid of those not in an SCC
 * yet) whose circle passes the left or right side of their graph's box:
 * the grid is fitted to the width, not scrolled sideways.
 */
async function instancesOutsideCanvas(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const canvas of document.querySelectorAll(".graphs-canvas")) {
      const c = canvas.getBoundingClientRect();
      for (const inst of canvas.querySelectorAll(
        "[data-testid=instance] circle",
      )) {
        const r = inst.getBoundingClientRect();
        if (r.left < c.left - 1 || r.right > c.right + 1)
          out.push(
            `instance ${inst.parentElement!.getAttribute("data-id")}: ${Math.round(r.left)}..${Math.round(r.right)} outside ${Math.round(c.left)}..${Math.round(c.right)}`,
          );
      }
    }
    return out;
  });
}

/**
 * The texts of the dependency graphs (box labels, the pending grid's
 * label) that pass the left or right side of their graph's box, and the
 * workers' lines that pass their run's column: cut there.
 */
async function graphTextsOutsideCanvas(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const track of document.querySelectorAll(".graphs-track")) {
      // The workers' lines under a graph wrap inside the run's column.
      const w = track.getBoundingClientRect();
      for (const li of track.querySelectorAll("[data-testid=thread-list] li")) {
        const r = li.getBoundingClientRect();
        if (r.right > w.right + 1)
          out.push(
            `"${li.textContent}": ends at ${Math.round(r.right)}, past its run's column ${Math.round(w.left)}..${Math.round(w.right)}`,
          );
      }
    }
    for (const canvas of document.querySelectorAll(".graphs-canvas")) {
      const c = canvas.getBoundingClientRect();
      for (const t of canvas.querySelectorAll("svg text")) {
        const r = t.getBoundingClientRect();
        if (r.width > 0 && (r.left < c.left - 1 || r.right > c.right + 1))
          out.push(
            `"${t.textContent}": ${Math.round(r.left)}..${Math.round(r.right)} outside ${Math.round(c.left)}..${Math.round(c.right)}`,
          );
      }
    }
    return out;
  });
}

/**
 * Every run's dependency graph on screen (side by side, not one below the
 * other past the view's bottom): each run's heading and its first SCC box
 * inside the view and the window, and no graph text cut at a side.
 */
async function expectGraphsOnScreen(page: Page, where: string) {
  expect(
    await instancesOutsideCanvas(page),
    `${where}: ePaxos instances cut at the right of their graph`,
  ).toEqual([]);
  expect(
    await graphTextsOutsideCanvas(page),
    `${where}: graph texts cut at a side of their graph`,
  ).toEqual([]);
  expect(
    await notFullyVisible(page.locator(".graphs-track > h4")),
    `${where}: runs' graph headings not on screen`,
  ).toBe(0);
  // Each run's graph starts on screen: its first SCC box (the one found
  // first) is whole. A run with many SCCs may stack later ones past the
  // bottom, the view scrolls to them.
  const tracks = page.getByTestId("epaxos-track");
  for (let k = 0; k < (await tracks.count()); k++) {
    const first = tracks.nth(k).locator("[data-testid=scc-box]").first();
    if ((await first.count()) > 0)
      expect(
        await fullyVisible(first),
        `${where}: run ${k + 1}'s first SCC box below the view's bottom`,
      ).toBe(true);
  }
}

/**
 * The pseudo-code rows (listing titles, lines) that show cut in half: a
 * row not hidden that crosses the top or the bottom of what its listing
 * box shows (the box, clipped by its panel and the column, above the
 * timeline); the panels that reach past the column or under the timeline;
 * and the current lines that are not whole on screen. Empty when every panel shows whole lines only.
 */
async function pseudoRowsCut(page: Page): Promise<string[]> {
  const out = await page.evaluate(() => {
    const cut: string[] = [];
    document
      .querySelectorAll<HTMLElement>(".pseudo-listings")
      .forEach((b, k) => {
        const box = b.getBoundingClientRect();
        const top = box.top;
        // The box, clipped by every ancestor that clips what does not fit,
        // and never under the timeline (drawn over what reaches it).
        const timeline = document.querySelector(".classroom > .timeline");
        let bottom = Math.min(
          box.top + b.clientHeight,
          timeline?.getBoundingClientRect().top ?? Infinity,
        );
        for (let a = b.parentElement; a; a = a.parentElement) {
          const overflow = getComputedStyle(a).overflowY;
          if (overflow !== "hidden" && overflow !== "clip") continue;
          const r = a.getBoundingClientRect();
          bottom = Math.min(bottom, r.top + a.clientTop + a.clientHeight);
        }
        for (const r of b.querySelectorAll<HTMLElement>(
          ".pseudo-listing > h4, .pseudo-line",
        )) {
          const q = r.getBoundingClientRect();
          const crosses = (y: number) => q.top < y - 0.5 && q.bottom > y + 0.5;
          // A hidden row is one the box cut (PseudoPanel's hideCutRows).
          if (getComputedStyle(r).visibility === "hidden") continue;
          if (crosses(top) || crosses(bottom))
            cut.push(
              `panel ${k + 1}: "${r.textContent!.trim().slice(0, 40)}" ${Math.round(q.top)}..${Math.round(q.bottom)} across ${Math.round(top)}..${Math.round(bottom)}`,
            );
        }
      });
    // Each panel keeps its whole box (its caption, its current line) inside
    // the pseudo-code column and above the timeline: none is sized past it.
    const side = document.querySelector(".classroom-side");
    const timeline = document.querySelector(".classroom > .timeline");
    if (side)
      document.querySelectorAll(".pseudo-panel").forEach((p, k) => {
        const q = p.getBoundingClientRect();
        const end = Math.min(
          side.getBoundingClientRect().bottom,
          timeline?.getBoundingClientRect().top ?? Infinity,
        );
        if (q.bottom > end + 0.5)
          cut.push(
            `panel ${k + 1}: its box ends at ${Math.round(q.bottom)}, past the column's end ${Math.round(end)}`,
          );
      });
    return cut;
  });
  const panels = page.getByTestId("pseudo-panel");
  for (let k = 0; k < (await panels.count()); k++) {
    const line = panels.nth(k).locator("[data-current=true]");
    if ((await line.count()) === 1 && !(await fullyVisible(line)))
      out.push(`panel ${k + 1}: its current line is not whole on screen`);
  }
  return out;
}

/** Click bookmark `i` if the run reached it; false if it did not (an optional moment). */
async function openBookmark(page: Page, i: number): Promise<boolean> {
  const b = page.getByTestId(`bookmark-${i}`);
  if (!(await b.isEnabled())) return false;
  await b.click();
  await expect(page.locator(".view-box")).toBeVisible();
  return true;
}

/**
 * The threads view's runs whose lanes do not all show: a run's cell that
 * scrolls inside (its canvas taller than its share of the view) hides its
 * last lanes while a caption may name their threads.
 */
async function laneCellsCut(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll(".track-stack .track-cell")]
      .filter((c) => c.scrollHeight > c.clientHeight + 1)
      .map(
        (c) =>
          `${c.querySelector(".track-title")?.textContent ?? "the run"}: ${c.scrollHeight} px of lanes in ${c.clientHeight}`,
      ),
  );
}

/**
 * What the class reads is whole: every caption's sentence (none clamped),
 * the Colors & steals view's chip rows (none half under the view's edge),
 * and the threads view's lanes tall enough for their chips' numbers
 * (1.5 em: at 1.1 em they were 7 px).
 */
async function expectNothingCut(page: Page, where: string) {
  await expect
    .poll(() => captionsCut(page), {
      message: `${where}: captions cut`,
      timeout: 5000,
    })
    .toEqual([]);
  await expect
    .poll(() => rowsCutByView(page), {
      message: `${where}: chip rows cut by the view's edge`,
      timeout: 5000,
    })
    .toEqual([]);
  await expect
    .poll(() => lanesTooThin(page, 1.5), {
      message: `${where}: threads view lanes too thin to read their chips`,
      timeout: 5000,
    })
    .toEqual([]);
}

/** Every bookmark of `l` in the current display: picture height, no page scroll, screenshots. */
async function walkBookmarks(
  page: Page,
  info: TestInfo,
  l: LessonDef,
  mode: string,
  minPicture: number,
) {
  let opened = 0;
  for (let i = 0; i < l.bookmarks.length; i++) {
    if (!(await openBookmark(page, i))) continue;
    opened++;
    const where = `${l.id} ${mode} bookmark ${i + 1} (${l.bookmarks[i].title})`;
    await expect
      .poll(() => pictureHeight(page), {
        message: `${where}: picture height`,
        timeout: 15_000,
      })
      .toBeGreaterThanOrEqual(minPicture);
    expect(await pageScrolls(page), `${where}: page scrolls`).toBe(false);
    // The one-line bar names the chosen bookmark whole (it had shrunk to "A…"
    // beside a what-if tag or the virtual-cores button).
    const chosen = page.getByTestId("bookmark-chosen");
    if ((await chosen.count()) > 0)
      expect(
        await chosen.evaluate((e) => e.scrollWidth <= e.clientWidth + 1),
        `${where}: the chosen bookmark's name "${l.bookmarks[i].title}" is cut`,
      ).toBe(true);
    expect(
      await fullyVisible(page.getByTestId("scrubber")),
      `${where}: timeline`,
    ).toBe(true);
    if (
      l.bookmarks[i].finder === "color-steal" &&
      l.bookmarks[i].view === "coloring"
    )
      await expect
        .poll(() => fullyVisible(page.getByTestId("coloring-steal").first()), {
          message: `${where}: the steal arrow inside the view and the window`,
        })
        .toBe(true);
    if (l.bookmarks[i].view === "coloring") {
      // The stolen color's lane (its executions, never overlapping) under the steal, not cut by the view.
      if (l.bookmarks[i].finder === "color-steal")
        await expect
          .poll(() => fullyVisible(page.getByTestId("coloring-lane").first()), {
            message: `${where}: the color lane inside the view and the window`,
          })
          .toBe(true);
      // A chip per color with queued events only: no "c0×0" for an emptied color-queue.
      await expect(
        page.locator("[data-testid=color-chip][data-count='0']"),
        `${where}: a chip for a color with no queued event`,
      ).toHaveCount(0);
    }
    if (l.bookmarks[i].view === "graph")
      await expectGraphsOnScreen(page, where);
    await expect
      .poll(() => pseudoRowsCut(page), {
        message: `${where}: pseudo-code rows cut`,
        timeout: 5000,
      })
      .toEqual([]);
    await expect
      .poll(() => laneCellsCut(page), {
        message: `${where}: threads view lanes hidden`,
        timeout: 5000,
      })
      .toEqual([]);
    await expectNothingCut(page, where);
    await shot(
      page,
      info,
      `classroom/${l.id}-${i + 1}-${mode}`,
      FOR_DOCS.has(`${l.id}:${i}:${mode}`),
    );
  }
  expect(opened, `${l.id} ${mode}: bookmarks reached`).toBeGreaterThan(0);
}

/** On a projector's 1280x720, the engine up, `lesson` started in the presentation layout; the page's problems. */
async function projectLesson(page: Page, lesson: string): Promise<string[]> {
  await page.setViewportSize({ width: 1280, height: 720 });
  const { problems } = await openLab(page);
  await presentLesson(page, lesson);
  return problems;
}

/** The body of a test of `lesson` started on a projector (`projectLesson`), see `inLessonWith`. */
const inProjectedLesson = inLessonWith(projectLesson);

test.beforeEach(async ({ page }) => {
  // Each test starts from the default display (the settings persist in localStorage).
  await page.addInitScript(() => {
    if (!sessionStorage.getItem("psmr-layout-init")) {
      localStorage.removeItem("psmr-display");
      sessionStorage.setItem("psmr-layout-init", "1");
    }
  });
});

test("the first screen at 1280x720 shows every lesson card whole", async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto("/");
  const cards = page.locator(".lesson-card");
  await expect(cards).toHaveCount(LESSONS.length);
  for (const l of LESSONS)
    expect(
      await fullyVisible(page.getByTestId(`start-lesson-${l.id}`)),
      `lesson card ${l.id}: its start button on screen`,
    ).toBe(true);
  await shot(page, info, "classroom/lessons-1280", false);
  // The scenario sidebar does not compete with the cards: folded to a strip that opens it.
  await expect(page.getByTestId("sidebar")).toHaveCount(0);
  await page.getByTestId("sidebar-unfold").click();
  await expect(page.getByTestId("scenario-picker")).toBeVisible();
  await page.getByTestId("sidebar-fold").click();
  await expect(page.getByTestId("sidebar")).toHaveCount(0);
  await page.getByTestId("present").click();
  await expect(page.getByTestId("sidebar-folded")).toHaveCount(0);
  await expect(page.getByTestId("sidebar")).toHaveCount(0);
  for (const l of LESSONS)
    expect(
      await fullyVisible(page.getByTestId(`start-lesson-${l.id}`)),
      `present: lesson card ${l.id}: its start button on screen`,
    ).toBe(true);
  await shot(page, info, "classroom/lessons-1280-present", false);
});

for (const l of LESSONS) {
  test(`lesson ${l.id}: every bookmark at 1280x720 presenting, in high contrast, and at 1920x1080`, async ({
    page,
  }, info) => {
    test.setTimeout(120_000);
    const problems = await projectLesson(page, l.id);
    await expect(page.getByTestId("timeline")).toBeVisible();
    await walkBookmarks(page, info, l, "present-1280", MIN_PICTURE[720]);
    await expectReadable(page, `${l.id} present-1280`);
    if ((l.compare ?? []).length > 1) {
      // The lesson's runs side by side: the picture keeps its height.
      await page.getByTestId("lesson-more").click();
      await page.getByTestId("lesson-compare").click();
      await expect(page.getByTestId("classroom")).toHaveAttribute(
        "data-compare",
        "true",
      );
      await expect
        .poll(() => pictureHeight(page), {
          message: `${l.id}: side by side, picture height`,
          timeout: 5000,
        })
        .toBeGreaterThanOrEqual(MIN_PICTURE[720]);
      expect(await pageScrolls(page), `${l.id}: compare scrolls`).toBe(false);
      await expect
        .poll(() => pseudoRowsCut(page), {
          message: `${l.id}: side by side, pseudo-code rows cut`,
          timeout: 5000,
        })
        .toEqual([]);
      await shot(page, info, `classroom/${l.id}-compare-present-1280`, false);
      // The threads view side by side: each run's class (or color) legend whole, not cut under the lanes.
      await page.locator(".view-tab", { hasText: "Threads & queues" }).click();
      const legends = page.locator(
        "[data-testid=class-legend], [data-testid=color-legend]",
      );
      await expect(legends.first()).toBeVisible();
      await expect
        .poll(() => notFullyVisible(legends), {
          message: `${l.id}: side by side, threads view legends cut`,
          timeout: 5000,
        })
        .toBe(0);
      await expect
        .poll(() => laneCellsCut(page), {
          message: `${l.id}: side by side, threads view lanes hidden`,
          timeout: 5000,
        })
        .toEqual([]);
      await expectNothingCut(page, `${l.id}: side by side`);
      await shot(
        page,
        info,
        `classroom/${l.id}-compare-threads-present-1280`,
        false,
      );
    }

    await page.getByTestId("high-contrast").check();
    await expectReadable(page, `${l.id} high contrast`);
    await page.getByTestId("lesson-more").click();
    await expectReadable(page, `${l.id} high contrast, more open`);
    await page.getByTestId("lesson-more").click();
    // Every control of the classroom: run list, view tabs, jumps, timeline buttons.
    await expectReadable(
      page,
      `${l.id} high contrast, classroom controls`,
      ".classroom-panel",
      "button, label",
    );
    await walkBookmarks(page, info, l, "hc-1280", MIN_PICTURE[720]);

    await page.getByTestId("high-contrast").uncheck();
    await page.setViewportSize({ width: 1920, height: 1080 });
    await walkBookmarks(page, info, l, "present-1920", MIN_PICTURE[1080]);
    expect(problems).toEqual([]);
  });
}

test("a what-if of a two-run lesson: four runs side by side keep the picture's height at 1280x720", inProjectedLesson("epaxos", async ({
  page,
}, info) => {
  await page.getByTestId("lesson-more").click();
  await page.getByTestId("what-if-threads").click();
  await expect(page.getByTestId("what-if-tag")).toBeVisible({
    timeout: 60_000,
  });
  // Each run beside its run before the change.
  await expect(page.getByTestId("classroom-side")).toHaveAttribute(
    "data-count",
    "4",
  );
  await expect
    .poll(() => pictureHeight(page), {
      message: "four runs: picture height",
      timeout: 10_000,
    })
    .toBeGreaterThanOrEqual(MIN_PICTURE[720]);
  expect(await pageScrolls(page)).toBe(false);
  // At the collision, in the four runs.
  await page.getByTestId("bookmark-0").click();
  await expect
    .poll(() => pictureHeight(page), { message: "four runs at a bookmark" })
    .toBeGreaterThanOrEqual(MIN_PICTURE[720]);
  // Each run's panel shows whole lines, its current line among them.
  await expect
    .poll(() => pseudoRowsCut(page), {
      message: "four runs: pseudo-code rows cut",
      timeout: 5000,
    })
    .toEqual([]);
  await shot(page, info, "classroom/epaxos-what-if-present-1280");
  // The graphs two at a time, each pair chosen by name: both graphs of a pair whole on screen.
  const pairs = page.getByTestId("graphs-pair");
  await expect(pairs).toHaveCount(2);
  for (let k = 0; k < 2; k++) {
    await pairs.nth(k).click();
    await expect(pairs.nth(k)).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByTestId("epaxos-track")).toHaveCount(2);
    // A new pair lays its graphs out once their columns are measured.
    await expect
      .poll(() => graphTextsOutsideCanvas(page), {
        message: `four runs, pair ${k + 1}: graph texts cut`,
        timeout: 5000,
      })
      .toEqual([]);
    await expectGraphsOnScreen(page, `four runs, pair ${k + 1}`);
  }
  await shot(page, info, "classroom/epaxos-what-if-pair-2-present-1280");
}));

test("a reload during a lesson comes back to the lesson and its moment; a moment the run lacks is said on screen", inProjectedLesson("barriers", async ({
  page,
}) => {
  await page.getByTestId("bookmark-1").click();
  await expect(page.getByTestId("view-sync")).toHaveAttribute(
    "aria-selected",
    "true",
  );
  const at = Number(
    await page.getByTestId("position").getAttribute("data-completed"),
  );
  // The moment reaches the address bar a little after it is shown (the
  // hash already holds the lesson's earlier moment: wait for this one).
  await expect
    .poll(() => {
      const p = new URLSearchParams(new URL(page.url()).hash.slice(1));
      return p.get("view") === "sync" && !!p.get("at");
    })
    .toBe(true);
  await page.reload();
  await expect(page.getByTestId("lesson-bar")).toHaveAttribute(
    "data-lesson",
    "barriers",
    { timeout: 60_000 },
  );
  await expect(page.getByTestId("view-sync")).toHaveAttribute(
    "aria-selected",
    "true",
  );
  // A new run has new timings: the moment is found by what happened (the same release or requests completed).
  await expect
    .poll(async () =>
      Number(await page.getByTestId("position").getAttribute("data-position")),
    )
    .toBeGreaterThan(0);
  expect(
    Number(await page.getByTestId("position").getAttribute("data-completed")),
  ).toBeGreaterThanOrEqual(Math.max(0, at - 2));
  await expect(page.getByTestId("moment-missing")).toHaveCount(0);
  // The early scheduler never steals: a link to its third steal says so.
  // (The address bar follows the replay a little later: let it settle first.)
  await page.waitForTimeout(1000);
  await page.evaluate(() => {
    location.hash = location.hash.replace(/at=[^&]*/, "at=steal%3A3");
  });
  expect(page.url()).toContain("at=steal%3A3");
  await page.reload();
  await expect(page.getByTestId("moment-missing")).toContainText(
    "never reached",
    { timeout: 60_000 },
  );
  // The next lesson (the same scenario, other runs) offers its own runs only.
  await presentLesson(page, "cycles");
  await expect(page.getByTestId("pick-busy-wait")).toBeVisible();
  await expect(
    page.locator("[data-testid^=pick-before-]"),
    "no run of the lesson before",
  ).toHaveCount(0);
  await page.getByTestId("lesson-more").click();
  await expect(page.getByTestId("compare-before")).toHaveCount(0);
}));
