#!/usr/bin/env node
// Does every classroom lesson show its mechanism in every run?
//
//   node scripts/check-classroom.mjs [--runs 20] [--cores 0,1] [--psmr engine/target/release/psmr] [--json out.json]
//                                    [--lessons late,epaxos] [--virtual-cores 16]
//   node scripts/check-classroom.mjs --virtual [--runs 10] [--psmr ...] [--json out.json] [--lessons ...]
//
// For each scenario of web/src/lessons/lessons.json, runs it `--runs` times
// natively (`psmr run FILE --json`, with the lesson's `options.requests`
// as `--requests`) and reads, per run, the report figure each lesson names
// for the runs it names: a counter (steals, barrier waits, cycle waits,
// dependency waits), a per-thread figure (`threads_used`, as scenario
// expectations count it), a scheduler metric of `metrics.extra`
// (repartitions, refused_time_left), or a path from the report's
// root (`stream.scc.largest`), or `stolen_beyond_steals` (events steals
// moved beyond one each: above 0, some steal moved a color of several
// events). `--cores 0` pins every run to one core with taskset (a
// harsher test than the machine's own cores: the threads then only
// alternate). `--virtual-cores N` runs on N virtual cores instead (a
// model's runs: deterministic per seed, so run i takes stream seed i + 1
// and every line says so). Prints one line per lesson mechanism and exits 1
// if any run missed one.
//
// `--virtual`: instead, for each lesson with a `virtual` run, run its
// scenario on the lesson's virtual cores (`--virtual-cores N`, reference
// cost table, no trace) with stream seeds 1..runs (a virtual run is
// deterministic: other seeds, not repeats, are what vary) and check each
// outcome the lesson claims (`better` beats `worse` on its figure, as
// web/src/lessons/outcome.ts reads it). Every number is a model's.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { chosenLessons, flag, opt, psmrBinary, root } from "./lesson-cli.mjs";

const runs = Number(opt("runs", 20));
const cores = opt("cores", "");
const psmr = psmrBinary();
const jsonOut = opt("json", "");
const virtualCores = opt("virtual-cores", "");
// `--lessons a,b`: only those lessons (the others keep their last recorded results).
const lessons = chosenLessons();

if (flag("virtual"))
  process.exit(checkVirtual(lessons.filter((l) => l.virtual)));

/** More throughput is better; a lower latency percentile is (web/src/lessons/outcome.ts). */
function outcomeFigure(run, figure) {
  return figure === "throughput"
    ? run.throughput_ops_s
    : run.latency_us?.[figure];
}

/** The `--virtual` check: exit code 1 if any seed's virtual run misses a claimed outcome. */
function checkVirtual(ls) {
  const out = [];
  let missed = 0;
  for (const l of ls) {
    const { cores, outcome } = l.virtual;
    const rows = outcome.map((o) => ({ ...o, values: [] }));
    // A lesson that claims no outcome is not run.
    for (let seed = 1; rows.length > 0 && seed <= runs; seed++) {
      const report = JSON.parse(
        execFileSync(
          psmr,
          [
            "run",
            join(root, "scenarios", l.scenario),
            "--json",
            "--no-trace",
            "--virtual-cores",
            String(cores),
            "--seed",
            String(seed),
            ...(l.options?.requests
              ? ["--requests", String(l.options.requests)]
              : []),
          ],
          { encoding: "utf8", maxBuffer: 64 << 20 },
        ),
      );
      for (const r of report.runs)
        if (!r.correct)
          (missed++,
            console.error(`${l.id}: seed ${seed}: ${r.label} is not correct`));
      const find = (n) =>
        report.runs.find((r) => r.label === n) ??
        report.runs.find((r) => r.scheduler === n);
      for (const row of rows) {
        const b = outcomeFigure(find(row.better) ?? {}, row.figure);
        const w = outcomeFigure(find(row.worse) ?? {}, row.figure);
        const holds =
          b !== undefined &&
          w !== undefined &&
          (row.figure === "throughput" ? b > w : b < w);
        row.values.push({ seed, better: b, worse: w, holds });
      }
    }
    if (rows.length === 0)
      console.log(
        `NONE ${l.id}: virtual ${cores} cores (model): the lesson claims no outcome`,
      );
    for (const row of rows) {
      const shown = row.values.filter((v) => v.holds).length;
      if (shown < runs) missed++;
      const ratios = row.values.map((v) =>
        row.figure === "throughput" ? v.better / v.worse : v.worse / v.better,
      );
      console.log(
        `${shown === runs ? "PASS" : "FAIL"} ${l.id}: ${row.better} beats ${row.worse} on ${row.figure} in ${shown}/${runs} ` +
          `seeds, virtual ${cores} cores (model, reference cost table); margin x${fmt(Math.min(...ratios))} to x${fmt(Math.max(...ratios))}`,
      );
      out.push({
        lesson: l.id,
        cores,
        mode: `virtual ${cores} cores (model, reference cost table)`,
        ...row,
        seeds: runs,
        shown,
      });
    }
  }
  if (jsonOut)
    writeFileSync(
      jsonOut,
      JSON.stringify({ seeds: runs, results: out }, null, 2) + "\n",
    );
  return missed > 0 ? 1 : 0;
}

// Lessons that run the same scenario with the same options share its runs.
const byScenario = new Map();
for (const l of lessons) {
  const key = JSON.stringify([l.scenario, l.options?.requests ?? null]);
  const list = byScenario.get(key) ?? [];
  list.push(l);
  byScenario.set(key, list);
}

/** The figure `name` of report run `run` (undefined when the report has none). */
function figure(report, run, name) {
  if (name.startsWith("stream.")) {
    let v = report;
    for (const part of name.split(".")) v = v?.[part];
    return typeof v === "number" ? v : undefined;
  }
  if (name === "threads_used")
    return run.metrics.threads.filter((t) => t.executed > 0).length;
  if (name === "stolen_beyond_steals") {
    const { steals, stolen_requests: stolen } = run.metrics.counters;
    return steals === undefined || stolen === undefined
      ? undefined
      : stolen - steals;
  }
  return run.metrics.counters[name] ?? run.metrics.extra?.[name];
}

const results = [];
let failed = 0;
for (const ls of byScenario.values()) {
  const scenario = ls[0].scenario;
  const requests = ls[0].options?.requests;
  const counts = new Map(); // "lesson/run/counter" -> numbers per run
  for (let i = 0; i < runs; i++) {
    const cmd = cores ? "taskset" : psmr;
    const cmdArgs = [
      ...(cores ? ["-c", cores, psmr] : []),
      "run",
      join(root, "scenarios", scenario),
      "--json",
      ...(requests ? ["--requests", String(requests)] : []),
      ...(virtualCores
        ? ["--virtual-cores", virtualCores, "--seed", String(i + 1)]
        : []),
    ];
    const report = JSON.parse(
      execFileSync(cmd, cmdArgs, { encoding: "utf8", maxBuffer: 64 << 20 }),
    );
    for (const r of report.runs) {
      if (!r.correct) {
        console.error(
          `${scenario}: run ${i + 1}: ${r.label} is not correct: ${r.violation}`,
        );
        failed++;
      }
    }
    for (const l of ls) {
      for (const m of l.mechanism) {
        const run = report.runs.find(
          (r) => r.label === m.run || r.scheduler === m.run,
        );
        const key = `${l.id}\t${m.run}\t${m.counter}`;
        const list = counts.get(key) ?? [];
        const v = run ? figure(report, run, m.counter) : undefined;
        if (run && v === undefined)
          console.error(
            `${scenario}: ${m.run} has no ${m.counter} in its report`,
          );
        list.push(v ?? -1);
        counts.set(key, list);
      }
    }
  }
  for (const l of ls) {
    for (const m of l.mechanism) {
      const xs = counts.get(`${l.id}\t${m.run}\t${m.counter}`);
      const shown = xs.filter((x) => x >= m.at_least).length;
      const sorted = [...xs].sort((a, b) => a - b);
      const line = {
        lesson: l.id,
        scenario,
        requests: requests ?? null,
        run: m.run,
        counter: m.counter,
        runs,
        shown,
        min: sorted[0],
        median: sorted[Math.floor(sorted.length / 2)],
        max: sorted[sorted.length - 1],
        values: xs,
      };
      results.push(line);
      if (shown < runs) failed++;
      console.log(
        `${shown === runs ? "PASS" : "FAIL"} ${l.id}: ${m.run} ${m.counter} >= ${m.at_least} in ${shown}/${runs} runs` +
          ` (min ${fmt(line.min)}, median ${fmt(line.median)}, max ${fmt(line.max)})${cores ? ` [taskset -c ${cores}]` : ""}` +
          (virtualCores
            ? ` [virtual ${virtualCores} cores (model, reference cost table), seeds 1..${runs}]`
            : ""),
      );
    }
  }
}
function fmt(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}

if (jsonOut) {
  const mode = virtualCores
    ? `virtual ${virtualCores} cores (model, reference cost table)`
    : "real threads";
  writeFileSync(
    jsonOut,
    JSON.stringify({ runs, cores: cores || "all", mode, results }, null, 2) +
      "\n",
  );
}
process.exit(failed > 0 ? 1 : 0);
