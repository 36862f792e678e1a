#!/usr/bin/env bash
# Speed of the conductor (issue 25), three ids only: libasync and mely on
# coloring-classroom, ws-moderate on skewed-stealing as the control; 10,000
# requests on 16 virtual cores (a model's run, reference cost table),
# traces off. One CSV row per run, same columns as
# ../../virtual-2026-11-26b/speed/measure.sh.
#
#   measure3.sh ROUNDS label=path/to/psmr [label=path ...] > speed.csv
set -euo pipefail
rounds=$1
shift
root=$(cd "$(dirname "$0")/../../../../.." && pwd)
pairs=(coloring-classroom:libasync coloring-classroom:mely skewed-stealing:ws-moderate)
echo "build,scenario,scheduler,round,wall_s,user_s,sys_s,voluntary_cs,involuntary_cs,load1,exit"
for r in $(seq 1 "$rounds"); do
  for p in "${pairs[@]}"; do
    sc=${p%%:*}
    id=${p#*:}
    for b in "$@"; do
      label=${b%%=*}
      bin=${b#*=}
      load=$(cut -d' ' -f1 /proc/loadavg)
      t=$(mktemp)
      set +e
      /usr/bin/time -o "$t" -f "%e,%U,%S,%w,%c" "$bin" run "$root/scenarios/$sc.json" \
        --virtual-cores 16 --requests 10000 --no-trace --scheduler "$id" >/dev/null 2>&1
      code=$?
      set -e
      echo "$label,$sc,$id,$r,$(tail -n 1 "$t"),$load,$code"
      rm -f "$t"
    done
  done
done
