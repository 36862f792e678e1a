#!/bin/sh
# Diagnosis only (nothing fitted, no table kept): late on the light list (the validation's stream)
# on 2 virtual cores under machine-b-late with wake_notify and wake_up changed. The model's numbers.
# Run from the repository root; PSMR is the binary.
T=docs/benchmarks/data/virtual-2026-11-27k/tables/machine-b-late.json
S=docs/benchmarks/data/late-epaxos-2026-11-23-quiet/late-mixed-light.scenario.json
TMP=$(mktemp -d)
for wn in 3563 10000 20000; do for wu in 19195 5000 1000; do
  python3 -c "import json; t=json.load(open('$T')); t['wake_notify']=$wn; t['wake_up']=$wu; json.dump(t,open('$TMP/t.json','w'))"
  for th in 1 2; do
    "$PSMR" run $S --scheduler late --threads $th --virtual-cores 2 --no-trace --requests 20000 --seed 3 \
      --cost-table $TMP/t.json --json | python3 -c "
import json,sys; r=json.load(sys.stdin)['runs'][0]; m=r['metrics']
print('wake_notify $wn wake_up $wu workers $th ops/s', round(r['throughput_ops_s']), 'full_graph_waits', m['counters']['full_graph_waits'])"
  done
done; done
rm -r "$TMP"
