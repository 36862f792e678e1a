#!/usr/bin/env python3
"""From per-run-ticks.txt of two-executor sessions (prof3, prof5): the measured repetitions'
pairs (the warm-up pair dropped), worker ticks per request of the first and of the second
parallel run after sequential, by which executor ran first.
Usage: pairs.py per-run-ticks.txt..."""
import re, statistics, sys
rows = []
for f in sys.argv[1:]:
    sess = None
    for line in open(f):
        if line.startswith('=='):
            sess = line.split()[1]
            continue
        runs = re.findall(r'(early|busy):(\d+)t/', line)
        # A session's runs may be split over two lines (two pool threads); keep whole sessions only.
        if len(runs) != 8:
            continue
        for k in range(2, 8, 2):
            (e1, t1), (e2, t2) = runs[k], runs[k + 1]
            rows.append((sess, e1, int(t1) / 4, e2, int(t2) / 4))
for first in ('early', 'busy'):
    sel = [r for r in rows if r[1] == first]
    if not sel:
        continue
    d = [(r[2] - r[4]) / r[4] * 100 for r in sel]
    print(f"{first} first: {len(sel)} pairs; first run µs/req median {statistics.median(r[2] for r in sel):.1f}, "
          f"second {statistics.median(r[4] for r in sel):.1f}; (first - second)/second % median {statistics.median(d):+.1f}, "
          f"range {min(d):+.1f} to {max(d):+.1f}; first slower in {sum(x > 0 for x in d)} of {len(d)}")
d = [((r[2] - r[4]) if r[1] == 'early' else (r[4] - r[2])) / (r[4] if r[1] == 'early' else r[2]) * 100 for r in rows]
print(f"all pairs, (early - busy-wait)/busy-wait %: median {statistics.median(d):+.1f}, early slower in {sum(x > 0 for x in d)} of {len(d)}")
