#!/usr/bin/env bash
# Reproduce docs/benchmarks/coloring.md: native `psmr run` of the shipped
# event-coloring scenarios (paper 002 section V.B microbenchmarks and the
# SWS-like pipeline), each over several seeds and repetitions, with Table
# I's two columns, the runtime's overheads, and each paper direction judged
# over every seed.
#
#   scripts/bench-coloring.sh [OUT_DIR]
#
# Prints the machine (cores, CPU model, load average) before and after,
# then one line per configuration, seed and repetition (with the 1-minute
# load average when the run started): events per second, steals, mean
# steal cost and mean processing time stolen per steal (Table I), the
# runtime and lock-wait shares of the cores' time (Table III), refused
# steals by heuristic, and the oracle's verdict. Then a summary per
# configuration (median, min-max, spread over every seed and repetition)
# and one line per paper direction: its ratio of medians per seed, and the
# verdict
#   holds         in every seed the two configurations' ranges (over the
#                 repetitions) are apart, in the paper's direction;
#   reversed      apart in every seed, the other way;
#   not decided   anything else (ranges overlapping in some seed, or the
#                 seeds disagreeing).
# Each run's JSON report is kept in OUT_DIR (default: a fresh folder under
# ${TMPDIR:-/tmp}); table.txt and summary.txt hold what was printed.
#
# Environment:
#   PSMR_BENCH_REPS     repetitions per scenario and seed (default 3)
#   PSMR_BENCH_SEEDS    workload seeds (default: "file 101 202", where
#                       `file` is the scenario's own seed)
#   PSMR_BENCH_ONLY     run only scenarios whose file name contains this text
#   PSMR_BENCH_SPIN     a JSON spin policy put in every entry's `coloring`
#                       object, e.g. '{"spins":1000}' (the default before
#                       2026-11-23 15:27 UTC); empty: the runtime's default
#   CARGO_TARGET_DIR    where the release build of psmr goes (default engine/target)
#
# Run it on a quiet machine: other processes' load distorts the numbers
# (the load average is printed next to them for that reason).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_env REPS=PSMR_BENCH_REPS=3 "ONLY=PSMR_BENCH_ONLY=" "SEEDS=PSMR_BENCH_SEEDS=file 101 202" "SPIN=PSMR_BENCH_SPIN="
bench_settings bench-coloring "${1:-}"

SCENARIOS=(
  coloring-unbalanced.json
  coloring-penalty.json
  coloring-locality.json
  coloring-sws.json
)

# The scenario file to run: the shipped one, or a copy with SPIN in every
# entry's `coloring` object.
scenario_file() {
  local s="$1"
  if [[ -z "$SPIN" ]]; then
    echo "$ROOT/scenarios/$s"
    return
  fi
  python3 - "$ROOT/scenarios/$s" "$SPIN" "$OUT/${s%.json}.spin.json" <<'PY'
import json, sys
sc = json.load(open(sys.argv[1]))
spin = json.loads(sys.argv[2])
for e in sc["schedulers"]:
    e.setdefault("coloring", {})["spin"] = spin
sc.pop("$schema", None)
json.dump(sc, open(sys.argv[3], "w"), indent=1)
print(sys.argv[3])
PY
}

bench_dry REPS ONLY SEEDS SPIN OUT TARGET PSMR SCENARIOS
bench_build
mkdir -p "$OUT"
bench_machine | tee "$OUT/machine-before.txt"
echo "spin policy: ${SPIN:-runtime default}; seeds: $SEEDS; repetitions: $REPS" | tee "$OUT/settings.txt"
printf '%-4s %-10s %-5s %-18s %5s %9s %7s %8s %9s %8s %8s %6s  %s\n' rep scenario seed label load kev/s steals steal_ns stolen_ns runtime% lockw% oracle refused
for s in "${SCENARIOS[@]}"; do
  [[ -n "$ONLY" && "$s" != *"$ONLY"* ]] && continue
  file="$(scenario_file "$s")"
  own_seed="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["workload"]["seed"])' "$ROOT/scenarios/$s")"
  for seed in $SEEDS; do
    [[ "$seed" == file ]] && seed="$own_seed"
    for rep in $(seq 1 "$REPS"); do
      json="$OUT/${s%.json}-s$seed-$rep.json"
      load="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo -)"
      "$PSMR" run "$file" --seed "$seed" --no-trace --json >"$json"
      python3 - "$json" "$rep" "${s#coloring-}" "$seed" "$load" <<'PY'
import json, sys
path, rep, name, seed, load = sys.argv[1:]
r = json.load(open(path))
r["bench"] = {"seed": int(seed), "load1": load, "rep": int(rep)}
json.dump(r, open(path, "w"))
f = lambda x, d=0: "-" if x is None else f"{x:.{d}f}"
for run in r["runs"]:
    m = run["metrics"]; x = m.get("extra", {}); c = m.get("counters", {})
    refused = ",".join(f"{k[8:]}={int(v)}" for k, v in x.items() if k.startswith("refused_") and v > 0) or "-"
    print(f"r{rep:<3} {name[:-5]:<10} {seed:<5} {run['label']:<18} {load:>5} {m['throughput_ops_s']/1000:9.1f} "
          f"{c.get('steals', 0):7d} {f(x.get('steal_cost_ns_mean')):>8} {f(x.get('stolen_time_ns_mean')):>9} "
          f"{100*x.get('runtime_share', 0):8.1f} {100*x.get('lock_wait_share', 0):8.1f} "
          f"{'ok' if run['correct'] else 'WRONG':>6}  {refused}")
PY
    done
  done
done | tee "$OUT/table.txt"
bench_machine | tee "$OUT/machine-after.txt"

python3 - "$OUT" <<'PY' | tee "$OUT/summary.txt"
import json, pathlib, statistics, sys
out = pathlib.Path(sys.argv[1])
runs = {}  # (scenario, label) -> seed -> [kev/s]
for f in sorted(out.glob("coloring-*-s*-*.json")):
    r = json.loads(f.read_text())
    scen = f.name.rsplit("-s", 1)[0].removeprefix("coloring-")
    for run in r["runs"]:
        runs.setdefault((scen, run["label"]), {}).setdefault(r["bench"]["seed"], []).append(
            run["metrics"]["throughput_ops_s"] / 1000)
print("\nper configuration, every seed and repetition (Kevents/s):")
print(f"{'scenario':<11} {'label':<18} {'n':>3} {'median':>8} {'min':>8} {'max':>8} {'max/min':>8}")
for (scen, label), by_seed in runs.items():
    v = [x for xs in by_seed.values() for x in xs]
    print(f"{scen:<11} {label:<18} {len(v):3d} {statistics.median(v):8.1f} {min(v):8.1f} {max(v):8.1f} {max(v)/min(v):8.2f}")
# Paper 002's directions: (scenario, higher expected, lower expected, where).
DIRECTIONS = [
    ("unbalanced", "libasync-no-steal", "libasync-steal", "Table III: Libasync-smp's stealing loses (-90 %)"),
    ("unbalanced", "mely-no-steal", "mely-base", "Table III: Mely's base stealing loses a little (-5.5 %)"),
    ("unbalanced", "mely-base", "libasync-steal", "Table III: Mely's base stealing beats Libasync-smp's"),
    ("unbalanced", "mely-time-left", "mely-base", "Table IV: time-left beats base stealing (+70 %)"),
    ("penalty", "libasync-no-steal", "libasync-steal", "Table V: Libasync-smp's stealing loses"),
    ("penalty", "mely-penalty", "mely-base", "Table V: penalty-aware beats base stealing (+53 %)"),
    ("locality", "libasync-steal", "libasync-no-steal", "Table VI: Libasync-smp's stealing gains"),
    ("locality", "mely-locality", "mely-base", "Table VI: locality-aware beats base stealing (+31 %)"),
    ("sws", "libasync-no-steal", "libasync-steal", "Fig. 4: stealing slows the web server (up to -33 %)"),
    ("sws", "mely", "libasync-steal", "Fig. 7/8: Mely beats Libasync-smp with stealing"),
]
print("\npaper directions (per seed: ratio of medians higher/lower, ranges apart?):")
for scen, hi, lo, what in DIRECTIONS:
    a, b = runs.get((scen, hi)), runs.get((scen, lo))
    if not a or not b:
        continue
    cells, verdicts = [], []
    for seed in sorted(set(a) & set(b)):
        ratio = statistics.median(a[seed]) / statistics.median(b[seed])
        if min(a[seed]) > max(b[seed]):
            v = "holds"
        elif max(a[seed]) < min(b[seed]):
            v = "reversed"
        else:
            v = "overlap"
        verdicts.append(v)
        cells.append(f"seed {seed}: {ratio:.2f} {v}")
    verdict = verdicts[0] if len(set(verdicts)) == 1 and verdicts[0] != "overlap" else "not decided"
    print(f"- {what}: {hi} / {lo}: {'; '.join(cells)} => {verdict}")
PY
echo "reports in $OUT"
