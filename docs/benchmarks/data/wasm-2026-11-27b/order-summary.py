#!/usr/bin/env python3
"""Summary of order.sh's sessions: per session the load (1 min, before), the order, and each
executor's workers' execution per request (µs, median of the session's 3 repetitions) and
throughput; then per position (first or second after sequential) and per executor, medians and ranges.
Usage: order-summary.py OUT_DIR"""
import csv, glob, os, re, statistics, sys
out = sys.argv[1]
loads = {}
for line in open(os.path.join(out, 'uptime.log')):
    m = re.match(r'\S+ (\S+) before: ([0-9.]+)', line)
    if m:
        loads[os.path.basename(m.group(1))] = float(m.group(2))
rows = []
for d in sorted(glob.glob(os.path.join(out, '*-*/sweep.csv'))):
    name = os.path.basename(os.path.dirname(d))
    order = ['early', 'busy-wait'] if name.endswith('early-first') else ['busy-wait', 'early']
    pts = {r['executor']: r for r in csv.DictReader(open(d))}
    seq = float(pts['sequential']['throughput_ops_s'])
    line = f"{name:22s} load {loads.get(name, float('nan')):5.2f}  seq {seq:7.0f}/s"
    for pos, ex in enumerate(order):
        e = float(pts[ex]['exec_us_per_request']); t = float(pts[ex]['throughput_ops_s'])
        rows.append((name, pos, ex, e, t, seq))
        line += f"  {ex} {e:7.2f} µs {t:7.0f}/s"
    print(line)
def stat(v):
    v = sorted(v)
    return f"median {statistics.median(v):7.2f} range {v[0]:7.2f}-{v[-1]:7.2f} (n={len(v)})"
print()
for ex in ('early', 'busy-wait'):
    for pos in (0, 1):
        v = [r[3] for r in rows if r[2] == ex and r[1] == pos]
        if v:
            print(f"{ex:9s} {'first' if pos == 0 else 'second'} after sequential, exec µs/request: {stat(v)}")
    print(f"{ex:9s} any position, exec µs/request: {stat([r[3] for r in rows if r[2] == ex])}")
# paired within a session: early minus busy-wait
diff = {}
for r in rows:
    diff.setdefault(r[0], {})[r[2]] = r[3]
for order in ('early-first', 'busy-first'):
    v = [d['early'] - d['busy-wait'] for n, d in diff.items() if n.endswith(order) and len(d) == 2]
    if v:
        print(f"early - busy-wait within a session, order {order}: {stat(v)}")
v = [ (d['early'] - d['busy-wait']) / d['busy-wait'] * 100 for n, d in diff.items() if len(d) == 2]
if v:
    print(f"(early - busy-wait) / busy-wait %, all sessions: {stat(v)}")
