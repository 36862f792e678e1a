#!/usr/bin/env python3
"""Median per build and scheduler of measure.sh's CSV rows (stdin):
wall, user+sys CPU, voluntary context switches, load average range.
Prints a Markdown table, before and after side by side."""
import csv
import statistics
import sys
from collections import defaultdict

rows = list(csv.DictReader(sys.stdin))
by = defaultdict(list)
order = []
for r in rows:
    if r["exit"] != "0":
        continue
    key = (r["scheduler"], r["build"])
    if r["scheduler"] not in order:
        order.append(r["scheduler"])
    by[key].append(r)


def med(rs, f):
    return statistics.median(f(r) for r in rs)


print("| scheduler | runs | wall s before | wall s after | CPU s (user+sys) before | CPU s after "
      "| voluntary switches before | after |")
print("|---|---|---|---|---|---|---|---|")
for s in order:
    b, a = by[(s, "before")], by[(s, "after")]
    cpu = lambda r: float(r["user_s"]) + float(r["sys_s"])
    print(f"| `{s}` | {len(b)}+{len(a)} | {med(b, lambda r: float(r['wall_s'])):.2f} "
          f"| {med(a, lambda r: float(r['wall_s'])):.2f} | {med(b, cpu):.2f} | {med(a, cpu):.2f} "
          f"| {med(b, lambda r: int(r['voluntary_cs'])):,.0f} | {med(a, lambda r: int(r['voluntary_cs'])):,.0f} |")
loads = [float(r["load1"]) for r in rows]
print(f"\nload average (1 min) before each run: {min(loads):.1f} to {max(loads):.1f}")
