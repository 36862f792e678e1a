#!/usr/bin/env python3
"""The schedulers' own work per request at the places the new cost-table
entries charge (route, event_pop + event_register, graph_take +
graph_remove), measured on real runs that are NOT validation rows
(docs/benchmarks/virtual.md, 2026-11-27f), beside the model's run of the
same case (virtual 2 cores, a model; the table TABLE).

Per run: ops/s, duration, the delivering thread's busy ns per delivery
(`scheduler_ns_per_request`), and per worker (executed, exec_ms, wait_ms,
idle_ms) and its own ns per request: (duration - exec - wait - idle) /
executed, the time a worker spends outside execution and every traced
wait (the take and remove, the pop and register, their locks).
Run from the repository root:
    python3 docs/benchmarks/data/virtual-2026-11-27f/own-work.py PSMR TABLE REPS
"""
import json
import os
import subprocess
import sys

D = "docs/benchmarks/data/late-epaxos-2026-11-23-quiet"
# (case, scenario, scheduler, threads, requests): none is a validation row.
CASES = [
    ("late-read-light-1", f"{D}/late-read-light.scenario.json", "late", 1, None),
    ("late-read-moderate-1", f"{D}/late-read-moderate.scenario.json", "late", 1, None),
    ("ws-cons-skewed-stealing-1", "scenarios/skewed-stealing.json", "ws-conservative", 1, None),
    ("ws-opt-skewed-stealing-1", "scenarios/skewed-stealing.json", "ws-optimistic", 1, None),
    ("mely-no-steal-unbalanced-2", "scenarios/coloring-unbalanced.json", "mely-no-steal", 2, None),
    ("libasync-no-steal-sws-2", "scenarios/coloring-sws.json", "libasync-no-steal", 2, None),
]


def line(case, side, args):
    load = os.getloadavg()[0]
    d = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    r = d["runs"][0]
    m = r["metrics"]
    dur = m["duration_ms"]
    th = []
    for t in m["threads"]:
        own = (dur - t["exec_ms"] - t["wait_ms"] - t["idle_ms"]) * 1e6 / max(t["executed"], 1)
        th.append((t["executed"], round(t["exec_ms"], 2), round(t["wait_ms"], 2),
                   round(t["idle_ms"], 2), round(own)))
    print(case, side, round(r["throughput_ops_s"]), round(dur, 2),
          f"deliverer_ns={m['scheduler_ns_per_request']:.0f}",
          json.dumps(th, separators=(",", ":")), f"load={load:.2f}", flush=True)


def main():
    psmr, table, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    only = sys.argv[4:]
    for case, sc, label, t, n in CASES:
        if only and case not in only:
            continue
        base = [psmr, "run", sc, "--scheduler", label, "--threads", str(t), "--no-trace", "--json"]
        if n:
            base += ["--requests", str(n)]
        line(case, "virtual(model)", base + ["--virtual-cores", "2", "--cost-table", table])
        for _ in range(reps):
            line(case, "real", base)


if __name__ == "__main__":
    main()
