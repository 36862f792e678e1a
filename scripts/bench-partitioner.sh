#!/usr/bin/env bash
# Reproduce docs/benchmarks/partitioner.md: psmr-partition against METIS's
# gpmetis on the same graphs (planted-partition graphs and YCSB-E workload
# graphs), k = 2, 4, 8, imbalance 1.03 (gpmetis -ufactor=30).
#
#   scripts/bench-partitioner.sh [OUT_DIR]
#
# Installs Debian's `metis` package when gpmetis is missing (root or sudo).
# Writes OUT_DIR/partitioner.csv with one row per graph and k:
#   graph,k,vertices,edges,cut_ours,cut_metis,imbalance_ours,imbalance_metis,time_ours_ms,time_metis_ms
# Both cuts and imbalances are computed by psmr-partition from the two
# partitions (imbalance = heaviest part / average part). time_ours_ms is the
# `partition` call alone; time_metis_ms is gpmetis's own "Partitioning" time.
# Both exclude reading the file. The machine (cores, CPU, load) is saved
# before and after.
#
# Environment:
#   PSMR_BENCH_KS      part counts (default "2 4 8")
#   PSMR_BENCH_SEED    seed of our partitioner (default 1)
#   CARGO_TARGET_DIR   where the release build goes (default engine/target)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_env "KS=PSMR_BENCH_KS=2 4 8" SEED=PSMR_BENCH_SEED=1
bench_settings bench-partitioner "${1:-}"
BENCH="$TARGET/release/examples/bench_partition"

machine() {
  bench_machine
  printf 'gpmetis:       %s\n' "$(dpkg-query -W -f='${Package} ${Version}' metis 2>/dev/null || echo unknown)"
}

install_metis() {
  command -v gpmetis >/dev/null 2>&1 && return 0
  echo "== installing Debian's metis (gpmetis)"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get install -y metis || { $sudo apt-get update && $sudo apt-get install -y metis; }
}

bench_dry KS SEED OUT TARGET
install_metis
need gpmetis "apt-get install metis" || exit 2
mkdir -p "$OUT/graphs"
echo "== machine"
machine | tee "$OUT/machine-before.txt"

echo
echo "== build: cargo build --release -p psmr-partition --example bench_partition"
bench_build psmr-partition --example bench_partition

echo
echo "== graphs -> $OUT/graphs"
mapfile -t GRAPHS < <("$BENCH" gen "$OUT/graphs")

CSV="$OUT/partitioner.csv"
echo "graph,k,vertices,edges,cut_ours,cut_metis,imbalance_ours,imbalance_metis,time_ours_ms,time_metis_ms" >"$CSV"
printf '\n%-34s %2s %8s %8s %9s %9s %6s %6s %9s %9s\n' graph k vertices edges cut_ours cut_metis imb_o imb_m ours_ms metis_ms
for name in "${GRAPHS[@]}"; do
  file="$OUT/graphs/$name.graph"
  read -r vertices edges _ <"$file"
  for k in $KS; do
    log="$OUT/graphs/$name.gpmetis.$k.log"
    gpmetis -ufactor=30 "$file" "$k" >"$log"
    metis_s="$(sed -n 's/^ *Partitioning:[[:space:]]*\([0-9.]*\).*/\1/p' "$log")"
    read -r cut_m imb_m < <("$BENCH" eval "$file" "$file.part.$k" "$k")
    read -r cut_o imb_o ms_o < <("$BENCH" run "$file" "$k" "$SEED")
    ms_m="$(awk -v s="$metis_s" 'BEGIN { printf "%.3f", s * 1000 }')"
    imb_o_f="$(awk -v p="$imb_o" 'BEGIN { printf "%.3f", p / 1000 }')"
    imb_m_f="$(awk -v p="$imb_m" 'BEGIN { printf "%.3f", p / 1000 }')"
    echo "$name,$k,$vertices,$edges,$cut_o,$cut_m,$imb_o_f,$imb_m_f,$ms_o,$ms_m" >>"$CSV"
    printf '%-34s %2s %8s %8s %9s %9s %6s %6s %9s %9s\n' "$name" "$k" "$vertices" "$edges" "$cut_o" "$cut_m" "$imb_o_f" "$imb_m_f" "$ms_o" "$ms_m"
  done
done

echo
echo "== machine after"
machine | tee "$OUT/machine-after.txt"
echo "CSV: $CSV"
