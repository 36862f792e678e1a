#!/usr/bin/env python3
"""Per scheduler, from measure.sh's CSV rows (stdin) of one build: median
and range of wall time, median user+sys CPU and system time, median
voluntary context switches, and the load average range. Markdown table."""
import csv
import statistics
import sys
from collections import defaultdict

rows = [r for r in csv.DictReader(sys.stdin) if r["exit"] == "0"]
by = defaultdict(list)
order = []
for r in rows:
    if r["scheduler"] not in order:
        order.append(r["scheduler"])
    by[r["scheduler"]].append(r)


def med(rs, f):
    return statistics.median(f(r) for r in rs)


wall = lambda r: float(r["wall_s"])
cpu = lambda r: float(r["user_s"]) + float(r["sys_s"])
print("| scheduler | runs | wall s (median, min-max) | CPU s user+sys | of it sys | voluntary switches | load (1 min) |")
print("|---|---|---|---|---|---|---|")
for s in order:
    rs = by[s]
    ws = [wall(r) for r in rs]
    ls = [float(r["load1"]) for r in rs]
    print(f"| `{s}` | {len(rs)} | {med(rs, wall):.2f} ({min(ws):.2f}-{max(ws):.2f}) | {med(rs, cpu):.2f} "
          f"| {med(rs, lambda r: float(r['sys_s'])):.2f} | {med(rs, lambda r: int(r['voluntary_cs'])):,.0f} "
          f"| {min(ls):.1f}-{max(ls):.1f} |")
