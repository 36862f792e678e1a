#!/usr/bin/env node
// The papers' throughput-vs-threads figures in virtual time (issue 25):
// each figure's scenario on 1, 2, 4, 8, 16 and 32 virtual cores (the model,
// reference cost table; deterministic, one run per point), and on 1 and 2
// real threads of this machine (median of REPS runs, a separate series with
// other markers). Writes docs/img/virtual-<id>.svg (hand-written SVG) and
// docs/benchmarks/data/virtual-<date>/figures/<id>.csv.
//
//   node scripts/bench-virtual-figures.mjs [id...]
//
// Env: PSMR (binary; default the release build under CARGO_TARGET_DIR or
// engine/target), REPS (real repetitions, 3), CORES ("1,2,4,8,16,32"),
// SEED (printed in the CSV and the SVG; default each figure's own).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const target = process.env.CARGO_TARGET_DIR ?? join(root, "engine/target");
const psmr = process.env.PSMR ?? join(target, "release/psmr");
const reps = Number(process.env.REPS ?? 3);
const cores = (process.env.CORES ?? "1,2,4,8,16,32").split(",").map(Number);
const day = new Date().toISOString().slice(0, 10);
const dataDir = join(root, `docs/benchmarks/data/virtual-${day}/figures`);
const imgDir = join(root, "docs/img");
const MODEL = "virtual cores (model, reference cost table)";

// One figure per paper claim about throughput against threads. `edit`
// changes the scenario before it runs (a copy in a temporary directory).
const FIGURES = [
  {
    id: "000-stealing",
    title: "Paper 000 Fig. 7: work stealing, 8 shards, 60 % on one shard",
    scenario: "ws-stealing-throughput",
    requests: 4000,
    seed: 71,
    schedulers: [
      "busy-wait",
      "ws-conservative",
      "ws-moderate",
      "ws-aggressive",
      "ws-optimistic",
    ],
  },
  {
    id: "000-busy-wait",
    title:
      "Paper 000: busy-wait against early scheduling, one light shard, 30 % writes",
    scenario: "early-busy-wait-conflicts",
    requests: 4000,
    seed: 72,
    schedulers: ["sequential", "early", "busy-wait"],
  },
  {
    id: "003-late-vs-early",
    title:
      "Paper 003 Fig. 2: early against late (CBASE), read-only, moderate list",
    scenario: "late-vs-early-read-moderate",
    requests: 2000,
    seed: 73,
    schedulers: ["sequential", "late", "early"],
  },
  {
    id: "004-pepaxos",
    title: "Paper 004 Fig. 5: PePaxos against ePaxos, 100K list, 0 % conflicts",
    scenario: "epaxos-fig5-list-100k",
    requests: 2000,
    seed: 74,
    schedulers: ["epaxos", "pepaxos"],
  },
  coloring(
    "002-sws",
    "section V.C: the SWS-like web server",
    "coloring-sws",
    2000,
    75,
    ["libasync-no-steal", "libasync-steal", "mely"],
  ),
  coloring(
    "002-locality",
    "Table VI: locality-aware stealing",
    "coloring-locality",
    6000,
    76,
    ["libasync-no-steal", "libasync-steal", "mely-base", "mely-locality"],
  ),
  coloring(
    "002-penalty",
    "Table V: penalty-aware stealing",
    "coloring-penalty",
    6000,
    77,
    ["libasync-no-steal", "libasync-steal", "mely-base", "mely-penalty"],
  ),
  {
    id: "001-repart-a",
    title: "Paper 001: YCSB A, 8 partitions: RR, SW and Async W=10",
    scenario: "repart-table1-a",
    requests: 5000,
    seed: 78,
    schedulers: ["RR", "SW", "Async W=10", "Base dp=10000"],
  },
];

/// A paper 002 figure, on its machine (see `cachePairs`).
function coloring(id, what, scenario, requests, seed, schedulers) {
  const title = `Paper 002 ${what} (2 cores per cache)`;
  return { id, title, scenario, requests, seed, schedulers, edit: cachePairs };
}

/// The paper's machine for the coloring figures: pairs of cores share a
/// cache (Mely's default belief, stated for every Mely entry, so the runner
/// models that topology for every scheduler of the file, Libasync-smp's
/// too; Libasync-smp takes no such parameter). Below 4 threads there is one
/// pair at most (all cores in one cache), and a scenario refuses pairs
/// there, so the entries then state no topology at all.
function cachePairs(sc, threads) {
  if (threads < 4) {
    for (const s of sc.schedulers) {
      if (s.coloring) delete s.coloring.cores_per_cache;
    }
    return sc;
  }
  // The file states the pairs' machine: its own thread count must be one
  // with pairs (the option sets the same count again).
  sc.threads = threads;
  for (const s of sc.schedulers) {
    if (s.id === "mely") {
      s.coloring = { ...(s.coloring ?? {}), cores_per_cache: 2 };
    }
  }
  return sc;
}

const tmp = mkdtempSync(join(tmpdir(), "psmr-vfig-"));

/// The scenario file of figure `f` at `threads` threads (or virtual cores).
function scenarioFile(f, threads) {
  const path = join(root, "scenarios", `${f.scenario}.json`);
  if (!f.edit) return path;
  const sc = f.edit(JSON.parse(readFileSync(path, "utf8")), threads);
  const out = join(tmp, `${f.scenario}-${threads}.json`);
  writeFileSync(out, JSON.stringify(sc));
  return out;
}

function run(args) {
  return execFileSync(psmr, args, { encoding: "utf8", maxBuffer: 1 << 28 });
}

function load1() {
  return Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
}

/// ops/s per label from a virtual run's table (labels may hold spaces).
function virtualPoint(file, f, n) {
  const args = [
    "run",
    file,
    "--virtual-cores",
    String(n),
    "--requests",
    String(f.requests),
  ];
  args.push("--seed", String(f.seed), "--no-trace");
  for (const s of f.schedulers) args.push("--scheduler", s);
  const out = run(args).split("\n");
  const res = {};
  for (const line of out.slice(2)) {
    const l = line.trim();
    const label = f.schedulers.find((s) => l.startsWith(`${s} `));
    if (!label) continue;
    if (!l.includes("virtual")) throw new Error(`unlabelled virtual row: ${l}`);
    res[label] = Number(l.slice(label.length).trim().split(/\s+/)[2]);
  }
  return res;
}

function realPoint(file, f, n) {
  const res = {};
  const loads = [];
  for (const s of f.schedulers) {
    const xs = [];
    for (let r = 0; r < reps; r++) {
      loads.push(load1());
      const args = ["run", file, "--scheduler", s, "--threads", String(n)];
      args.push(
        "--requests",
        String(f.requests),
        "--seed",
        String(f.seed),
        "--no-trace",
        "--json",
      );
      xs.push(JSON.parse(run(args)).runs[0].throughput_ops_s);
    }
    xs.sort((a, b) => a - b);
    res[s] = xs[Math.floor(xs.length / 2)];
  }
  return { res, loads };
}

const COLORS = [
  "#1f77b4",
  "#d62728",
  "#2ca02c",
  "#9467bd",
  "#ff7f0e",
  "#8c564b",
];

function esc(s) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function svg(f, virt, real, loads) {
  const W = 860;
  const H = 460;
  const m = { l: 80, r: 290, t: 64, b: 56 };
  const pw = W - m.l - m.r;
  const ph = H - m.t - m.b;
  const all = [...Object.values(virt), ...Object.values(real)].flatMap((o) =>
    Object.values(o),
  );
  const ymax = Math.max(...all.filter(Number.isFinite)) * 1.1 || 1;
  const lx = (n) => m.l + (Math.log2(n) / Math.log2(Math.max(...cores))) * pw;
  const ly = (v) => m.t + ph - (v / ymax) * ph;
  const o = [];
  o.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
  );
  o.push(
    `<title>${esc(`${f.title}: ${MODEL}, and real threads at 1-2 (a separate series)`)}</title>`,
  );
  o.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  o.push(
    `<text x="${m.l}" y="20" font-size="14" font-weight="bold">${esc(f.title)}</text>`,
  );
  o.push(
    `<text x="${m.l}" y="38">${esc(`${MODEL}: lines; real threads of this 2-core machine: hollow squares`)}</text>`,
  );
  o.push(
    `<text x="${m.l}" y="54" fill="#555">${esc(`scenarios/${f.scenario}.json, ${f.requests} requests, seed ${f.seed}; real: median of ${reps}, load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`)}</text>`,
  );
  for (let i = 0; i <= 5; i++) {
    const v = (ymax * i) / 5;
    const y = ly(v);
    o.push(
      `<line x1="${m.l}" x2="${m.l + pw}" y1="${y}" y2="${y}" stroke="#ddd"/>`,
    );
    o.push(
      `<text x="${m.l - 6}" y="${y + 4}" text-anchor="end">${fmt(v)}</text>`,
    );
  }
  for (const n of cores) {
    o.push(
      `<line x1="${lx(n)}" x2="${lx(n)}" y1="${m.t + ph}" y2="${m.t + ph + 5}" stroke="#333"/>`,
    );
    o.push(
      `<text x="${lx(n)}" y="${m.t + ph + 18}" text-anchor="middle">${n}</text>`,
    );
  }
  o.push(
    `<line x1="${m.l}" x2="${m.l + pw}" y1="${m.t + ph}" y2="${m.t + ph}" stroke="#333"/>`,
  );
  o.push(
    `<line x1="${m.l}" x2="${m.l}" y1="${m.t}" y2="${m.t + ph}" stroke="#333"/>`,
  );
  o.push(
    `<text x="${m.l + pw / 2}" y="${H - 12}" text-anchor="middle">worker threads (virtual cores; real threads at 1-2)</text>`,
  );
  o.push(
    `<text transform="translate(18 ${m.t + ph / 2}) rotate(-90)" text-anchor="middle">requests per second</text>`,
  );
  f.schedulers.forEach((s, k) => {
    const c = COLORS[k % COLORS.length];
    const pts = cores
      .filter((n) => Number.isFinite(virt[n]?.[s]))
      .map((n) => [lx(n), ly(virt[n][s])]);
    if (pts.length) {
      o.push(
        `<polyline fill="none" stroke="${c}" stroke-width="2" points="${pts.map((p) => p.join(",")).join(" ")}"><title>${esc(`${s}: ${MODEL}`)}</title></polyline>`,
      );
      for (const [x, y] of pts)
        o.push(`<circle cx="${x}" cy="${y}" r="3.5" fill="${c}"/>`);
    }
    for (const n of Object.keys(real)) {
      const v = real[n][s];
      if (!Number.isFinite(v)) continue;
      o.push(
        `<rect x="${lx(+n) - 5}" y="${ly(v) - 5}" width="10" height="10" fill="none" stroke="${c}" stroke-width="2"><title>${esc(`${s}: real ${n} threads, ${fmt(v)} req/s`)}</title></rect>`,
      );
    }
    const y = m.t + 10 + k * 36;
    const x = m.l + pw + 14;
    o.push(
      `<line x1="${x}" x2="${x + 22}" y1="${y}" y2="${y}" stroke="${c}" stroke-width="2"/><circle cx="${x + 11}" cy="${y}" r="3.5" fill="${c}"/>`,
    );
    o.push(
      `<text x="${x + 28}" y="${y + 4}">${esc(s)} (virtual, model)</text>`,
    );
    o.push(
      `<rect x="${x + 6}" y="${y + 11}" width="10" height="10" fill="none" stroke="${c}" stroke-width="2"/>`,
    );
    o.push(`<text x="${x + 28}" y="${y + 20}">${esc(s)} (real threads)</text>`);
  });
  o.push("</svg>");
  return o.join("\n") + "\n";
}

function fmt(v) {
  return v >= 1e6
    ? `${(v / 1e6).toFixed(1)}M`
    : v >= 1e3
      ? `${Math.round(v / 1e3)}k`
      : `${Math.round(v)}`;
}

mkdirSync(dataDir, { recursive: true });
mkdirSync(imgDir, { recursive: true });
const only = process.argv.slice(2);
for (const f of FIGURES.filter((f) => !only.length || only.includes(f.id))) {
  const t0 = Date.now();
  const virt = {};
  for (const n of cores) virt[n] = virtualPoint(scenarioFile(f, n), f, n);
  const real = {};
  const loads = [];
  for (const n of [1, 2]) {
    const p = realPoint(scenarioFile(f, n), f, n);
    real[n] = p.res;
    loads.push(...p.loads);
  }
  const rows = [
    "series,threads,scheduler,ops_per_s,seed,requests,load1_min,load1_max",
  ];
  const lo = Math.min(...loads).toFixed(2);
  const hi = Math.max(...loads).toFixed(2);
  for (const n of cores)
    for (const s of f.schedulers)
      rows.push(
        `"virtual ${n} cores (model, reference cost table)",${n},${s},${virt[n][s] ?? ""},${f.seed},${f.requests},,`,
      );
  for (const n of [1, 2])
    for (const s of f.schedulers)
      rows.push(
        `"real ${n} threads (this machine)",${n},${s},${real[n][s]},${f.seed},${f.requests},${lo},${hi}`,
      );
  writeFileSync(join(dataDir, `${f.id}.csv`), rows.join("\n") + "\n");
  writeFileSync(join(imgDir, `virtual-${f.id}.svg`), svg(f, virt, real, loads));
  console.log(
    `${f.id}: seed ${f.seed}, ${f.requests} requests, ${((Date.now() - t0) / 1000).toFixed(1)} s, load ${lo}-${hi}`,
  );
  for (const n of cores)
    console.log(`  virtual ${n}: ${JSON.stringify(virt[n])}`);
  for (const n of [1, 2])
    console.log(`  real ${n}: ${JSON.stringify(real[n])}`);
}
