#!/usr/bin/env python3
"""What separates fast and slow real runs (placement.py's JSON lines).

    analyze.py FILE.jsonl...

Per case: runs, median ops/s, range, the spread (interquartile range over
the median), and, for --sched files, each run's placement: the share of the
team's CPU time spent on its busiest CPU (1.00: every thread of the run on
one CPU), the time runnable but not running (sch delay) and the preempted
switches per thousand requests, the migrations; Spearman's rank correlation
of each with ops/s; the medians of the runs with the team on one CPU
(share >= 0.9) and of the others. For perf-stat files: the whole process's
context switches and migrations against ops/s.
"""
import collections
import json
import statistics
import sys


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def spearman(a, b):
    if len(a) < 3:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.mean(ra), statistics.mean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    den = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return num / den if den else float("nan")


def spread(xs):
    if len(xs) < 4:
        return float("nan")
    q = statistics.quantiles(xs, n=4)
    return (q[2] - q[0]) / statistics.median(xs)


def k(x):
    return f"{x / 1000:,.0f}k"


def main():
    for path in sys.argv[1:]:
        rows = [json.loads(line) for line in open(path)]
        by = collections.defaultdict(list)
        for r in rows:
            by[r["case"]].append(r)
        loads = [r["load1"] for r in rows]
        print(f"## {path} (load1 {min(loads):.2f}-{max(loads):.2f})\n")
        sched = rows and rows[0]["sched"]
        if sched:
            print("| case | runs | median ops/s | range | IQR/median | median ms | one-CPU share: rho | "
                  "median (one CPU, n) | median (both, n) | sch delay us/kreq: rho | "
                  "preempted/kreq: rho | migrations: rho |")
            print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        else:
            print("| case | runs | median ops/s | range | IQR/median | median ms | ctx switches/kreq: rho "
                  "| migrations: median, rho | load1: rho |")
            print("|---|---|---|---|---|---|---|---|---|")
        for case, rs in by.items():
            ops = [r["ops_s"] for r in rs]
            req = rs[0]["ops_s"] * rs[0]["ms"] / 1000
            head = (f"| {case} x{rs[0]['scale']} | {len(rs)} | {k(statistics.median(ops))} | "
                    f"{k(min(ops))}-{k(max(ops))} | {spread(ops):.2f} | "
                    f"{statistics.median(r['ms'] for r in rs):.0f} |")
            if sched:
                share, delay, inv, mig = [], [], [], []
                for r in rs:
                    cpus = collections.Counter()
                    for t in r["team"]:
                        for c, v in t["cpu_ms"].items():
                            cpus[c] += v
                    tot = sum(cpus.values()) or 1
                    share.append(max(cpus.values(), default=0) / tot)
                    delay.append(sum(t["sch_delay_ms"] for t in r["team"]) * 1e6 / req)
                    inv.append(sum(t["invol"] for t in r["team"]) * 1000 / req)
                    mig.append(sum(t["migr"] for t in r["team"]))
                one = [o for o, s in zip(ops, share) if s >= 0.9]
                both = [o for o, s in zip(ops, share) if s < 0.9]
                md = (lambda xs: k(statistics.median(xs)) if xs else "-")
                print(f"{head} {statistics.median(share):.2f} ({min(share):.2f}-{max(share):.2f}): "
                      f"{spearman(share, ops):+.2f} | {md(one)} ({len(one)}) | {md(both)} ({len(both)}) | "
                      f"{statistics.median(delay):.0f}: {spearman(delay, ops):+.2f} | "
                      f"{statistics.median(inv):.0f}: {spearman(inv, ops):+.2f} | "
                      f"{statistics.median(mig):.0f}: {spearman(mig, ops):+.2f} |")
            else:
                cs = [r["context-switches"] * 1000 / req for r in rs]
                mg = [r["cpu-migrations"] for r in rs]
                ld = [r["load1"] for r in rs]
                print(f"{head} {statistics.median(cs):.0f}: {spearman(cs, ops):+.2f} | "
                      f"{statistics.median(mg):.0f}: {spearman(mg, ops):+.2f} | "
                      f"{spearman(ld, ops):+.2f} |")
        print()


if __name__ == "__main__":
    main()
