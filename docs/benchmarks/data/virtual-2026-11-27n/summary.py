#!/usr/bin/env python3
"""Medians (and ranges) per build and case of ab.py's output: summary.py ab.txt"""
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    f = line.split()
    key = (f[2], f[3], f[1])
    rows.setdefault(key, []).append([float(x) for x in f[4:]])
cols = ["ops/s", "deliverer ns/req", "barrier waits", "load", "push locks", "push contended",
        "push sleeps", "push notifies", "pop locks", "pop contended", "pop sleeps", "pop notifies"]
print("| case | threads | build | runs | " + " | ".join(cols) + " |")
print("|---" * (len(cols) + 4) + "|")
for (case, threads, build), v in sorted(rows.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2] != "before")):
    cells = []
    for i, c in enumerate(cols):
        xs = [r[i] for r in v]
        m = statistics.median(xs)
        if c == "ops/s":
            cells.append(f"{m:,.0f} ({min(xs):,.0f}-{max(xs):,.0f})")
        elif c in ("deliverer ns/req",):
            cells.append(f"{m:.1f} ({min(xs):.1f}-{max(xs):.1f})")
        elif c in ("barrier waits", "load"):
            cells.append(f"{m:g}" if c != "load" else f"{min(xs):.1f}-{max(xs):.1f}")
        else:
            cells.append(f"{m:.4f}")
    print(f"| {case} | {threads} | {build} | {len(v)} | " + " | ".join(cells) + " |")
