#!/usr/bin/env python3
"""Per run: the worker ticks (all but waits) and the span of each run of each executor, in
the order the runs happened, per session (the warm-up sweep first, then 3 repetitions).
Usage: per-run-ticks.py SESSION_DIR..."""
import bisect, collections, glob, os, sys
src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'worker-ticks.py')).read().split("def classify")[0]
exec(src)
for d in sys.argv[1:]:
    print('==', d)
    for f in sorted(glob.glob(os.path.join(d, 'isolate-*-v8.log'))):
        codes, ticks = load(f)
        starts = [c[0] for c in codes]
        def find(pc, ts):
            i = bisect.bisect_right(starts, pc) - 1
            best = None
            for j in range(i, max(-1, i - 64), -1):
                s, e, n, t = codes[j]
                if s <= pc < e and t <= ts + 1 and (best is None or t > best[3]):
                    best = codes[j]
            return best[2] if best else '?'
        segs = []  # (executor, first_ts, last_ts, busy ticks)
        for pc, ts, stack in ticks:
            names = [find(pc, ts)] + [find(a, ts) for a in stack]
            if any('early::drive' in n for n in names): continue
            w = next((n for n in names if WORKER.match(n)), None)
            if w is None: continue
            ex = 'early' if 'BarrierSync' in w else 'busy'
            inner = next((n for n in names if n != '?'), '?')
            idle = 'Condvar' in inner or 'park' in inner or 'wait_for' in inner
            if segs and segs[-1][0] == ex and ts - segs[-1][2] < 300000:
                segs[-1][2] = ts; segs[-1][3] += 0 if idle else 1
            else:
                segs.append([ex, ts, ts, 0 if idle else 1])
        if segs:
            print(' '.join(f"{s[0]}:{s[3]}t/{(s[2]-s[1])/1000:.0f}ms" for s in segs))
