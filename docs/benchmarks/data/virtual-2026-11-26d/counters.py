#!/usr/bin/env python3
"""The three rows outside 0.8-1.25 (docs/benchmarks/virtual.md): counters of
real runs (REPS each, this build, real threads) beside the model's run
(virtual 2 cores, a model; the machine table). One line per run:
row side ops/s duration_ms counters(non-zero) extra(selected) per-thread
(executed, exec_ms, wait_ms, idle_ms) load1. Run from the repository root:
    python3 docs/benchmarks/data/virtual-2026-11-26d/counters.py PSMR TABLE REPS
"""
import json
import os
import subprocess
import sys

D = "docs/benchmarks/data/late-epaxos-2026-11-23-quiet"
ROWS = [
    ("early-moderate-2", f"{D}/late-mixed-moderate.scenario.json", "early", 2),
    ("early-moderate-1", f"{D}/late-mixed-moderate.scenario.json", "early", 1),
    ("late-moderate-2", f"{D}/late-mixed-moderate.scenario.json", "late", 2),
    ("late-moderate-1", f"{D}/late-mixed-moderate.scenario.json", "late", 1),
    ("mely-time-left-2", "scenarios/coloring-unbalanced.json", "mely-time-left", 2),
]
EXTRA = ("steal_tries", "refused_time_left", "lock_wait_share", "idle_share", "steal_cost_ns_mean")


def line(row, side, args):
    load = os.getloadavg()[0]
    d = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    r = d["runs"][0]
    m = r["metrics"]
    cnt = {k: v for k, v in m["counters"].items() if v}
    ex = {k: round(v, 3) for k, v in (m.get("extra") or {}).items() if k in EXTRA}
    th = [(t["executed"], round(t["exec_ms"], 2), round(t["wait_ms"], 2), round(t["idle_ms"], 2))
          for t in m["threads"]]
    print(row, side, round(r["throughput_ops_s"]), round(m["duration_ms"], 2),
          json.dumps(cnt, separators=(",", ":")), json.dumps(ex, separators=(",", ":")),
          json.dumps(th, separators=(",", ":")), f"load={load:.2f}", flush=True)


def main():
    psmr, table, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    for row, sc, label, t in ROWS:
        base = [psmr, "run", sc, "--scheduler", label, "--threads", str(t), "--no-trace", "--json"]
        line(row, "virtual(model)", base + ["--virtual-cores", "2", "--cost-table", table])
        for _ in range(reps):
            line(row, "real", base)


if __name__ == "__main__":
    main()
