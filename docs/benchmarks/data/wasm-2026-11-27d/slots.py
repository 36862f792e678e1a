#!/usr/bin/env python3
"""Per session of a batch.sh folder: each executor's workers' execution per
request (the tab's exec_us_per_request, median of 3 repetitions), and the
ratio of the first parallel run after sequential to the second (>1: the
first is slower). Then per condition: the median ratio, its range, how many
sessions had the first slower. Usage: slots.py DIR..."""
import csv, glob, os, re, statistics, sys

conds = {}
for f in sorted(f for d in sys.argv[1:] for f in glob.glob(os.path.join(d, "*.csv"))):
    m = re.match(r"(\d+)-(.+)\.csv$", os.path.basename(f))
    if not m:
        continue
    rows = [r for r in csv.DictReader(open(f)) if r["executor"] != "sequential"]
    ex = [(r["executor"], float(r["exec_us_per_request"])) for r in rows]
    seq = [r for r in csv.DictReader(open(f)) if r["executor"] == "sequential"]
    ratio = ex[-2][1] / ex[-1][1]  # the last two: the pair compared
    print(f"{os.path.basename(os.path.dirname(f))}/{m.group(1)}-{m.group(2)}: " + ", ".join(f"{e} {v:.1f}" for e, v in ex)
          + f"; seq ops/s {float(seq[0]['throughput_ops_s']):.0f}; {ex[-2][0]}/{ex[-1][0]} {ratio:.3f}")
    conds.setdefault(m.group(2), []).append(ratio)
print()
for c, rs in conds.items():
    print(f"{c}: {len(rs)} sessions, median {statistics.median(rs):.3f} "
          f"({min(rs):.3f}-{max(rs):.3f}), first of the pair slower in {sum(r > 1 for r in rs)}")
