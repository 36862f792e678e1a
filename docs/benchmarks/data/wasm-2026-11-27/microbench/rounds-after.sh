#!/usr/bin/env bash
# Interleaved rounds of v0 (psmr-core's own ShardedList::execute through
# &dyn Application) built from psmr-core before (index links, $O) and after
# (address links, $A) the change to app/list.rs.
set -euo pipefail
cd "$(dirname "$0")"
O=${OUT:-${CARGO_TARGET_DIR:?}/mb-out}; A=${AFTER:-$CARGO_TARGET_DIR/mb-after}
N=${N:-6000}; E=100000
echo "# $(date) load: $(cut -d' ' -f1-3 /proc/loadavg); before = $O, after = $A"
for r in $(seq "${ROUNDS:-3}"); do
  echo "# round $r"
  for d in "$O" "$A"; do
    echo -n "$(basename "$d") "; "$d/native" 0 $N $E
    echo -n "$(basename "$d") "; node run.mjs "$d/plain.wasm" 0 $N $E
    echo -n "$(basename "$d") --no-liftoff "; node --no-liftoff run.mjs "$d/plain.wasm" 0 $N $E
  done
done
echo "# end $(date) load: $(cut -d' ' -f1-3 /proc/loadavg)"
