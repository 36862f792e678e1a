#!/usr/bin/env bash
# Speed of the conductor (issue 25): every scheduler id, 10,000 requests on
# 16 virtual cores (a model's run, reference cost table), traces off, with
# each given `psmr` binary in turn (before/after interleaved per scheduler).
# One CSV row per run: wall time and the process's user+sys CPU time
# (/usr/bin/time), voluntary/involuntary context switches, and the 1-minute
# load average just before the run (the machine is shared).
#
#   measure.sh ROUNDS label=path/to/psmr [label=path ...] > speed.csv
#
# PSMR_PAIRS="scenario:id ..." measures those pairs instead of all 16.
set -euo pipefail
rounds=$1
shift
root=$(cd "$(dirname "$0")/../../../../.." && pwd)
default_pairs=(
  quickstart:sequential quickstart:early quickstart:busy-wait quickstart:ws-optimistic
  skewed-stealing:ws-conservative skewed-stealing:ws-moderate skewed-stealing:ws-aggressive
  classroom-late:late classroom-epaxos:epaxos classroom-epaxos:pepaxos
  coloring-classroom:libasync coloring-classroom:mely
  repart-classroom:repart-rr repart-classroom:repart-sw repart-classroom:repart-base
  repart-classroom:repart-async
)
read -r -a pairs <<<"${PSMR_PAIRS:-${default_pairs[*]}}"
# Every row is a model run's, and says so (its mode column).
mode="virtual 16 cores (model; reference cost table)"
echo "build,scenario,scheduler,round,wall_s,user_s,sys_s,voluntary_cs,involuntary_cs,load1,exit,mode"
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
      echo "$label,$sc,$id,$r,$(tail -n 1 "$t"),$load,$code,$mode"
      rm -f "$t"
    done
  done
done
