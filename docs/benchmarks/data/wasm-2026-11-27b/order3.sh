#!/usr/bin/env bash
# Like order.sh, with three parallel runs a repetition so that one executor
# runs twice: session "ebe" sweeps zz-wprof-ebe.json (sequential, early,
# busy-wait, early again under the label early-again), session "beb"
# zz-wprof-beb.json (sequential, busy-wait, early, busy-wait-again). Both
# scenario files were temporary copies of early-rw-read-heavy.json (without
# its expectations), built into DIST3 for this pass only.
#   docs/benchmarks/data/wasm-2026-11-27b/order3.sh OUT_DIR DIST3 [ROUNDS] [PROF]
set -euo pipefail
OUT="$1"; DIST="$2"; ROUNDS="${3:-3}"; PROF="${4:-0}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$OUT"
for i in $(seq 1 "$ROUNDS"); do
  for kind in ebe beb; do
    d="$OUT/$i-$kind"
    if [ "$kind" = ebe ]; then ex=early,busy-wait,early-again; else ex=busy-wait,early,busy-wait-again; fi
    echo "$(date -u +%H:%M:%S) $d before: $(uptime | sed 's/.*load average: //')" >>"$OUT/uptime.log"
    SCENARIO="zz-wprof-$kind.json" node "$HERE/sweep-prof.mjs" "$d" "$DIST" "$ex" "$PROF" >"$d.log" 2>&1 || echo "failed: $d" >>"$OUT/uptime.log"
    echo "$(date -u +%H:%M:%S) $d after:  $(uptime | sed 's/.*load average: //')" >>"$OUT/uptime.log"
  done
done
