#!/usr/bin/env python3
"""The delivering thread's wake from a full queue, from a packed trace
(`psmr run ... --trace-dir DIR`; the decoder of
../pepaxos-2026-11-27/trace_gaps.py): for each of its waits (wait-start to
wait-end), the time from the first `dequeued` of any worker after the
wait began (the pop that frees a slot and notifies it) to the wait's end.
Prints the count and the 10th, 50th and 90th percentiles in us.
    full-queue-wake.py RUN.trace [VOCABULARY.json]
"""
import bisect
import json
import struct
import sys

voc = sys.argv[2] if len(sys.argv) > 2 else "web/src/trace/vocabulary.json"
names = {k["code"]: k["name"] for k in json.load(open(voc))["kinds"]}
raw = open(sys.argv[1], "rb").read()
deq, waits, start = [], [], None
for i in range(len(raw) // 24):
    w = struct.unpack_from("<6I", raw, i * 24)
    t, th, k = w[0] | (w[1] << 32), w[2] & 0xFFFF, names.get((w[2] >> 16) & 0xFF)
    if th == 0xFFFF and k == "wait-start":
        start = t
    elif th == 0xFFFF and k == "wait-end" and start is not None:
        waits.append((start, t))
        start = None
    elif th != 0xFFFF and k == "dequeued":
        deq.append(t)
deq.sort()
lat = []
for s, e in waits:
    j = bisect.bisect_left(deq, s)
    if j < len(deq) and deq[j] <= e:
        lat.append(e - deq[j])
lat.sort()
n = len(lat)
if n:
    print(f"waits {len(waits)} with a pop inside {n}: pop to wait-end us p10 {lat[n//10]/1e3:.1f} "
          f"median {lat[n//2]/1e3:.1f} p90 {lat[n*9//10]/1e3:.1f}")
