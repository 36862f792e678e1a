#!/usr/bin/env bash
# Interleaved slot.mjs sessions: ROUNDS rounds, each running every condition
# once in turn; uptime before and after each session in OUT/uptime.log.
# A condition is NAME:ORDER:REQUESTS:JSFLAGS[:ENTRIES] (see slot.mjs).
#   docs/benchmarks/data/wasm-2026-11-27d/batch.sh OUT DIST ROUNDS COND...
set -uo pipefail
OUT="$1"; DIST="$2"; ROUNDS="$3"; shift 3
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$OUT"
for i in $(seq 1 "$ROUNDS"); do
  for cond in "$@"; do
    IFS=: read -r name order req flags entries <<<"$cond"
    f="$OUT/$i-$name"
    echo "$(date -u +%H:%M:%S) $i-$name before: $(uptime | sed 's/.*load average: //')" >>"$OUT/uptime.log"
    ENTRIES="${entries:-}" node "$HERE/slot.mjs" "$f.csv" "$DIST" "$order" "$req" "$flags" >"$f.log" 2>&1 || echo "failed: $f" >>"$OUT/uptime.log"
    echo "$(date -u +%H:%M:%S) $i-$name after:  $(uptime | sed 's/.*load average: //')" >>"$OUT/uptime.log"
  done
done
