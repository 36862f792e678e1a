import type { Page } from "@playwright/test";
import { replayOnly, runScenario } from "../tests/classroom";
import { openLab } from "../tests/lab";

/**
 * Open the lab, run the shipped scenario `file` and open its replay in the
 * Classroom, showing only the run of `scheduler` when one is named.
 * Returns the page and console errors seen from the start (see `openLab`).
 */
export async function openReplay(page: Page, file: string, scheduler?: string) {
  const { problems } = await openLab(page);
  await runScenario(page, file);
  if (scheduler !== undefined) await replayOnly(page, scheduler);
  return problems;
}
