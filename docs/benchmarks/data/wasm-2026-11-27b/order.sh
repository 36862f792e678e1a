#!/usr/bin/env bash
# Interleaved browser sweeps (sweep-prof.mjs; PROF=1: with V8's profiler) of
# early and busy-wait at 1 thread, alternating the executors' order: session
# "early-first" runs early-rw-read-heavy.json from DIST (sequential, early,
# busy-wait), session "busy-first" runs the same scenario with busy-wait listed
# before early (zz-wprof-swapped.json, a copy made for this pass only and built
# into DIST_SWAPPED). ROUNDS pairs; uptime before and after each session.
#   docs/benchmarks/data/wasm-2026-11-27b/order.sh OUT_DIR DIST DIST_SWAPPED [ROUNDS] [PROF]
set -euo pipefail
OUT="$1"; DIST="$2"; SWAPPED="$3"; ROUNDS="${4:-4}"; PROF="${5:-0}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$OUT"
for i in $(seq 1 "$ROUNDS"); do
  for order in early-first busy-first; do
    d="$OUT/$i-$order"
    if [ "$order" = early-first ]; then dist="$DIST"; sc=early-rw-read-heavy.json; else dist="$SWAPPED"; sc=zz-wprof-swapped.json; fi
    echo "$(date -u +%H:%M:%S) $d before: $(uptime | sed 's/.*load average: //')" >>"$OUT/uptime.log"
    SCENARIO="$sc" node "$HERE/sweep-prof.mjs" "$d" "$dist" early,busy-wait "$PROF" >"$d.log" 2>&1 || echo "failed: $d" >>"$OUT/uptime.log"
    echo "$(date -u +%H:%M:%S) $d after:  $(uptime | sed 's/.*load average: //')" >>"$OUT/uptime.log"
  done
done
