// Summarize a scripts/bench-wasm-vs-native.sh folder: every point of every
// run into points.csv, and (stdout, markdown) per executor and thread count
// the median and spread (min-max) of the speedup over sequential and of the
// scheduler's ns per request on each platform, their browser/native ratios
// and issue 20's goals (browser speedup within 15 % of native's and at
// least 1.7x at 2 threads; hand-off cost in wasm within 2x of native's).
//
//   node scripts/wasm-vs-native-summary.mjs OUT_DIR
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { csvRows } from './csv-rows.mjs';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/wasm-vs-native-summary.mjs OUT_DIR');
  process.exit(2);
}

const points = [];
for (const f of readdirSync(dir).sort()) {
  let m = /^native-(\d+)\.json$/.exec(f);
  if (m) {
    const r = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    for (const p of (r.bench ?? r).points) {
      points.push({
        platform: 'native',
        run: Number(m[1]),
        executor: p.label,
        threads: p.threads,
        ops_s: p.throughput_ops_s,
        speedup: p.speedup_vs_sequential,
        sched_ns: p.scheduler_ns_per_request,
        exec_us: p.exec_us_per_request ?? NaN,
        wait_share: p.worker_wait_share ?? NaN,
        correct: p.correct,
      });
    }
    continue;
  }
  m = /^browser-(\d+)\.csv$/.exec(f);
  if (m) {
    for (const p of csvRows(readFileSync(join(dir, f), 'utf8'))) {
      points.push({
        platform: 'browser',
        run: Number(m[1]),
        executor: p.executor,
        threads: Number(p.threads),
        ops_s: Number(p.throughput_ops_s),
        speedup: Number(p.speedup_vs_sequential),
        sched_ns: Number(p.scheduler_ns_per_request),
        exec_us: p.exec_us_per_request ? Number(p.exec_us_per_request) : NaN,
        wait_share: p.worker_wait_share ? Number(p.worker_wait_share) : NaN,
        correct: p.correct === 'true',
      });
    }
  }
}
const cols = ['platform', 'run', 'executor', 'threads', 'ops_s', 'speedup', 'sched_ns', 'exec_us', 'wait_share', 'correct'];
writeFileSync(
  join(dir, 'points.csv'),
  [cols.join(','), ...points.map((p) => cols.map((c) => p[c]).join(','))].join('\n') + '\n',
);

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const stat = (v) => ({ med: median(v), min: Math.min(...v), max: Math.max(...v), n: v.length });
const of = (platform, executor, threads, key) =>
  points
    .filter((p) => p.platform === platform && p.executor === executor && p.threads === threads)
    .map((p) => p[key])
    .filter((v) => !Number.isNaN(v));
const fmt = (s, d, unit = '') =>
  s.n === 0 ? '-' : `${s.med.toFixed(d)}${unit} (${s.min.toFixed(d)}-${s.max.toFixed(d)}, n=${s.n})`;

const keys = [...new Set(points.map((p) => `${p.executor}\t${p.threads}`))]
  .map((k) => k.split('\t'))
  .map(([e, t]) => [e, Number(t)])
  .sort((a, b) => (a[0] === 'sequential' ? -1 : b[0] === 'sequential' ? 1 : a[0].localeCompare(b[0]) || a[1] - b[1]));

const machine = existsSync(join(dir, 'machine.txt')) ? readFileSync(join(dir, 'machine.txt'), 'utf8') : '';
const uptime = existsSync(join(dir, 'uptime.log')) ? readFileSync(join(dir, 'uptime.log'), 'utf8') : '';
const loads = [...uptime.matchAll(/load ([\d.]+)/g)].map((m) => Number(m[1]));

console.log('# Browser (wasm, Chromium) vs native\n');
console.log('```\n' + machine.trim() + '\n```\n');
console.log(
  `1-minute load average around the runs: ${loads.length ? `${Math.min(...loads)}-${Math.max(...loads)}` : 'not recorded'}` +
    (loads.some((l) => l > 2) ? ' (**above 2: re-take these numbers on a quiet machine**)' : '') +
    '\n',
);
console.log(
  'Median (min-max, runs) per point. Speedup is over sequential execution of the same stream on the same platform.\n',
);
console.log(
  '| executor | threads | native ops/s | browser ops/s | native speedup | browser speedup | browser / native speedup | native sched ns/req | browser sched ns/req | browser / native ns |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
const workerRows = [];
const goals = [];
for (const [e, t] of keys) {
  const ns = stat(of('native', e, t, 'speedup'));
  const bs = stat(of('browser', e, t, 'speedup'));
  const nn = stat(of('native', e, t, 'sched_ns'));
  const bn = stat(of('browser', e, t, 'sched_ns'));
  const no = stat(of('native', e, t, 'ops_s'));
  const bo = stat(of('browser', e, t, 'ops_s'));
  const sr = bs.med / ns.med;
  const nr = bn.med / nn.med;
  const seq = e === 'sequential';
  console.log(
    `| ${e} | ${t} | ${fmt(no, 0)} | ${fmt(bo, 0)} | ${seq ? '1' : fmt(ns, 2, 'x')} | ${seq ? '1' : fmt(bs, 2, 'x')} | ${seq ? `ops ${(bo.med / no.med).toFixed(2)}` : sr.toFixed(2)} | ${seq ? '-' : fmt(nn, 0)} | ${seq ? '-' : fmt(bn, 0)} | ${seq ? '-' : nr.toFixed(2)} |`,
  );
  if (!seq) {
    const ne = stat(of('native', e, t, 'exec_us'));
    const be = stat(of('browser', e, t, 'exec_us'));
    const nw = stat(of('native', e, t, 'wait_share'));
    const bw = stat(of('browser', e, t, 'wait_share'));
    workerRows.push(`| ${e} | ${t} | ${fmt(ne, 1)} | ${fmt(be, 1)} | ${fmt(nw, 3)} | ${fmt(bw, 3)} |`);
  }
  if (!seq && t >= 2 && ns.n && bs.n) {
    goals.push(
      `- ${e}, ${t} threads: browser speedup ${bs.med.toFixed(2)}x vs native ${ns.med.toFixed(2)}x: ` +
        `${sr >= 0.85 ? 'within' : 'NOT within'} 15 % (ratio ${sr.toFixed(2)}); ` +
        `${t === 2 ? `${bs.med >= 1.7 ? 'at least' : 'BELOW'} 1.7x; ` : ''}` +
        `hand-off ${bn.med.toFixed(0)} vs ${nn.med.toFixed(0)} ns/request: ${nr <= 2 ? 'within' : 'NOT within'} 2x (ratio ${nr.toFixed(2)}); ` +
        `least of the runs ${bn.min.toFixed(0)} vs ${nn.min.toFixed(0)} (ratio ${(bn.min / nn.min).toFixed(2)}: the cost without ` +
        `the preemptions the delivering thread meets when the run's threads outnumber the cores, which only add)`,
    );
  }
}
if (workerRows.length) {
  console.log(
    "\nThe workers' execution time per request (µs; the same work at every thread count, so a rise means the workers ran slower side by side) and the share of their time spent waiting:\n",
  );
  console.log('| executor | threads | native exec µs/req | browser exec µs/req | native wait share | browser wait share |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of workerRows) console.log(r);
}
const readJson = (f) => (existsSync(join(dir, f)) ? JSON.parse(readFileSync(join(dir, f), 'utf8')) : null);
const cn = readJson('clock-native.json');
const cb = readJson('clock-browser.json');
if (cn || cb) {
  console.log(
    '\nOne clock reading: ' +
      [
        cn && `native clock_gettime ${cn.clock_gettime_ns.toFixed(0)} ns`,
        cb &&
          `browser performance.now() ${cb.worker.ns_per_call.toFixed(0)} ns in a worker (${cb.page.ns_per_call.toFixed(0)} ns on the page), smallest step ${cb.worker.min_step_us.toFixed(1)} us`,
      ]
        .filter(Boolean)
        .join('; ') +
      '.',
  );
}
// Browser CPU by thread name (last sample of each thread, summed), per run.
const hz = 100; // Linux USER_HZ
const cpuRuns = readdirSync(dir)
  .filter((f) => /^browser-\d+\.cpu\.tsv$/.test(f))
  .sort();
if (cpuRuns.length) {
  console.log(
    '\nChromium CPU seconds per browser run, by thread name (all processes; the engine runs in "DedicatedWorker thread"s):\n',
  );
  for (const f of cpuRuns) {
    const last = new Map();
    // Rounds: [time ms, Map tid -> [name, ticks]]; deltas between rounds
    // where the engine's workers were busy show who else used the cores
    // while the engine computed.
    const rounds = [];
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      const [tid, name, ticks] = line.split('\t');
      if (tid === '#') rounds.push([Number(name), new Map()]);
      else if (tid && ticks !== undefined) {
        last.set(tid, [name, Number(ticks)]);
        rounds.at(-1)?.[1].set(tid, [name, Number(ticks)]);
      }
    }
    let busyS = 0;
    const busyBy = new Map();
    for (let r = 1; r < rounds.length; r++) {
      const dt = (rounds[r][0] - rounds[r - 1][0]) / 1000;
      const delta = new Map();
      for (const [tid, [name, t]] of rounds[r][1]) {
        // A thread first seen in this round counts from 0 only if the
        // previous round saw the process at all; otherwise skip it.
        const before = rounds[r - 1][1].get(tid)?.[1];
        if (before !== undefined && t >= before) delta.set(name, (delta.get(name) ?? 0) + (t - before) / hz);
      }
      const w = delta.get('DedicatedWorker') ?? 0;
      if (dt > 0 && w >= 0.3 * dt) {
        busyS += dt;
        for (const [n, c] of delta) busyBy.set(n, (busyBy.get(n) ?? 0) + c);
      }
    }
    const byName = new Map();
    for (const [name, t] of last.values()) byName.set(name, (byName.get(name) ?? 0) + t / hz);
    const total = [...byName.values()].reduce((a, b) => a + b, 0);
    const workers = byName.get('DedicatedWorker thread') ?? byName.get('DedicatedWorker') ?? 0;
    const top = [...byName]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([n, t]) => `${n} ${t.toFixed(1)}`);
    console.log(
      `- ${f}: total ${total.toFixed(1)} s, workers ${workers.toFixed(1)} s, other ${(total - workers).toFixed(1)} s (${((100 * (total - workers)) / Math.max(total, 1e-9)).toFixed(0)} %); top: ${top.join(', ')}`,
    );
    if (busyS > 0) {
      const cores = [...busyBy].sort((a, b) => b[1] - a[1]).map(([n, c]) => `${n} ${(c / busyS).toFixed(2)}`);
      console.log(
        `  while the engine's workers ran (0.3+ cores) (${busyS.toFixed(1)} s of samples), cores used by thread name: ${cores.slice(0, 6).join(', ')}`,
      );
    }
  }
}
const wrong = points.filter((p) => !p.correct);
console.log(`\nEvery point passed the oracle: ${wrong.length === 0 ? 'yes' : `NO (${wrong.length} wrong)`}.\n`);
console.log('## Goals of issue 20, part 2\n');
console.log(goals.join('\n') || '- no parallel point with 2+ threads on both platforms');
