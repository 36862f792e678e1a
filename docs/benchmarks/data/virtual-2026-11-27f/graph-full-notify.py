#!/usr/bin/env python3
"""CBASE at 2 workers: the workers' time from a removal's last record
(`graph-size`) to their next event (the next take's `dequeued`, or a wait),
split by whether the delivering thread ended a graph-full wait inside that
gap (the removal notified it: `space.notify_one` under the graph's lock).
From a packed trace (the decoder of ../pepaxos-2026-11-27/trace_gaps.py).
    graph-full-notify.py RUN.trace [VOCABULARY.json]
"""
import bisect
import json
import struct
import sys

voc = sys.argv[2] if len(sys.argv) > 2 else "web/src/trace/vocabulary.json"
names = {k["code"]: k["name"] for k in json.load(open(voc))["kinds"]}
raw = open(sys.argv[1], "rb").read()
by, ends = {}, []
for i in range(len(raw) // 24):
    w = struct.unpack_from("<6I", raw, i * 24)
    t, th, k = w[0] | (w[1] << 32), w[2] & 0xFFFF, names.get((w[2] >> 16) & 0xFF)
    if th == 0xFFFF:
        if k == "wait-end":
            ends.append(t)
    else:
        by.setdefault(th, []).append((t, k))
ends.sort()
for th, es in sorted(by.items()):
    woke, quiet = [], []
    for (t0, k0), (t1, _) in zip(es, es[1:]):
        if k0 != "graph-size":
            continue
        j = bisect.bisect_left(ends, t0)
        (woke if j < len(ends) and ends[j] <= t1 else quiet).append(t1 - t0)
    for name, g in (("deliverer woken inside", woke), ("no wake inside", quiet)):
        g.sort()
        n = len(g)
        if n:
            print(f"worker {th}, {name}: {n} gaps, median {g[n//2]/1e3:.2f} us, "
                  f"p90 {g[n*9//10]/1e3:.2f} us, sum {sum(g)/1e6:.1f} ms")
