#!/usr/bin/env python3
"""Where a PePaxos run's workers spend their time, from its packed trace
(`psmr run ... --trace-dir DIR`; 6 u32 words per event, see psmr_core::codec).

    trace_gaps.py RUN.trace [VOCABULARY.json]

Prints, per thread, its event counts, the time spent after each kind of
event (until the thread's next event), and for workers 0 and 1 the gaps
between an SCC's end and the thread's next event: line 33's credit given
back and the next pop (a pop that blocks records an empty-queue wait, so a
long gap here is time the thread was not running, not a recorded wait).
"""
import collections
import json
import struct
import sys

voc = sys.argv[2] if len(sys.argv) > 2 else "web/src/trace/vocabulary.json"
names = {k["code"]: k["name"] for k in json.load(open(voc))["kinds"]}
raw = open(sys.argv[1], "rb").read()
events = []
for i in range(len(raw) // 24):
    w = struct.unpack_from("<6I", raw, i * 24)
    events.append((w[0] | (w[1] << 32), w[2] & 0xFFFF, names.get((w[2] >> 16) & 0xFF), w[2] >> 24))
by = collections.defaultdict(list)
for e in events:
    by[e[1]].append(e)
print("events", len(events), "last event at ms", round(max(e[0] for e in events) / 1e6, 1))
for th, es in sorted(by.items()):
    after = collections.Counter()
    for a, b in zip(es, es[1:]):
        after[a[2]] += b[0] - a[0]
    print(th, dict(collections.Counter(e[2] for e in es)))
    print("   ms after each kind", {k: round(v / 1e6, 1) for k, v in after.most_common(6)})
for th in (0, 1):
    es = by[th]
    gaps = sorted(b[0] - a[0] for a, b in zip(es, es[1:]) if a[2] == "scc-end")
    n = len(gaps)
    big = [g for g in gaps if g > 100_000]
    print(f"worker {th}: {n} gaps after scc-end, sum {sum(gaps)/1e6:.1f} ms, median {gaps[n//2]/1e3:.1f} us, "
          f"p90 {gaps[n*9//10]/1e3:.1f} us, max {gaps[-1]/1e3:.1f} us; {len(big)} over 100 us summing {sum(big)/1e6:.1f} ms")
