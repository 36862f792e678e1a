#!/usr/bin/env bash
# Reproduce docs/benchmarks/repartitioning.md: paper 001 Table 1, scaled to
# 1/100 (scenarios/repart-table1-{a,d,e}.json), every configuration run
# PSMR_BENCH_REPS times natively without tracing.
#
#   scripts/bench-repart.sh [OUT_DIR]
#
# Prints the machine and load average before and after, keeps each run's
# JSON report in OUT_DIR (default: a fresh folder under ${TMPDIR:-/tmp}) and
# prints one table per workload: makespan (the run's duration), median
# throughput over the run's 100 time buckets, median queue-length CV,
# repartitions, scheduler pause, the time the scheduler spent installing
# maps (inside Base's pauses; the only stop of Async's scheduler), and the
# partitions whose heaviest part exceeded METIS's 1.03 bound (in brackets:
# those where no partition of that graph could meet it), each as the median
# over seeds and repetitions with the min-max spread of the makespan. The
# 1-minute load average before each run is kept in loads.txt.
#
# Environment:
#   PSMR_BENCH_REPS      repetitions per scenario (default 3)
#   PSMR_BENCH_ONLY      workloads to run, e.g. "a e" (default "a d e")
#   PSMR_BENCH_REQUESTS  override the scenarios' request counts
#   PSMR_BENCH_SEEDS     workload seeds (default "1", the scenarios' own)
#   CARGO_TARGET_DIR     where the release build of psmr goes (default engine/target)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_env REPS=PSMR_BENCH_REPS=3 "ONLY=PSMR_BENCH_ONLY=a d e"
bench_settings bench-repart "${1:-}"

bench_dry REPS ONLY OUT TARGET PSMR
mkdir -p "$OUT"
bench_build
bench_machine | tee "$OUT/machine-before.txt"
extra=()
if [[ -n "${PSMR_BENCH_REQUESTS:-}" ]]; then extra+=(--requests "$PSMR_BENCH_REQUESTS"); fi
SEEDS="${PSMR_BENCH_SEEDS:-1}"
for w in $ONLY; do
  for seed in $SEEDS; do
    for rep in $(seq 1 "$REPS"); do
      load="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo -)"
      echo "==> workload $w, seed $seed, repetition $rep (load $load)"
      echo "table1-$w-s$seed-$rep $load" >> "$OUT/loads.txt"
      "$PSMR" run --json --no-trace --seed "$seed" "${extra[@]}" "$ROOT/scenarios/repart-table1-$w.json" > "$OUT/table1-$w-s$seed-$rep.json"
    done
  done
done
bench_machine | tee "$OUT/machine-after.txt"
python3 - "$OUT" "$ONLY" <<'PY'
import json, statistics, sys, pathlib
out, only = pathlib.Path(sys.argv[1]), sys.argv[2].split()
for w in only:
    runs = {}
    for f in sorted(out.glob(f"table1-{w}-*.json")):
        for r in json.loads(f.read_text())["runs"]:
            runs.setdefault(r["label"], []).append(r)
    print(f"\n### Workload {w.upper()} ({len(next(iter(runs.values())))} runs: seeds x repetitions)\n")
    print("| configuration | makespan ms (min-max) | median tput kops/s | mean tput kops/s | queue CV % | repartitions | pause ms | install ms (max one) | over 1.03 (unavoidable) | correct |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for label, rs in runs.items():
        med = lambda f: statistics.median(f(r) for r in rs)
        x = lambda k: (lambda r: r["metrics"]["extra"].get(k, 0.0))
        ms = [r["metrics"]["duration_ms"] for r in rs]
        print(f"| {label} | {statistics.median(ms):.0f} ({min(ms):.0f}-{max(ms):.0f}) "
              f"| {med(x('throughput_median_ops_s'))/1e3:.1f} | {med(lambda r: r['throughput_ops_s'])/1e3:.1f} "
              f"| {med(x('queue_cv_median_pct')):.1f} | {med(x('repartitions')):.0f} "
              f"| {med(x('scheduler_pause_ms')):.1f} | {med(x('install_ms')):.2f} ({max(x('install_max_ms')(r) for r in rs):.2f}) "
              f"| {sum(x('partitions_over_bound')(r) for r in rs):.0f}/{sum(x('partitions_computed')(r) for r in rs):.0f} "
              f"({sum(x('partitions_over_bound_unavoidable')(r) for r in rs):.0f}) | {all(r['correct'] for r in rs)} |")
PY
echo "raw reports: $OUT"
