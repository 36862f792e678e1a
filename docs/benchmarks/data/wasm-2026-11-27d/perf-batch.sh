#!/usr/bin/env bash
# N perf-session.sh sessions of sequential, early, early again (1 thread,
# 4,000 requests), one after the other; switches.py's report of each into
# OUT/<i>.txt, the load into OUT/uptime.log.
#   docs/benchmarks/data/wasm-2026-11-27d/perf-batch.sh OUT DIST N
set -uo pipefail
OUT="$1"; DIST="$2"; N="$3"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$OUT"
for i in $(seq 1 "$N"); do
  echo "$(date -u +%H:%M:%S) $i before: $(uptime | sed 's/.*load average: //')" >>"$OUT/uptime.log"
  "$HERE/perf-session.sh" "$OUT/$i" "$DIST" early,early=early-again || echo "failed: $i" >>"$OUT/uptime.log"
  echo "$(date -u +%H:%M:%S) $i after:  $(uptime | sed 's/.*load average: //')" >>"$OUT/uptime.log"
  python3 "$HERE/switches.py" "$OUT/$i.switches.txt.gz" "$OUT/$i.tids" >"$OUT/$i.txt" 2>&1
done
