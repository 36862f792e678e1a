#!/usr/bin/env python3
"""The tab's own figure (exec_us_per_request, median of a session's 3 repetitions) of the first
and the second parallel run after sequential, per session of order.sh (early-first / busy-first).
Usage: position.py SESSION_CSV..."""
import csv, os, statistics, sys
ratios = []
for f in sys.argv[1:]:
    name = os.path.basename(f)[:-4]
    pts = {r['executor']: float(r['exec_us_per_request']) for r in csv.DictReader(open(f))}
    first, second = ('early', 'busy-wait') if name.endswith('early-first') else ('busy-wait', 'early')
    r = pts[first] / pts[second]
    ratios.append(r)
    print(f"{f:34s} first {first:9s} {pts[first]:7.2f}  second {second:9s} {pts[second]:7.2f}  first/second {r:.3f}")
print(f"first/second: median {statistics.median(ratios):.3f}, range {min(ratios):.3f}-{max(ratios):.3f}, "
      f"first slower in {sum(r > 1 for r in ratios)} of {len(ratios)}")
