#!/usr/bin/env bash
# Measure spin policies (spin -> yield -> park, psmr-schedulers spin.rs)
# per wait kind, natively: the shipped scenarios where one wait kind
# dominates, run with the scenario `spin` override set to each candidate
# policy (which applies it to every wait kind of the scheduler), against
# the built-in per-kind defaults ("default": no override).
#
#   scripts/bench-spin-policy.sh [OUT_DIR]
#
#   cycle waits:  early-busy-wait-conflicts.json, busy-wait, writes 0.3
#   marker+idle:  ws-skewed-shards.json, ws-conservative and ws-optimistic
#   cycle+idle:   ws-skewed-shards.json, ws-moderate
#
# Writes one JSON per (sweep, policy, run) and summary.md (median and
# min-max throughput per point; the best policy per sweep and scheduler).
#
# Environment:
#   PSMR_SP_THREADS  thread counts (default 2,4)
#   PSMR_SP_RUNS     runs per point (default 3)
#   PSMR_SP_PSMR     psmr binary (default engine/target/release/psmr, built)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_env THREADS=PSMR_SP_THREADS=2,4 RUNS=PSMR_SP_RUNS=3
bench_settings spin-policy "${1:-}"
PSMR="${PSMR_SP_PSMR:-$PSMR}"
bench_dry THREADS RUNS OUT TARGET PSMR
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
if [ -z "${PSMR_SP_PSMR:-}" ]; then
  bench_build
fi

# name | spins | yields | park_us  ("default": no override)
POLICIES=(
  "default|||"
  "spin1000-yield100-park50|1000|100|50"
  "spin100-yield100-park50|100|100|50"
  "spin1000-yield1000-park50|1000|1000|50"
  "spin1000-yield100-park5|1000|100|5"
  "spin1000-yield0-park20|1000|0|20"
)
# name | scenario | schedulers (ids) | writes ("-": the scenario's) | requests
SWEEPS=(
  "cycle|early-busy-wait-conflicts.json|busy-wait|0.3|10000"
  "marker-idle|ws-skewed-shards.json|ws-conservative,ws-optimistic|-|20000"
  "cycle-idle|ws-skewed-shards.json|ws-moderate|-|20000"
)

for sweep in "${SWEEPS[@]}"; do
  IFS='|' read -r sname file ids writes requests <<<"$sweep"
  for pol in "${POLICIES[@]}"; do
    IFS='|' read -r pname spins yields park <<<"$pol"
    sc="$OUT/$sname.$pname.scenario.json"
    node -e '
      const fs = require("fs");
      const [src, dst, ids, spins, yields, park] = process.argv.slice(1);
      const sc = JSON.parse(fs.readFileSync(src, "utf8"));
      const keep = new Set(["sequential", ...ids.split(",")]);
      sc.run = { ...(sc.run ?? {}), repetitions: 1, trace: false };
      delete sc.expect; // expectations may name schedulers this sweep drops
      sc.schedulers = sc.schedulers.filter((s) => keep.has(s.id));
      for (const id of ids.split(",")) if (!sc.schedulers.some((s) => s.id === id)) sc.schedulers.push({ id });
      if (spins !== "") {
        const spin = { spins: Number(spins), yields: Number(yields), park_us: Number(park) };
        for (const s of sc.schedulers) {
          if (s.id === "busy-wait") s.early = { ...(s.early ?? {}), spin };
          if (s.id.startsWith("ws-")) s.stealing = { ...(s.stealing ?? {}), spin };
        }
      }
      fs.writeFileSync(dst, JSON.stringify(sc, null, 2));
    ' "$ROOT/scenarios/$file" "$sc" "$ids" "$spins" "$yields" "$park"
  done
  for i in $(seq 1 "$RUNS"); do
    for pol in "${POLICIES[@]}"; do
      pname="${pol%%|*}"
      args=(bench "$OUT/$sname.$pname.scenario.json" --threads "$THREADS" --requests "$requests" --json)
      [ "$writes" != "-" ] && args+=(--writes "$writes")
      bench_stamp "$sname $pname run $i"
      "$PSMR" "${args[@]}" >"$OUT/$sname.$pname.$i.json"
    done
  done
done
bench_stamp "end"

node - "$OUT" <<'JS' | tee "$OUT/summary.md"
const fs = require('fs');
const path = require('path');
const dir = process.argv[2];
const med = (v) => { const s = [...v].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const rows = new Map();
for (const f of fs.readdirSync(dir).sort()) {
  const m = /^([^.]+)\.([^.]+)\.(\d+)\.json$/.exec(f);
  if (!m) continue;
  const r = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  for (const p of (r.bench ?? r).points) {
    if (p.scheduler === 'sequential') continue;
    const k = `${m[1]}|${p.label}|${p.threads}`;
    if (!rows.has(k)) rows.set(k, new Map());
    const byPol = rows.get(k);
    if (!byPol.has(m[2])) byPol.set(m[2], { ops: [], ok: true });
    byPol.get(m[2]).ops.push(p.throughput_ops_s);
    byPol.get(m[2]).ok &&= p.correct;
  }
}
const loads = [...fs.readFileSync(path.join(dir, 'uptime.log'), 'utf8').matchAll(/load ([\d.]+)/g)].map((m) => Number(m[1]));
console.log(`1-minute load ${Math.min(...loads)}-${Math.max(...loads)}${loads.some((l) => l > 2) ? ' (above 2: re-take on a quiet machine)' : ''}\n`);
const k0 = (x) => (x / 1000).toFixed(0) + 'k';
for (const [k, byPol] of rows) {
  const [sweep, label, threads] = k.split('|');
  console.log(`**${sweep}: ${label}, ${threads} threads**\n`);
  console.log('| policy | ops/s median (min-max) | vs default | oracle |');
  console.log('|---|---:|---:|---|');
  const base = med(byPol.get('default')?.ops ?? [NaN]);
  for (const [pol, v] of byPol) {
    console.log(`| ${pol} | ${k0(med(v.ops))} (${k0(Math.min(...v.ops))}-${k0(Math.max(...v.ops))}) | ${(med(v.ops) / base).toFixed(2)} | ${v.ok ? 'ok' : 'WRONG'} |`);
  }
  console.log();
}
JS
echo "results: $OUT"
