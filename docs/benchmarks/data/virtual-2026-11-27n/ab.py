#!/usr/bin/env python3
"""Interleaved A/B of early's queue before and after the needless-notify fix
(docs/benchmarks/virtual.md, "Early's deliverer (tenth stop)").

Usage: ab.py BEFORE_PSMR AFTER_PSMR ROUNDS > ab.txt
Both binaries built with `--features sync-counters` (the counting is a few
integer additions under the queue's lock on both sides). Each round runs
every case of counts.py once with each binary, the order alternating by
round; one line per run, with the load average before it."""
import os, sys
from counts import CASES, KEYS, run

before, after, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
print("# round build case threads ops/s deliverer_ns/req barrier_waits load " + " ".join(KEYS) + " (per request)")
for r in range(rounds):
    order = [("before", before), ("after", after)]
    if r % 2:
        order.reverse()
    for name, path, threads, seed, requests in CASES:
        for build, psmr in order:
            load = os.getloadavg()[0]
            tput, ns, bw, per = run(psmr, path, threads, seed, requests, None)
            print(f"{r} {build} {name} {threads} {tput:.0f} {ns:.1f} {bw} {load:.2f} "
                  + " ".join(f"{per[k]:.4f}" for k in KEYS), flush=True)
