#!/usr/bin/env bash
# Speed of the conductor (issue 25), three ids only: libasync and mely on
# coloring-classroom, ws-moderate on skewed-stealing as the control (a
# model's run: 10,000 requests on 16 virtual cores, traces off), through
# ../../virtual-2026-11-26b/speed/measure.sh (same CSV columns).
#
#   measure3.sh ROUNDS label=path/to/psmr [label=path ...] > speed.csv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
PSMR_PAIRS="coloring-classroom:libasync coloring-classroom:mely skewed-stealing:ws-moderate" \
  exec "$here/../../virtual-2026-11-26b/speed/measure.sh" "$@"
