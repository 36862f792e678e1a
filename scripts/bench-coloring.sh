#!/usr/bin/env bash
# Reproduce docs/benchmarks/coloring.md: native `psmr run` of the shipped
# event-coloring scenarios (paper 002 section V.B microbenchmarks and the
# SWS-like pipeline), each repeated, with Table I's two columns and the
# runtime's overheads per configuration.
#
#   scripts/bench-coloring.sh [OUT_DIR]
#
# Prints the machine (cores, CPU model, load average) before and after,
# then one line per configuration and repetition: events per second, steals,
# mean steal cost and mean processing time stolen per steal (Table I), the
# runtime and lock-wait shares of the cores' time (Table III), refused
# steals by heuristic, and the oracle's verdict. Each run's JSON report is
# kept in OUT_DIR (default: a fresh folder under ${TMPDIR:-/tmp}).
#
# Environment:
#   PSMR_BENCH_REPS     repetitions per scenario (default 3)
#   PSMR_BENCH_ONLY     run only scenarios whose file name contains this text
#   CARGO_TARGET_DIR    where the release build of psmr goes (default engine/target)
#
# Run it on a quiet machine: other processes' load distorts the numbers
# (the load average is printed next to them for that reason).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_env REPS=PSMR_BENCH_REPS=3 "ONLY=PSMR_BENCH_ONLY="
bench_settings bench-coloring "${1:-}"

SCENARIOS=(
  coloring-unbalanced.json
  coloring-penalty.json
  coloring-locality.json
  coloring-sws.json
)

# One run's JSON report as lines (node is already needed by the web app).
lines() {
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const pad = (s, n) => String(s).padStart(n);
    const f = (x, d = 0) => (x === undefined ? "-" : Number(x).toFixed(d));
    for (const run of r.runs) {
      const m = run.metrics, x = m.extra ?? {}, c = m.counters ?? {};
      const refused = Object.keys(x).filter((k) => k.startsWith("refused_") && x[k] > 0)
        .map((k) => `${k.slice(8)}=${x[k]}`).join(",") || "-";
      console.log([process.argv[2].padEnd(10), run.label.padEnd(18), pad(f(m.throughput_ops_s / 1000, 1), 9),
        pad(c.steals ?? 0, 7), pad(f(x.steal_cost_ns_mean), 8), pad(f(x.stolen_time_ns_mean), 9),
        pad(f(100 * (x.runtime_share ?? 0), 1), 8), pad(f(100 * (x.lock_wait_share ?? 0), 1), 8),
        pad(run.correct ? "ok" : "WRONG", 6), " " + refused].join(" "));
    }
  ' "$1" "$2"
}

bench_dry REPS ONLY OUT TARGET PSMR SCENARIOS
bench_build
mkdir -p "$OUT"
bench_machine | tee "$OUT/machine-before.txt"
printf '%-10s %-18s %9s %7s %8s %9s %8s %8s %6s  %s\n' scenario label kev/s steals steal_ns stolen_ns runtime% lockw% oracle refused
for s in "${SCENARIOS[@]}"; do
  [[ -n "$ONLY" && "$s" != *"$ONLY"* ]] && continue
  for rep in $(seq 1 "$REPS"); do
    json="$OUT/${s%.json}-$rep.json"
    "$PSMR" run "$ROOT/scenarios/$s" --no-trace --json >"$json"
    name="${s#coloring-}"; lines "$json" "${name%.json}" | sed "s/^/r$rep /"
  done
done | tee "$OUT/table.txt"
bench_machine | tee "$OUT/machine-after.txt"
echo "reports in $OUT"
