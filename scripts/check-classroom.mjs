#!/usr/bin/env node
// Does every classroom lesson show its mechanism in every run?
//
//   node scripts/check-classroom.mjs [--runs 20] [--cores 0,1] [--psmr engine/target/release/psmr] [--json out.json]
//
// For each scenario of web/src/lessons/lessons.json, runs it `--runs` times
// natively (`psmr run FILE --json`) and counts, per run, the report
// counter each lesson names (steals, barrier waits, cycle waits; or a
// runtime metric of the report's `extra`, e.g. refused_time_left) for the
// runs it names. `--cores 0` pins every run to one core with taskset (a
// harsher test than the machine's own cores: the threads then only
// alternate). Prints one line per lesson mechanism and exits 1 if any run
// missed one.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const runs = Number(opt('runs', 20));
const cores = opt('cores', '');
const psmr = opt('psmr', join(root, 'engine/target/release/psmr'));
const jsonOut = opt('json', '');
if (!existsSync(psmr)) {
  console.error(`no psmr at ${psmr}: build it with (cd engine && cargo build --release -p psmr-cli)`);
  process.exit(2);
}
const { lessons } = JSON.parse(readFileSync(join(root, 'web/src/lessons/lessons.json'), 'utf8'));

const byScenario = new Map();
for (const l of lessons) {
  const list = byScenario.get(l.scenario) ?? [];
  list.push(l);
  byScenario.set(l.scenario, list);
}

const results = [];
let failed = 0;
for (const [scenario, ls] of byScenario) {
  const counts = new Map(); // "lesson/run/counter" -> numbers per run
  for (let i = 0; i < runs; i++) {
    const cmd = cores ? 'taskset' : psmr;
    const cmdArgs = [...(cores ? ['-c', cores, psmr] : []), 'run', join(root, 'scenarios', scenario), '--json'];
    const report = JSON.parse(execFileSync(cmd, cmdArgs, { encoding: 'utf8', maxBuffer: 64 << 20 }));
    for (const r of report.runs) {
      if (!r.correct) {
        console.error(`${scenario}: run ${i + 1}: ${r.label} is not correct: ${r.violation}`);
        failed++;
      }
    }
    for (const l of ls) {
      for (const m of l.mechanism) {
        const run = report.runs.find((r) => r.label === m.run || r.scheduler === m.run);
        const key = `${l.id}\t${m.run}\t${m.counter}`;
        const list = counts.get(key) ?? [];
        // A report counter (steals, barrier waits) or a runtime's own metric (refused_time_left).
        list.push(run ? (run.metrics.counters[m.counter] ?? run.metrics.extra?.[m.counter] ?? 0) : -1);
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
        `${shown === runs ? 'PASS' : 'FAIL'} ${l.id}: ${m.run} ${m.counter} >= ${m.at_least} in ${shown}/${runs} runs` +
          ` (min ${line.min}, median ${line.median}, max ${line.max})${cores ? ` [taskset -c ${cores}]` : ''}`,
      );
    }
  }
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ runs, cores: cores || 'all', results }, null, 2) + '\n');
process.exit(failed > 0 ? 1 : 0);
