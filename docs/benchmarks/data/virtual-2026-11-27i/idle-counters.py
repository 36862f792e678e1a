#!/usr/bin/env python3
"""Work stealing's and Mely's empty queue: counters of real runs beside the
model's (issue 25, docs/benchmarks/virtual.md "Work stealing's and Mely's
empty queue"). Rows that are NOT validation rows (other schedulers of the
same scenarios, other seeds). For each case: REPS real runs (`psmr run
--json --no-trace` under `perf stat -e context-switches,cpu-migrations,
task-clock`), then the model's run (`--virtual-cores 2 --cost-table TABLE`).
Prints, per run: ops/s, the counters that count an idle worker's loop
(failed_steals, spins, yields, parks, steals), the per-thread idle and exec
ms, and perf's context switches and migrations.
    idle-counters.py TABLE REPS [CASE ...]   (CASE: scenario:label:threads:seed)
Env: PSMR (default engine/target/release/psmr); FIFO=1 runs the real side
under `chrt -f 10` (SCHED_FIFO: no other process takes a CPU from the run's
threads; it also changes how they share the CPUs: a woken thread is not
placed behind, nor preempts, an equal-priority running one); NICE=1 under
`nice -n -20` instead (the fair scheduler still shares the CPUs among the
run's threads, but other processes get about 1 % of their weight). Run from the
repository root.
"""
import json
import os
import re
import subprocess
import sys

PSMR = os.environ.get("PSMR", "engine/target/release/psmr")
TABLE, REPS = sys.argv[1], int(sys.argv[2])
CASES = sys.argv[3:] or [
    "ws-skewed-shards:ws-aggressive:1:5", "ws-skewed-shards:ws-aggressive:2:5",
    "ws-skewed-shards:ws-moderate:2:5", "ws-skewed-shards:ws-conservative:2:7",
    "ws-skewed-shards:ws-optimistic:2:7", "coloring-unbalanced:mely-base:2:19",
    "coloring-unbalanced:mely-time-left:2:7",
]
KEYS = ["failed_steals", "spins", "yields", "parks", "steals"]


def run(sc, label, threads, seed, virtual):
    req = "20020" if sc.startswith("coloring") else "20000"
    args = [PSMR, "run", f"scenarios/{sc}.json", "--scheduler", label, "--threads", threads,
            "--seed", seed, "--requests", req, "--json", "--no-trace"]
    if virtual:
        args += ["--virtual-cores", "2", "--cost-table", TABLE]
        out, perf = subprocess.run(args, capture_output=True, text=True, check=True).stdout, ""
    else:
        fifo = ["chrt", "-f", "10"] if os.environ.get("FIFO") == "1" else []
        if os.environ.get("NICE") == "1":
            fifo = ["nice", "-n", "-20"]
        p = subprocess.run(["perf", "stat", "-x,", "-e", "context-switches,cpu-migrations,task-clock"]
                           + fifo + args, capture_output=True, text=True, check=True)
        out, perf = p.stdout, p.stderr
    r = json.loads(out)["runs"][0]
    m = r["metrics"]
    c = m["counters"]
    ev = {}
    for line in perf.splitlines():
        f = line.split(",")
        if len(f) > 2 and f[2] in ("context-switches", "cpu-migrations", "task-clock"):
            ev[f[2]] = float(f[0]) if f[0] not in ("<not counted>", "<not supported>") else -1
    th = " ".join(f"t{t['thread']}:exec {t['exec_ms']:.2f} idle {t.get('idle_ms', 0):.2f} "
                  f"wait {t.get('wait_ms', 0):.2f}" for t in m["threads"])
    cs = (f" cs {ev.get('context-switches', -1):.0f} mig {ev.get('cpu-migrations', -1):.0f} "
          f"task-ms {ev.get('task-clock', -1):.1f}") if ev else ""
    return (f"{r['throughput_ops_s']:10.0f} " + " ".join(f"{k} {c.get(k, 0)}" for k in KEYS)
            + f" sched_ns {m.get('scheduler_ns_per_request', 0):.0f} | {th}{cs}")


for case in CASES:
    sc, label, threads, seed = case.split(":")
    load = open("/proc/loadavg").read().split()[0]
    print(f"== {sc} {label} threads {threads} seed {seed} (load {load})", flush=True)
    for i in range(REPS):
        print("real ", run(sc, label, threads, seed, False), flush=True)
    print("model", run(sc, label, threads, seed, True), flush=True)
