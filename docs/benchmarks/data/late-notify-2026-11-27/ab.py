#!/usr/bin/env python3
"""Late (CBASE) before/after the notify moved after the graph lock's unlock: the validation's
four late configurations on real threads, builds interleaved, ROUNDS rounds; prints one line per
run: round build scenario threads ops_per_s full_graph_waits load1."""
import json, subprocess, sys, os
BEFORE, AFTER = sys.argv[1], sys.argv[2]
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 9
D = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'late-epaxos-2026-11-23-quiet')
CASES = [(D + '/late-mixed-light.scenario.json', 20000), (D + '/late-mixed-moderate.scenario.json', 4000)]
def load1():
    return open("/proc/loadavg").read().split()[0]
print("# round build scenario threads ops_per_s full_graph_waits load1")
for r in range(ROUNDS):
    for sc, req in CASES:
        for t in (1, 2):
            for name, b in (("before", BEFORE), ("after", AFTER)):
                out = subprocess.run([b, "run", sc, "--scheduler", "late", "--threads", str(t), "--no-trace",
                                      "--json", "--requests", str(req), "--seed", "3"],
                                     capture_output=True, text=True, check=True).stdout
                m = json.loads(out)["runs"][0]["metrics"]
                ops, fg = m["throughput_ops_s"], m["counters"]["full_graph_waits"]
                print(r, name, os.path.basename(sc), t, round(ops), fg, load1(), flush=True)
