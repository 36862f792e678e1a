import { test, type Location } from "@playwright/test";
import { fileURLToPath } from "node:url";

/**
 * Where a spec called a helper, so that the helper's own checks are
 * reported at the spec's line rather than the helper's.
 *
 * Playwright 1.65 has two tools for this, and neither is enough alone for
 * a helper that makes a test's body: `test.step(..., { box: true })` points
 * an error at the frame that called the step's caller, which for a test's
 * body is Playwright's runner (the report then names no line at all), and
 * `test.step(..., { location })` says where the step is listed, not where
 * its error points. So such a helper notes its caller's line when the spec
 * calls it ([`callSite`]) and runs its own checks as steps listed there
 * whose failures point there ([`stepAt`]).
 */

/** The line that called the function calling `callSite` (a spec's line, when a helper asks). */
export function callSite(): Location {
  // Frames: the message, callSite, the helper, its caller.
  const frame = new Error().stack?.split("\n")[3] ?? "";
  const m = /\(?(\S+?):(\d+):(\d+)\)?$/.exec(frame.trim());
  if (!m) throw new Error(`no caller in the stack frame "${frame}"`);
  const file = m[1].startsWith("file://") ? fileURLToPath(m[1]) : m[1];
  return { file, line: Number(m[2]), column: Number(m[3]) };
}

/**
 * Run `body` as a step titled `title` listed at `at`; if it fails, its
 * error points at `at` too (its stack is that one frame), so the report
 * shows the spec's line that asked for the check.
 */
export async function stepAt<T>(
  at: Location,
  title: string,
  body: () => Promise<T>,
): Promise<T> {
  return test.step(
    title,
    async () => {
      try {
        return await body();
      } catch (e) {
        if (e instanceof Error)
          e.stack = `${e.name}: ${e.message}\n    at ${at.file}:${at.line}:${at.column}`;
        throw e;
      }
    },
    { location: at },
  );
}
