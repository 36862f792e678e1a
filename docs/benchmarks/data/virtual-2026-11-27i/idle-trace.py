#!/usr/bin/env python3
"""A work-stealing or coloring worker's empty-queue waits, from a packed
trace (`psmr run ... --trace-dir DIR`; 6 u32 words per event: time lo, hi,
thread | kind << 16 | x << 24, a, b, c; see psmr_core::codec).

    idle-trace.py RUN.trace [VOCABULARY.json]

Per worker: the empty-queue waits (wait-start .. wait-end, reason x of the
wait-start), their total time, their spins (wait-end's `b`), and for the
waits that stayed in the spin phase (1-100 spins, so no yield, no park)
the time per iteration (median and quartiles); then the wait's time split
by how it ended (spins <= 100 or more).
"""
import collections
import json
import struct
import sys

voc = sys.argv[2] if len(sys.argv) > 2 else "web/src/trace/vocabulary.json"
names = {k["code"]: k["name"] for k in json.load(open(voc))["kinds"]}
raw = open(sys.argv[1], "rb").read()
open_wait = {}
waits = collections.defaultdict(list)
for i in range(len(raw) // 24):
    w = struct.unpack_from("<6I", raw, i * 24)
    t, th, k = w[0] | (w[1] << 32), w[2] & 0xFFFF, names.get((w[2] >> 16) & 0xFF)
    if th == 0xFFFF:
        continue
    if k == "wait-start":
        open_wait[th] = (t, w[2] >> 24)
    elif k == "wait-end" and th in open_wait:
        t0, reason = open_wait.pop(th)
        if reason == w[2] >> 24:
            waits[(th, reason)].append((t - t0, w[4]))


def q(xs, f):
    return xs[min(len(xs) - 1, int(len(xs) * f))]


for (th, reason), ws in sorted(waits.items()):
    tot = sum(d for d, _ in ws)
    spins = sum(s for _, s in ws)
    short = sorted(d / s for d, s in ws if 0 < s <= 100)
    long_ = [d for d, s in ws if s > 100]
    line = (f"thread {th} reason {reason}: {len(ws)} waits, {tot/1e6:.2f} ms, spins {spins}; "
            f"{len(short)} in the spin phase")
    if short:
        line += (f" ns/iteration p25 {q(short, .25):.0f} median {q(short, .5):.0f} "
                 f"p75 {q(short, .75):.0f}")
    line += f"; {len(long_)} past it, {sum(long_)/1e6:.2f} ms"
    print(line)
