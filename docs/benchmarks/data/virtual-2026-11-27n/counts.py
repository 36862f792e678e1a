#!/usr/bin/env python3
"""Early's queue synchronization per request, real threads and virtual cores
(docs/benchmarks/virtual.md, "Early's deliverer (tenth stop)").

Usage: counts.py PSMR LABEL REPS [COST_TABLE...]
PSMR is a psmr binary built with `--features sync-counters`. For each case
(workers-do-nothing at 1 worker; late-mixed-light at 1 and 2 workers, the
validation rows' seed and request count) it makes REPS real runs and one
virtual run (2 virtual cores, as scripts/bench-virtual-validate.py) under
each cost table, and prints, per run, ops/s, the deliverer's ns a request and
the queue counts divided by the requests (the counts are the run's `extra`
numbers `sync_<side>_<what>`: push = the deliverer, pop = the worker)."""
import json, os, subprocess, sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../../.."))
DATA = os.path.join(ROOT, "docs/benchmarks/data")
CASES = [
    ("workers-do-nothing", os.path.join(DATA, "virtual-2026-11-26c/deliver/workers-do-nothing.json"), 1, None, None),
    ("late-mixed-light", os.path.join(DATA, "late-epaxos-2026-11-23-quiet/late-mixed-light.scenario.json"), 1, 3, 20000),
    ("late-mixed-light", os.path.join(DATA, "late-epaxos-2026-11-23-quiet/late-mixed-light.scenario.json"), 2, 3, 20000),
]
KEYS = [f"{s}_{w}" for s in ("push", "pop") for w in ("locks", "contended", "sleeps", "notifies")]


def run(psmr, path, threads, seed, requests, table):
    args = [psmr, "run", path, "--scheduler", "early", "--threads", str(threads), "--no-trace", "--json"]
    if seed is not None:
        args += ["--seed", str(seed), "--requests", str(requests)]
    if table:
        args += ["--virtual-cores", "2", "--cost-table", table]
    rep = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    r = rep["runs"][0]
    m = r["metrics"]
    n = r["requests"]
    ex = m["extra"]
    per = {k: ex[f"sync_{k}"] / n for k in KEYS}
    return r["throughput_ops_s"], m["scheduler_ns_per_request"], m["counters"]["barrier_waits"], per


def main():
    psmr, label, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    tables = sys.argv[4:]
    print(f"# {label} load {os.getloadavg()[0]:.2f} ; columns: case threads mode ops/s deliverer_ns/req barrier_waits " + " ".join(KEYS) + " (per request)")
    for name, path, threads, seed, requests in CASES:
        rows = [("real", None)] * reps + [(f"virtual({os.path.basename(t)})", t) for t in tables]
        for mode, table in rows:
            tput, ns, bw, per = run(psmr, path, threads, seed, requests, table)
            print(f"{name} {threads} {mode} {tput:.0f} {ns:.1f} {bw} " + " ".join(f"{per[k]:.4f}" for k in KEYS), flush=True)
    print(f"# load after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
