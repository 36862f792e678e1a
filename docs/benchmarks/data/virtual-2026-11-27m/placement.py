#!/usr/bin/env python3
"""Per-run placement of a real run's threads (issue 25, tenth stop).

    placement.py OUT.jsonl RUNS SCALE [--sched] [--fifo] CASE...

CASE is label:threads (late:1, ws-conservative:2, ...); the scenario, seed
and request count are the validation's (scripts/bench-virtual-validate.py),
the requests multiplied by SCALE. RUNS rounds, the cases interleaved within
each round. Every run is one `psmr run --json` on real threads; with
--sched it runs under `perf sched record` and `perf sched timehist --state`
gives, for each of the run's own pool threads (`psmr-N` of its process;
the binary's file name must be unique on the machine, e.g. a copy in /tmp,
since other sessions run psmr too) that ran at least 2 %
of the run: its run time on each CPU, its time runnable but not running
(sch delay), its switches out while still runnable (preempted, state R:
involuntary) and asleep (S/D: voluntary), and its migrations (consecutive
stints on different CPUs). Without --sched, `perf stat` counts the whole
process's context switches and CPU migrations (set-up included). One JSON
line per run: case, round, ops/s, duration, the load average, the counters.
--fifo runs psmr under `chrt -f 10` (SCHED_FIFO: no other process's thread
takes a CPU from the run's, and a woken thread never preempts its waker: it
takes the other CPU if that runs no real-time thread, else waits).
Env: PSMR (the binary).
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../../.."))
PSMR = os.environ.get("PSMR", os.path.join(ROOT, "engine/target/release/psmr"))
LATE = os.path.join(ROOT, "docs/benchmarks/data/late-epaxos-2026-11-23-quiet/late-mixed-light.scenario.json")
WS = os.path.join(ROOT, "scenarios/ws-skewed-shards.json")
# label -> (scenario, seed, requests): the validation's rows.
CASES = {
    "late": (LATE, 3, 20000),
    "ws-conservative": (WS, 5, 20000),
    "ws-optimistic": (WS, 5, 20000),
}
LINE = re.compile(r"^\s*([0-9.]+)\s+\[(\d+)\]\s+(\S+)\[(\d+)(?:/(\d+))?\]\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+(\S)")


def timehist(data):
    out = subprocess.run(["perf", "sched", "timehist", "-i", data, "--state"], capture_output=True,
                         text=True).stdout
    per = collections.defaultdict(lambda: {"cpu_ms": collections.Counter(), "sch_delay_ms": 0.0,
                                           "wait_ms": 0.0, "invol": 0, "vol": 0, "migr": 0,
                                           "last": None})
    # Only this run's process: other sessions on the machine run psmr too,
    # with pool threads of the same names. Its main thread's name is the
    # binary's file name (15 characters at most) and its tid the pid.
    main = os.path.basename(PSMR)[:15]
    pids = {m.group(4) for m in map(LINE.match, out.splitlines())
            if m and m.group(3) == main and m.group(5) is None}
    for line in out.splitlines():
        m = LINE.match(line)
        if not m or not m.group(3).startswith("psmr-") or m.group(5) not in pids:
            continue
        _, cpu, name, tid, _, wait, delay, run, state = m.groups()
        t = per[name + ":" + tid]
        cpu = int(cpu)
        t["cpu_ms"][cpu] += float(run)
        t["sch_delay_ms"] += float(delay)
        t["wait_ms"] += float(wait)
        if state == "R":
            t["invol"] += 1
        else:
            t["vol"] += 1
        if t["last"] is not None and t["last"] != cpu:
            t["migr"] += 1
        t["last"] = cpu
    return per


def one(label, threads, scale, sched, tmp, fifo=False):
    sc, seed, req = CASES[label]
    args = [PSMR, "run", sc, "--scheduler", label, "--threads", str(threads), "--no-trace", "--json",
            "--requests", str(req * scale), "--seed", str(seed)]
    if fifo:
        args = ["chrt", "-f", "10"] + args
    data = os.path.join(tmp, "sched.data")
    stat = os.path.join(tmp, "stat.txt")
    if sched:
        cmd = ["perf", "sched", "record", "-q", "-o", data, "--"] + args
    else:
        cmd = ["perf", "stat", "-x,", "-e", "context-switches,cpu-migrations,task-clock", "-o", stat,
               "--"] + args
    load = os.getloadavg()[0]
    p = subprocess.run(cmd, capture_output=True, text=True, check=True)
    rep = json.loads(p.stdout[p.stdout.index("{"):])
    run = rep["runs"][0]
    m = run["metrics"]
    row = {"case": f"{label}:{threads}", "scale": scale, "sched": sched, "fifo": fifo,
           "ops_s": run["throughput_ops_s"], "ms": m["duration_ms"], "load1": load,
           "counters": {k: v for k, v in m["counters"].items() if v},
           "threads": [{k: t[k] for k in ("exec_ms", "idle_ms", "wait_ms")} for t in m["threads"]]}
    # The run's first 40 ms (an unscaled run's length) against the rest,
    # from the throughput series (equal bins, so the mean of the bins' rates).
    ser = m.get("throughput_series") or []
    if len(ser) > 1:
        head = [b["ops_s"] for b in ser if b["t_ms"] <= 40.0]
        rest = [b["ops_s"] for b in ser if b["t_ms"] > 40.0]
        if head and rest:
            row["first_40ms_ops_s"] = sum(head) / len(head)
            row["rest_ops_s"] = sum(rest) / len(rest)
    if sched:
        per = timehist(data)
        total = sum(sum(t["cpu_ms"].values()) for t in per.values())
        team = []
        for name, t in sorted(per.items(), key=lambda kv: -sum(kv[1]["cpu_ms"].values())):
            run_ms = sum(t["cpu_ms"].values())
            if run_ms < 0.02 * m["duration_ms"]:
                continue
            team.append({"thread": name, "run_ms": round(run_ms, 3),
                         "cpu_ms": {str(c): round(v, 3) for c, v in sorted(t["cpu_ms"].items())},
                         "main_cpu": t["cpu_ms"].most_common(1)[0][0],
                         "sch_delay_ms": round(t["sch_delay_ms"], 3), "invol": t["invol"],
                         "vol": t["vol"], "migr": t["migr"]})
        row["team"] = team
        row["pool_run_ms"] = round(total, 3)
    else:
        for line in open(stat):
            c = line.strip().split(",")
            if len(c) > 3 and c[2] in ("context-switches", "cpu-migrations", "task-clock"):
                row[c[2]] = float(c[0])
    return row


def main():
    a = sys.argv[1:]
    sched = "--sched" in a
    fifo = "--fifo" in a
    a = [x for x in a if x not in ("--sched", "--fifo")]
    out, runs, scale, cases = a[0], int(a[1]), int(a[2]), a[3:]
    with tempfile.TemporaryDirectory() as tmp, open(out, "a") as f:
        for r in range(runs):
            for c in cases:
                label, threads = c.split(":")
                row = one(label, int(threads), scale, sched, tmp, fifo)
                row["round"] = r
                f.write(json.dumps(row) + "\n")
                f.flush()


if __name__ == "__main__":
    main()
