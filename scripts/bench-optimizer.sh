#!/usr/bin/env bash
# Reproduce docs/benchmarks/optimizer.md: the mapping optimizer against an
# independent MILP of the same model (scripts/optimizer_milp.py, HiGHS via
# highspy), on the same instances and the same time limit.
#
#   scripts/bench-optimizer.sh [OUT_DIR]
#
# Families (engine/crates/psmr-mapping/src/instances.rs, seeded):
#   comparison  the 60 instances of issue 20 (sharded 2/4/8 shards x five
#               weightings x two thread counts, 30 random class graphs)
#   hard        the hard shapes of the regression test (8 skewed shards on
#               6/10/12 threads, dense random graphs of 7-10 classes)
#   shipped     every scenario in scenarios/, at its own optimizer cap
#   fresh       instances drawn now (instances::fresh_family: sharded,
#               skewed, dense and random graphs, 3-18 classes, 2-32
#               threads) from a seed printed at the start and written to
#               OUT_DIR/fresh-seed.txt (issue 30)
#   reproducer  issue 30's 7-class tables on 16 threads
# For each family: our optimizer (release build), an independent check of
# every mapping it returned (rules R.1-R.5 and its score, in Python), HiGHS
# at the same limit, and a markdown table. Then HiGHS with a long limit on
# the hard instances whose optimum has O.3 > 0, to prove the O.3 targets of
# the regression test (O.3 = 0 needs no proof).
#
# Environment:
#   PSMR_OPT_LIMIT        time limit in seconds for both solvers (default 10)
#   PSMR_OPT_PROOF_LIMIT  HiGHS limit of the proof step (default 300; 0 skips it)
#   PSMR_BENCH_ONLY       only instances whose name contains this text
#   PSMR_BENCH_FAMILIES   families to run, in order (default
#                         "comparison hard shipped fresh reproducer")
#   PSMR_FRESH_SEED       seed of the fresh family (default: drawn from
#                         /dev/urandom); PSMR_FRESH_COUNT its size (default 40)
#   CARGO_TARGET_DIR      where the release build goes (default engine/target)
#
# Writes raw data (instances, JSON lines of both solvers, tables, machine)
# to OUT_DIR, default docs/benchmarks/data/optimizer-<UTC date>/.
# Installs what it needs: a Python venv with highspy under the target dir.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_env LIMIT=PSMR_OPT_LIMIT=10 "FAMILIES=PSMR_BENCH_FAMILIES=comparison hard shipped fresh reproducer" PROOF_LIMIT=PSMR_OPT_PROOF_LIMIT=300
PSMR_FRESH_SEED="${PSMR_FRESH_SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}"
export PSMR_FRESH_SEED
bench_settings optimizer "${1:-$ROOT/docs/benchmarks/data/optimizer-$(date -u +%Y-%m-%d)}"
VENV="$TARGET/bench-venv"
BENCH="$TARGET/release/examples/optimizer_bench"
MILP="$ROOT/scripts/optimizer_milp.py"

bench_dry LIMIT FAMILIES PSMR_FRESH_SEED PROOF_LIMIT OUT TARGET
need python3 "install Python 3 (with venv)" || exit 2
mkdir -p "$OUT"
echo "fresh instances: PSMR_FRESH_SEED=$PSMR_FRESH_SEED PSMR_FRESH_COUNT=${PSMR_FRESH_COUNT:-40}" \
  | tee "$OUT/fresh-seed.txt"
echo "== machine"
bench_machine | tee "$OUT/machine-before.txt"

echo
echo "== build: cargo build --release -p psmr-mapping --example optimizer_bench"
bench_build psmr-mapping --example optimizer_bench

if ! "$VENV/bin/python" -c 'import highspy' 2>/dev/null; then
  echo "== python venv with highspy: $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q 'highspy>=1.7'
fi
"$VENV/bin/python" -c 'import highspy; print("highspy", highspy.Highs().version())' | tee "$OUT/highs-version.txt"

# Every shipped scenario (not the schema).
mapfile -t SCENARIOS < <(ls "$ROOT"/scenarios/*.json | grep -v 'scenario.schema.json')

for family in $FAMILIES; do
  files=()
  limit="$LIMIT"
  if [ "$family" = shipped ]; then
    files=("${SCENARIOS[@]}")
    limit=cap
  fi
  echo
  echo "== $family: ours (limit $limit), load $(cut -d' ' -f1 /proc/loadavg)"
  "$BENCH" dump "$family" "${files[@]}" >"$OUT/$family-instances.json"
  "$BENCH" solve "$family" "$limit" "${files[@]}" >"$OUT/$family-ours.jsonl"
  "$VENV/bin/python" "$MILP" check "$OUT/$family-instances.json" "$OUT/$family-ours.jsonl" | tee "$OUT/$family-check.txt"
  echo "== $family: HiGHS (limit $limit), load $(cut -d' ' -f1 /proc/loadavg)"
  "$VENV/bin/python" "$MILP" solve "$OUT/$family-instances.json" "$limit" "$OUT/$family-highs.jsonl"
  "$VENV/bin/python" "$MILP" report "$OUT/$family-instances.json" "$OUT/$family-ours.jsonl" "$OUT/$family-highs.jsonl" \
    | tee "$OUT/$family-table.md"
done

if [ "$PROOF_LIMIT" != 0 ] && [[ " $FAMILIES " == *" hard "* ]]; then
  echo
  echo "== proof: HiGHS with limit $PROOF_LIMIT s on the hard instances whose optimum has O.3 > 0"
  "$VENV/bin/python" - "$OUT/hard-instances.json" "$OUT/hard-ours.jsonl" "$OUT/proof-instances.json" <<'EOF'
import json, sys
insts = json.load(open(sys.argv[1]))
ours = {json.loads(l)["name"]: json.loads(l) for l in open(sys.argv[2])}
json.dump([i for i in insts if ours[i["name"]]["o3"] > 0], open(sys.argv[3], "w"))
EOF
  "$VENV/bin/python" "$MILP" solve "$OUT/proof-instances.json" "$PROOF_LIMIT" "$OUT/proof-highs.jsonl"
fi

echo
echo "== machine after"
bench_machine | tee "$OUT/machine-after.txt"
echo "raw data: $OUT"
