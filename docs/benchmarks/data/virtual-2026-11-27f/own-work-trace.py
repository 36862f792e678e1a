#!/usr/bin/env python3
"""The schedulers' own work per request at the places the new cost-table
entries charge, from the packed traces (6 u32 words per event, see
psmr_core::codec; the decoder of ../pepaxos-2026-11-27/trace_gaps.py) of
real runs that are NOT validation rows, beside the model's run of the same
case (virtual 2 cores, a model; the table TABLE).

Per thread, the count, 10th percentile and median over requests of two
gaps (percentiles: a loaded machine preempts a few of 20,000 gaps, not the
typical one):
  exec-gap   from a request's exec-end to the thread's next exec-start,
             only where no wait-start lies between (a worker's own work
             between two executions: CBASE's remove and take, the coloring
             runtime's registrations and pop, their locks, the clock
             readings and trace records);
  deliv-gap  from one delivered event to the thread's next (the delivering
             thread's work per request: `deliver` and, in work stealing,
             the routing and its queues' locks), only where no wait-start
             lies between.
Real runs are traced (recording costs them a little more than an untraced
run; the model charges each clock reading `clock_read`, not the record).
Run from the repository root:
    python3 docs/benchmarks/data/virtual-2026-11-27f/own-work-trace.py PSMR TABLE REPS [CASE...]
"""
import collections
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile

VOC = "web/src/trace/vocabulary.json"
D = "docs/benchmarks/data/late-epaxos-2026-11-23-quiet"
# (case, scenario, scheduler, threads): none is a validation row.
CASES = [
    ("late-read-light-1", f"{D}/late-read-light.scenario.json", "late", 1),
    ("late-read-moderate-1", f"{D}/late-read-moderate.scenario.json", "late", 1),
    ("late-read-moderate-2", f"{D}/late-read-moderate.scenario.json", "late", 2),
    ("ws-cons-skewed-stealing-1", "scenarios/skewed-stealing.json", "ws-conservative", 1),
    ("ws-aggressive-skewed-shards-1", "scenarios/ws-skewed-shards.json", "ws-aggressive", 1),
    ("ws-moderate-skewed-shards-2", "scenarios/ws-skewed-shards.json", "ws-moderate", 2),
    ("mely-no-steal-unbalanced-2", "scenarios/coloring-unbalanced.json", "mely-no-steal", 2),
    ("libasync-no-steal-sws-2", "scenarios/coloring-sws.json", "libasync-no-steal", 2),
]
NAMES = {k["code"]: k["name"] for k in json.load(open(VOC))["kinds"]}


def events(path):
    raw = open(path, "rb").read()
    by = collections.defaultdict(list)
    for i in range(len(raw) // 24):
        w = struct.unpack_from("<6I", raw, i * 24)
        by[w[2] & 0xFFFF].append((w[0] | (w[1] << 32), NAMES.get((w[2] >> 16) & 0xFF)))
    return by


def gaps(es, start, end):
    out, t0 = [], None
    for t, k in es:
        if k == "wait-start":
            t0 = None
        elif k == end and t0 is not None:
            out.append(t - t0)
            t0 = None
        if k == start:
            t0 = t
    return out


def summary(path):
    res = {}
    for th, es in sorted(events(path).items()):
        row = {}
        for name, (a, b) in (("exec-gap", ("exec-end", "exec-start")),
                             ("deliv-gap", ("delivered", "delivered"))):
            g = gaps(es, a, b)
            if len(g) >= 100:
                g.sort()
                row[name] = (len(g), g[len(g) // 10], round(statistics.median(g)))
        if row:
            res[th] = row
    return res


def line(case, side, args):
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        d = json.loads(subprocess.run(args + ["--trace-dir", tmp], check=True,
                                      capture_output=True, text=True).stdout)
        s = summary(os.path.join(tmp, "run-0.trace"))
    r = d["runs"][0]
    print(case, side, round(r["throughput_ops_s"]), json.dumps(s, separators=(",", ":")),
          f"load={load:.2f}", flush=True)


def main():
    psmr, table, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    only = sys.argv[4:]
    for case, sc, label, t in CASES:
        if only and case not in only:
            continue
        base = [psmr, "run", sc, "--scheduler", label, "--threads", str(t), "--json"]
        line(case, "virtual(model)", base + ["--virtual-cores", "2", "--cost-table", table])
        for _ in range(reps):
            line(case, "real", base)


if __name__ == "__main__":
    main()
