#!/usr/bin/env bash
# Work stealing before and after 07cfe75 (cycle counters on their own cache
# lines; a steal swaps the victim's ready queue, O(1), instead of copying
# it): the same native `psmr bench` sweeps at two commits, interleaved
# (before, after, before, after, ...) so both see the same machine load.
#
#   scripts/bench-stealing-before-after.sh [OUT_DIR]
#
# Builds each commit's CLI in a detached `git worktree` (under OUT_DIR),
# sharing this checkout's target dir for the dependencies, then runs every
# sweep RUNS times per commit and writes OUT_DIR/summary.md: per sweep,
# scheduler and thread count the median (min-max) throughput of each
# commit and after/before. `uptime` is logged before and after each run.
#
# Environment:
#   PSMR_BA_BEFORE   commit before (default 07cfe75^)
#   PSMR_BA_AFTER    commit after (default HEAD)
#   PSMR_BA_THREADS  thread counts (default 1,2,4)
#   PSMR_BA_RUNS     runs per commit and sweep (default 3)
#   PSMR_BA_BEFORE_BIN / PSMR_BA_AFTER_BIN  use these binaries, skip the builds
#   CARGO_TARGET_DIR shared target dir (default engine/target)
#
# On 2 cores every point above 1 thread is oversubscribed (workers plus the
# delivering thread exceed the cores): read docs/benchmarks/early.md first.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_env "BEFORE=PSMR_BA_BEFORE=07cfe75^" AFTER=PSMR_BA_AFTER=HEAD THREADS=PSMR_BA_THREADS=1,2,4 RUNS=PSMR_BA_RUNS=3
bench_settings stealing-before-after "${1:-}"
bench_dry BEFORE AFTER THREADS RUNS OUT TARGET
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

# name | scenario | requests | change ("no-skew": drop the workload's skew)
SWEEPS=(
  "ws-skewed-shards|ws-skewed-shards.json|20000|"
  "ws-balanced-shards|ws-skewed-shards.json|20000|no-skew"
  "skewed-stealing|skewed-stealing.json|5000|"
  "ws-stealing-throughput|ws-stealing-throughput.json|20000|"
)

# Build commit $1's psmr into $OUT/psmr-$2 (a detached worktree, removed after).
build_at() {
  local commit="$1" tag="$2" wt="$OUT/src-$2"
  git -C "$ROOT" worktree add --detach "$wt" "$commit" >/dev/null
  (cd "$wt/engine" && CARGO_TARGET_DIR="$TARGET" cargo build --release -q -p psmr-cli)
  cp "$TARGET/release/psmr" "$OUT/psmr-$tag"
  git -C "$ROOT" rev-parse --short "$commit" >"$OUT/commit-$tag"
  git -C "$ROOT" worktree remove --force "$wt"
}

if [ -n "${PSMR_BA_BEFORE_BIN:-}" ]; then
  cp "$PSMR_BA_BEFORE_BIN" "$OUT/psmr-before" && echo "$BEFORE (given binary)" >"$OUT/commit-before"
else
  build_at "$BEFORE" before
fi
if [ -n "${PSMR_BA_AFTER_BIN:-}" ]; then
  cp "$PSMR_BA_AFTER_BIN" "$OUT/psmr-after" && echo "$AFTER (given binary)" >"$OUT/commit-after"
else
  build_at "$AFTER" after
fi

for entry in "${SWEEPS[@]}"; do
  IFS='|' read -r name file requests change <<<"$entry"
  node -e '
    const fs = require("fs");
    const sc = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    sc.run = { ...(sc.run ?? {}), repetitions: 1, trace: false };
    delete sc.expect; // expectations may name schedulers this sweep drops
    sc.schedulers = sc.schedulers.filter((s) => s.id === "sequential" || s.id.startsWith("ws-"));
    if (process.argv[3] === "no-skew") delete sc.workload.skew;
    fs.writeFileSync(process.argv[2], JSON.stringify(sc, null, 2));
  ' "$ROOT/scenarios/$file" "$OUT/$name.scenario.json" "$change"
  for i in $(seq 1 "$RUNS"); do
    for tag in before after; do
      bench_stamp "$name $tag-$i before"
      "$OUT/psmr-$tag" bench "$OUT/$name.scenario.json" --threads "$THREADS" --requests "$requests" --json \
        >"$OUT/$name.$tag-$i.json"
      bench_stamp "$name $tag-$i after"
    done
  done
done

node - "$OUT" <<'JS' | tee "$OUT/summary.md"
const fs = require('fs');
const path = require('path');
const dir = process.argv[2];
const med = (v) => { const s = [...v].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const rows = {};
for (const f of fs.readdirSync(dir)) {
  const m = /^(.+)\.(before|after)-(\d+)\.json$/.exec(f);
  if (!m) continue;
  const r = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  for (const p of (r.bench ?? r).points) {
    const k = `${m[1]}|${p.label}|${p.threads}`;
    rows[k] ??= { before: [], after: [], ok: true };
    rows[k][m[2]].push(p.throughput_ops_s);
    rows[k].ok &&= p.correct;
  }
}
const loads = [...fs.readFileSync(path.join(dir, 'uptime.log'), 'utf8').matchAll(/load ([\d.]+)/g)].map((m) => Number(m[1]));
console.log(`before ${fs.readFileSync(path.join(dir, 'commit-before'), 'utf8').trim()}, after ${fs.readFileSync(path.join(dir, 'commit-after'), 'utf8').trim()}; 1-minute load ${Math.min(...loads)}-${Math.max(...loads)}${loads.some((l) => l > 2) ? ' (above 2: re-take on a quiet machine)' : ''}\n`);
console.log('| sweep | scheduler | threads | before ops/s median (min-max) | after ops/s median (min-max) | after / before | oracle |');
console.log('|---|---|---:|---:|---:|---:|---|');
const k0 = (x) => Math.round(x / 100) / 10 + 'k';
for (const [k, v] of Object.entries(rows)) {
  const [sweep, label, threads] = k.split('|');
  const b = med(v.before), a = med(v.after);
  console.log(`| ${sweep} | ${label} | ${threads} | ${k0(b)} (${k0(Math.min(...v.before))}-${k0(Math.max(...v.before))}) | ${k0(a)} (${k0(Math.min(...v.after))}-${k0(Math.max(...v.after))}) | ${(a / b).toFixed(2)} | ${v.ok ? 'ok' : 'WRONG'} |`);
}
JS
echo "results: $OUT"
