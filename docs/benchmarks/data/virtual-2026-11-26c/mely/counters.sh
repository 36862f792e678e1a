#!/usr/bin/env bash
# Mely time-left on coloring-unbalanced, 2 workers on 2 virtual cores (a model's
# run): which charge makes the model slow? One run per cost table (the model is
# deterministic). Columns: table, ops/s (model), steals, failed steals, steal
# tries (each locks the victim's queue), tries refused by time-left, the owner's
# lock-wait share, idle share, per thread (executed, exec ms, idle ms).
#   counters.sh path/to/psmr
set -euo pipefail
B=$1
S=$(cd "$(dirname "$0")/../../../../.." && pwd)/scenarios/coloring-unbalanced.json
ref='"lock_uncontended":20,"lock_contended":100,"atomic_rmw":20,"line_transfer":80,"queue_handoff":50,"wake_up":3000,"spin":10,"yield_now":300,"work_unit":2,"execute_base":100,"scan_step":11,"context_switch":2000,"time_slice":3000000'
# tables/machine.json of the lead's branch without its three new entries
# (wake_notify, deliver, mutex_spins), which this build's model does not charge.
mach='"lock_uncontended":4,"lock_contended":5,"atomic_rmw":2,"line_transfer":32,"queue_handoff":61,"wake_up":18500,"spin":24,"yield_now":484,"work_unit":1,"execute_base":320,"scan_step":8,"context_switch":790,"time_slice":3970000'
t=$(mktemp)
run() {
  echo "{$1}" >"$t"
  "$B" run "$S" --virtual-cores 2 --threads 2 --scheduler mely-time-left --cost-table "$t" --json 2>/dev/null |
    python3 -c "
import json,sys;d=json.load(sys.stdin);r=d['runs'][0];m=r['metrics'];c=m['counters'];x=m['extra']
print('$2', round(r['throughput_ops_s']), c['steals'], c['failed_steals'], int(x['steal_tries']), int(x['refused_time_left']), round(x['lock_wait_share'],3), round(x['idle_share'],3), [(t['executed'],round(t['exec_ms'],2),round(t['idle_ms'],2)) for t in m['threads']])"
}
run "$ref" reference
run "${ref/\"lock_contended\":100/\"lock_contended\":0}" reference-lock_contended-0
run "${ref/\"line_transfer\":80/\"line_transfer\":0}" reference-line_transfer-0
run "${ref/\"scan_step\":11/\"scan_step\":1}" reference-scan_step-1
run "$mach" machine-without-new-charges
run "${mach/\"line_transfer\":32/\"line_transfer\":0}" machine-without-new-charges-line_transfer-0
rm -f "$t"
