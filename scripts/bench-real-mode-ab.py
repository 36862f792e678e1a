#!/usr/bin/env python3
"""Real mode, before and after (issue 25 must-show 4; docs/benchmarks/virtual.md,
"Real mode after the facade change"). Real threads only: no virtual core here.

    scripts/bench-real-mode-ab.py BEFORE_PSMR AFTER_PSMR OUT_FILE [ROUNDS] [REQUESTS]

Each round runs, interleaved, before T=1, after T=1, before T=2, after T=2
(the order of the two builds alternates from round to round, so a load that
drifts during a round does not always favour the same build) of
`psmr run scenarios/early-rw-read-heavy.json --threads T --requests REQUESTS
--no-trace --json` (sequential, early, busy-wait in each run). Appends one line
per run to OUT_FILE:

    round side threads load1 scheduler=ops_per_s/scheduler_ns_per_request ...

and prints the medians. Defaults: 12 rounds, 2,000 requests (short runs, so
many pairs fit between the other processes' bursts on a shared machine).
"""
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(ROOT, "scenarios/early-rw-read-heavy.json")


def run(psmr, threads, requests):
    out = subprocess.run(
        [psmr, "run", SCENARIO, "--threads", str(threads), "--requests", str(requests),
         "--no-trace", "--json"], check=True, capture_output=True, text=True).stdout
    rep = json.loads(out)
    if "mode" in rep:
        raise SystemExit(f"a real run reported a mode: {rep['mode']}")
    return {r["label"]: (r["throughput_ops_s"], r["metrics"]["scheduler_ns_per_request"] or 0.0)
            for r in rep["runs"]}


def main():
    before, after, out = sys.argv[1:4]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 12
    requests = int(sys.argv[5]) if len(sys.argv) > 5 else 2000
    sides = {"before": before, "after": after}
    with open(out, "a") as f:
        for i in range(1, rounds + 1):
            order = ["before", "after"] if i % 2 else ["after", "before"]
            for t in (1, 2):
                for side in order:
                    load = os.getloadavg()[0]
                    got = run(sides[side], t, requests)
                    cells = " ".join(f"{k}={v[0]:.0f}/{v[1]:.2f}" for k, v in got.items())
                    f.write(f"{i} {side} threads={t} load={load:.2f} {cells}\n")
                    f.flush()
    summarize(out)


def summarize(path):
    """Medians per side, then the per-round ratios after / before (each
    round's pair ran back to back, so the load is about the same for both)
    and the undisturbed runs only (see below: a run that lost a core to
    another process is slow, see virtual.md), with the 2-thread speedup."""
    rows, pairs = {}, {}
    for line in open(path):
        c = line.split()
        rnd, side, t = c[0], c[1], c[2].split("=")[1]
        for cell in c[4:]:
            label, v = cell.split("=")
            ops, ns = (float(x) for x in v.split("/"))
            rows.setdefault((label, t, side), []).append((ops, ns))
            pairs.setdefault((label, t, rnd), {})[side] = (ops, ns)
    med = statistics.median
    for (label, t, side), v in sorted(rows.items()):
        ops = sorted(x[0] for x in v)
        print(f"{label} T={t} {side}: n={len(v)} ops/s median {med(ops):.0f} "
              f"(range {ops[0]:.0f}-{ops[-1]:.0f}) sched ns/req median {med(x[1] for x in v):.1f}")
    for label, t in sorted({(k[0], k[1]) for k in rows}):
        r = sorted(p["after"][0] / p["before"][0] for (lb, tt, _), p in pairs.items()
                   if lb == label and tt == t and len(p) == 2)
        q = statistics.quantiles(r, n=4) if len(r) > 1 else [r[0]] * 3
        print(f"{label} T={t} after/before per round: median {med(r):.3f} "
              f"(quartiles {q[0]:.3f}-{q[2]:.3f}, range {r[0]:.3f}-{r[-1]:.3f}, n={len(r)})")
    for label in sorted({k[0] for k in rows}):
        # Undisturbed runs: at 1 thread within 10 % of the best 1-thread run
        # (either build); at 2 threads over 1.4x their median (both workers
        # had a core: the fast mode).
        ones = [x[0] for s in ("before", "after") for x in rows.get((label, "1", s), [])]
        floor = 0.9 * max(ones)
        one = med(x for x in ones if x >= floor)
        for side in ("before", "after"):
            good = [x for x in rows.get((label, "1", side), []) if x[0] >= floor]
            fast = [x for x in rows.get((label, "2", side), []) if x[0] > 1.4 * one]
            if not good or not fast:
                continue
            g1, g2 = med(x[0] for x in good), med(x[0] for x in fast)
            print(f"{label} {side} undisturbed: T=1 {len(good)} runs, median {g1:.0f} ops/s, "
                  f"{med(x[1] for x in good):.1f} sched ns/req; T=2 fast {len(fast)} runs, median "
                  f"{g2:.0f} ops/s, {med(x[1] for x in fast):.1f} sched ns/req; speedup {g2 / g1:.2f}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--summary":
        summarize(sys.argv[2])
    else:
        main()
