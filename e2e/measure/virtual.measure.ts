/**
 * Speed of the conductor in the browser (issue 25, "a 10,000-request virtual
 * run on 16 virtual cores under 20 s in the browser"), for
 * docs/benchmarks/virtual.md. Not a test: registered only when asked for.
 *
 *   PSMR_VIRTUAL_OUT=/tmp/virtual-browser.json PSMR_E2E_PORT=4181 \
 *   npx playwright test -c e2e virtual.measure
 *
 * Optional: PSMR_VIRTUAL_SCENARIO (default quickstart.json),
 * PSMR_VIRTUAL_REQUESTS (10000), PSMR_VIRTUAL_CORES (16), PSMR_VIRTUAL_ONLY
 * (comma-separated scheduler ids or labels: time only those; default all),
 * PSMR_VIRTUAL_ACTION_MS (60000: the limit of every click, fill and check,
 * so a hung page fails the measurement at once instead of after the
 * run's 20 minutes). Each of the
 * scenario's schedulers runs alone (the others unticked), traces on as in
 * the scenario; the wall time is from Run to the report, as a user waits
 * (stream generation and the sequential reference included). The machine's
 * load average is written beside each time. A screenshot of the run panel
 * at 1280x720 is saved next to the JSON.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { expect, test } from "@playwright/test";
import { encodeScenario } from "../../web/src/share/codec";

const out = process.env.PSMR_VIRTUAL_OUT;
if (out) {
  test("browser speed of a run on virtual cores (PSMR_VIRTUAL_OUT)", async ({
    page,
  }) => {
    test.setTimeout(1_800_000);
    page.setDefaultTimeout(
      Number(process.env.PSMR_VIRTUAL_ACTION_MS ?? 60_000),
    );
    const file = process.env.PSMR_VIRTUAL_SCENARIO ?? "quickstart.json";
    const requests = Number(process.env.PSMR_VIRTUAL_REQUESTS ?? 10_000);
    const cores = Number(process.env.PSMR_VIRTUAL_CORES ?? 16);
    const doc = JSON.parse(
      readFileSync(new URL(`../../scenarios/${file}`, import.meta.url), "utf8"),
    ) as {
      workload: { requests: number };
      schedulers: { id: string; label?: string }[];
    };
    doc.workload.requests = requests;
    const names = doc.schedulers.map((s) => s.label ?? s.id);
    const only = process.env.PSMR_VIRTUAL_ONLY?.split(",");
    const timed = doc.schedulers
      .filter(
        (s) => !only || only.includes(s.id) || only.includes(s.label ?? ""),
      )
      .map((s) => s.label ?? s.id);
    if (timed.length === 0) throw new Error(`no scheduler in ${only}`);
    const enc = await encodeScenario(JSON.stringify(doc, null, 2));
    if (!enc.ok) throw new Error(enc.error);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`/#tab=run&scenario=${enc.payload}`);
    const engine = page.getByTestId("engine-info");
    await engine.click();
    await expect(engine).toHaveAttribute("data-state", "ready");
    await page.getByTestId("run-virtual").check();
    await page.getByTestId("run-virtual-cores").fill(String(cores));
    const rows: Record<string, unknown>[] = [];
    for (const one of timed) {
      for (const n of names)
        await page.getByTestId(`run-scheduler-${n}`).setChecked(n === one);
      const load = loadavg()[0];
      const t0 = Date.now();
      await page.getByTestId("run").click();
      await expect(page.getByTestId("phase")).toHaveAttribute(
        "data-phase",
        "done",
        { timeout: 1_200_000 },
      );
      const wallMs = Date.now() - t0;
      const row = page.getByTestId("result-row").first();
      rows.push({
        scheduler: one,
        requests,
        virtual_cores: cores,
        wall_ms: wallMs,
        load_1m_before: load,
        load_1m_after: loadavg()[0],
        correct: await row.getAttribute("data-correct"),
        trace_digest: await row.getAttribute("data-trace-digest"),
      });
      console.log(JSON.stringify(rows[rows.length - 1]));
    }
    writeFileSync(out, JSON.stringify({ file, rows }, null, 2) + "\n");
    await page.screenshot({
      path: out.replace(/\.json$/, "") + "-run-panel.png",
    });
    await page
      .getByTestId("throughput-chart")
      .screenshot({ path: out.replace(/\.json$/, "") + "-chart.png" });
    await page
      .getByTestId("results")
      .screenshot({ path: out.replace(/\.json$/, "") + "-results.png" });
  });
}
