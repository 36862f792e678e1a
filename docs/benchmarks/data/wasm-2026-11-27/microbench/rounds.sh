#!/usr/bin/env bash
# Interleaved rounds: every variant natively and in node (default tiering and
# --no-liftoff), then the build and tier variants for v1 (psmr-core's loop) and v7.
set -euo pipefail
cd "$(dirname "$0")"
O=${OUT:-${CARGO_TARGET_DIR:?}/mb-out}
N=${N:-6000}; E=100000
echo "# $(date) load: $(cut -d' ' -f1-3 /proc/loadavg); node $(node --version) (V8 $(node -p process.versions.v8)); $(wasm-opt --version)"
for r in $(seq "${ROUNDS:-3}"); do
  echo "# round $r"
  for v in 0 1 2 3 4 5 6 7 8; do
    "$O/native" $v $N $E
    node run.mjs "$O/plain.wasm" $v $N $E
    echo -n "--no-liftoff "; node --no-liftoff run.mjs "$O/plain.wasm" $v $N $E
  done
  for v in 1 7; do
    for w in feat os plain.O2; do echo -n "--no-liftoff "; node --no-liftoff run.mjs "$O/$w.wasm" $v $N $E; done
    echo -n "--liftoff-only "; node --liftoff-only run.mjs "$O/plain.wasm" $v $N $E
  done
done
echo "# end $(date) load: $(cut -d' ' -f1-3 /proc/loadavg)"
