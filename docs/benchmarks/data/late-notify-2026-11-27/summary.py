#!/usr/bin/env python3
"""Medians and ranges of ab.txt per (scenario, threads, build)."""
import statistics, collections, sys
d = collections.defaultdict(list); fg = collections.defaultdict(list); loads = []
for l in open(sys.argv[1] if len(sys.argv) > 1 else "ab.txt"):
    if l.startswith("#"): continue
    r, b, sc, t, ops, f, ld = l.split()
    d[(sc, t, b)].append(int(ops)); fg[(sc, t, b)].append(int(f)); loads.append(float(ld))
print(f"load1 {min(loads)}-{max(loads)}")
print("| scenario | workers | before ops/s (median, range) | after | after/before | full-graph waits before -> after (median) |")
print("|---|---|---|---|---|---|")
for sc, t in sorted({(k[0], k[1]) for k in d}):
    b, a = d[(sc, t, "before")], d[(sc, t, "after")]
    mb, ma = statistics.median(b), statistics.median(a)
    print(f"| {sc.replace('.scenario.json','')} | {t} | {mb:,.0f} ({min(b):,}-{max(b):,}) | {ma:,.0f} ({min(a):,}-{max(a):,}) | "
          f"{ma/mb:.3f} | {statistics.median(fg[(sc,t,'before')]):,.0f} -> {statistics.median(fg[(sc,t,'after')]):,.0f} |")
