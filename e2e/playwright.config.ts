import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests against the built app served by `vite preview`
 * (cross-origin isolated, see web/vite.config.ts), in Debian's Chromium:
 * Playwright's own browser download is not available here.
 *
 * `npm test` builds the wasm engine and the app before this runs; to run
 * only these tests: `PSMR_HARNESS=1 npm run build -w web && npx playwright test -c e2e`
 * (PSMR_HARNESS=1 adds the harness page the synthetic-trace load test opens).
 */
const PORT = Number(process.env.PSMR_E2E_PORT ?? 4173);
const CHROMIUM = process.env.PSMR_CHROMIUM ?? "/usr/bin/chromium";

/**
 * Measurements for the benchmark docs (e2e/measure: a browser sweep, the
 * clock's resolution) are not tests: their project exists only when one is
 * asked for, so a normal run neither runs nor counts them.
 */
const measuring = !!(
  process.env.PSMR_SWEEP_SCENARIO ||
  process.env.PSMR_TIMER_OUT ||
  process.env.PSMR_VIRTUAL_OUT ||
  process.env.PSMR_FIRSTLOAD_OUT
);

export default defineConfig({
  testDir: "./tests",
  projects: [
    { name: "e2e", testDir: "./tests" },
    ...(measuring
      ? [{ name: "measure", testDir: "./measure", testMatch: "*.measure.ts" }]
      : []),
  ],
  timeout: 120_000,
  expect: { timeout: 60_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    // PSMR_E2E_DIST: serve another build of the app (an absolute path),
    // e.g. a "before" build kept by scripts/bench-wasm-vs-native.sh.
    command: `npm run preview -w web -- --port ${PORT} --strictPort${process.env.PSMR_E2E_DIST ? ` --outDir ${process.env.PSMR_E2E_DIST}` : ""}`,
    cwd: "..",
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
