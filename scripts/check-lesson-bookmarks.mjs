#!/usr/bin/env node
// Does every lesson bookmark find its moment in every run, on real threads and on virtual cores?
//
//   node scripts/check-lesson-bookmarks.mjs [--runs 30] [--modes real,real-2,virtual-16]
//        [--lessons coloring,stealing] [--psmr engine/target/release/psmr] [--json out.json] [--keep DIR]
//
// For each scenario of web/src/lessons/lessons.json (lessons that open the
// same scenario with the same options share its runs), runs it `--runs`
// times with `psmr run FILE --json --trace-dir DIR` (the lesson's
// `options.requests` as `--requests`) in each mode:
//   real        real threads, the scenario's own thread count;
//   real-2      real threads, `--threads 2` (only where the scenario has
//               another count: otherwise it is `real`);
//   virtual-N   N virtual cores with the scenario's thread count (a
//               model's runs: deterministic per seed, so run i takes stream
//               seed i, and every line says so).
// Then replays every run's traces with the web app's own code (vitest,
// web/src/views/lessonRuns.cli.test.ts: the lesson bar's tracks and
// bookmark finders) and prints, per lesson, bookmark and mode, the runs in
// which the lesson bar finds the bookmark. Exits 1 if a bookmark the lesson
// does not mark optional misses in any run (or a run is not correct).
// The same vitest file samples 120 steps of every lesson track of the first
// 3 runs of each mode with the views' consistency kit (views/consistency.ts).
// Every run of a mode runs one after the other; the machine's load is what
// it is, and the real-thread rates depend on it.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chosenLessons, opt, psmrBinary, root } from "./lesson-cli.mjs";

const runs = Number(opt("runs", 30));
const modes = opt("modes", "real,real-2,virtual-16").split(",");
const psmr = psmrBinary();
const jsonOut = opt("json", "");
const keep = opt("keep", "");
const lessons = chosenLessons();

/** `psmr run` arguments of a mode, or null when the mode is the same as `real` for this scenario. */
function modeArgs(mode, threads, i) {
  if (mode === "real") return { label: "real threads", args: [] };
  if (mode === "real-2")
    return threads === 2
      ? null
      : { label: "real threads, 2 threads", args: ["--threads", "2"] };
  const v = /^virtual-(\d+)$/.exec(mode);
  if (!v) throw new Error(`unknown mode ${mode}`);
  return {
    label: `virtual ${v[1]} cores (model, reference cost table)`,
    args: [
      "--virtual-cores",
      v[1],
      "--threads",
      String(threads),
      "--seed",
      String(i),
    ],
  };
}

const work = keep || mkdtempSync(join(tmpdir(), "lesson-bookmarks-"));
mkdirSync(work, { recursive: true });
const groups = new Map();
for (const l of lessons) {
  const key = JSON.stringify([l.scenario, l.options?.requests ?? null]);
  groups.set(key, [...(groups.get(key) ?? []), l]);
}
const entries = [];
let failed = 0;
let g = 0;
for (const ls of groups.values()) {
  const file = join(root, "scenarios", ls[0].scenario);
  const threads = JSON.parse(readFileSync(file, "utf8")).threads;
  const requests = ls[0].options?.requests;
  for (const mode of modes) {
    for (let i = 1; i <= runs; i++) {
      const m = modeArgs(mode, threads, i);
      if (!m) break;
      const dir = join(work, `g${g}`, mode, String(i));
      mkdirSync(dir, { recursive: true });
      const out = execFileSync(
        psmr,
        [
          "run",
          file,
          "--json",
          "--trace-dir",
          dir,
          ...(requests ? ["--requests", String(requests)] : []),
          ...m.args,
        ],
        { encoding: "utf8", maxBuffer: 256 << 20 },
      );
      const report = JSON.parse(out);
      for (const r of report.runs)
        if (!r.correct) {
          failed++;
          console.error(
            `${ls[0].scenario} ${mode} run ${i}: ${r.label} is not correct`,
          );
        }
      writeFileSync(join(dir, "report.json"), out);
      entries.push({
        lessons: ls.map((l) => l.id),
        scenario: ls[0].scenario,
        threads: mode === "real-2" ? 2 : threads,
        mode: m.label,
        index: i,
        report: join(dir, "report.json"),
        traces: dir,
      });
    }
    process.stderr.write(`ran ${ls[0].scenario} ${mode}\n`);
  }
  g++;
}
writeFileSync(join(work, "manifest.json"), JSON.stringify({ entries }) + "\n");

let vitestFailed = false;
try {
  execFileSync("npx", ["vitest", "run", "src/views/lessonRuns.cli.test.ts"], {
    cwd: join(root, "web"),
    env: { ...process.env, PSMR_LESSON_RUNS: work },
    stdio: ["ignore", "inherit", "inherit"],
  });
} catch {
  vitestFailed = true;
}
if (!existsSync(join(work, "hits.json"))) {
  console.error("the vitest check wrote no hits.json");
  process.exit(1);
}
const hits = JSON.parse(readFileSync(join(work, "hits.json"), "utf8"));
const rows = new Map();
for (const h of hits) {
  const e = entries.find(
    (x) =>
      x.lessons.includes(h.lesson) && x.mode === h.mode && x.index === h.index,
  );
  h.hits.forEach((b, k) => {
    const key = `${h.lesson}\t${k}\t${h.mode}`;
    const row = rows.get(key) ?? {
      lesson: h.lesson,
      scenario: e.scenario,
      finder: b.finder,
      title: b.title,
      run: b.run ?? null,
      optional: b.optional,
      mode: h.mode,
      threads: e.threads,
      runs: 0,
      shown: 0,
      missed: [],
    };
    row.runs++;
    if (b.shown) row.shown++;
    else row.missed.push(h.index);
    rows.set(key, row);
  });
}
for (const r of rows.values()) {
  const ok = r.shown === r.runs;
  if (!ok && !r.optional) failed++;
  console.log(
    `${ok ? "PASS" : r.optional ? "OPT " : "FAIL"} ${r.lesson}: ${r.finder} "${r.title}"${r.run ? ` in ${r.run}` : ""}: ` +
      `${r.shown}/${r.runs} runs, ${r.threads} threads, ${r.mode}` +
      (/^virtual/.test(r.mode) ? `, seeds 1..${r.runs}` : "") +
      (ok ? "" : ` (missed in runs ${r.missed.join(",")})`),
  );
}
if (jsonOut)
  writeFileSync(
    jsonOut,
    JSON.stringify({ runs, modes, results: [...rows.values()] }, null, 2) +
      "\n",
  );
if (!keep) rmSync(work, { recursive: true, force: true });
process.exit(failed > 0 || vitestFailed ? 1 : 0);
