#!/usr/bin/env python3
"""From perf-session.sh's switches (perf script of sched:sched_switch): for each
Web Worker thread, its activity split at every voluntary sleep (off the CPU in
state S or D) longer than GAP_MS (default 1); per stretch: start (s), CPU time (ms: the sum
of its intervals on a CPU, whatever the load) and wall span (ms). A stretch of
a pool thread is a run of the worker loop. TIDS: the renderer's threads (perf-session.sh's
.tids file); the switches are of all CPUs. Usage: switches.py FILE.gz TIDS [GAP_MS]"""
import gzip, re, sys
from collections import defaultdict

keep = {int(x) for x in open(sys.argv[2]).read().split()}
gap = float(sys.argv[3]) / 1e3 if len(sys.argv) > 3 else 0.001
pat = re.compile(r"prev_comm=(.*?) prev_pid=(\d+) .*?prev_state=(\S+) ==> next_comm=(.*?) next_pid=(\d+)")
on = {}            # tid -> time it went on a CPU
comm = {}
ev = defaultdict(list)  # tid -> [(t_on, t_off, state_after)]
took = defaultdict(list)  # tid -> [(t, comm that took its CPU when it was preempted)]
t0 = None
for line in gzip.open(sys.argv[1], "rt"):
    m = pat.search(line)
    if not m:
        continue
    t = float(re.search(r"\s(\d+\.\d+):", line).group(1))
    t0 = t if t0 is None else t0
    pc, pp, st, nc, np_ = m.groups()
    pp, np_ = int(pp), int(np_)
    comm[pp], comm[np_] = pc, nc
    if pp in on:
        ev[pp].append((on.pop(pp), t, st))
    if st.startswith("R"):
        took[pp].append((t, ("this renderer's " if np_ in keep else "") + nc))
    on[np_] = t
stretches = {}
for tid, ivs in ev.items():
    if tid not in keep or not comm.get(tid, "").startswith("DedicatedWorker"):
        continue
    segs, cur = [], None
    for i, (a, b, st) in enumerate(ivs):
        if cur is None:
            cur = [a, b, 0.0]
        elif a - cur[1] > gap and prev_state[0] in "SD":
            segs.append(cur)
            cur = [a, b, 0.0]
        cur[1] = b
        cur[2] += b - a
        prev_state = st
    if cur:
        segs.append(cur)
    big = [s for s in segs if s[2] > 0.02]
    stretches[tid] = big
    total = sum(b - a for a, b, _ in ivs)
    print(f"tid {tid}: CPU {total*1e3:.0f} ms, stretches over 20 ms CPU: {len(big)}")
    for a, b, c in big:
        print(f"  at {a - t0:7.3f} s  CPU {c*1e3:7.1f} ms  wall {(b - a)*1e3:7.1f} ms")

# The pool's runs in time order, grouped into repetitions: the delivering
# thread (the Web Worker with the most CPU: it runs sequential and the
# oracle's replays) is left out; a repetition's parallel runs follow each
# other within 100 ms, and the next repetition comes after the delivering
# thread's sequential run and replays.
workers = {t: ivs for t, ivs in ev.items() if t in keep and comm.get(t, "").startswith("DedicatedWorker")}
deliverer = max(workers, key=lambda t: sum(b - a for a, b, _ in workers[t]))
runs = sorted(s + [t] for t, ss in stretches.items() if t != deliverer for s in ss)
groups = []
for r in runs:
    if groups and r[0] - groups[-1][-1][1] < 0.1:
        groups[-1].append(r)
    else:
        groups.append([r])
def off(r):
    """Wall minus CPU of run r (ms: runnable or waiting, off its CPU) and,
    for the times it was preempted, the names of who took the CPU."""
    a, b, c, t = r
    names = defaultdict(int)
    for tt, n in took[t]:
        if a <= tt <= b:
            names[re.sub(r"\d+", "#", n)] += 1
    top = sorted(names.items(), key=lambda x: -x[1])[:3]
    return (b - a - c) * 1e3, ", ".join(f"{n} x{k}" for n, k in top)

print("repetitions (pool runs' CPU ms, in order; thread; off-CPU ms inside the run; who preempted it):")
for g in groups:
    print("  " + "  ".join(f"{c*1e3:.1f} ({t}; off {off([a, b, c, t])[0]:.1f}: {off([a, b, c, t])[1]})" for a, b, c, t in g)
          + (f"   first/second CPU {g[0][2]/g[1][2]:.3f}, wall {(g[0][1]-g[0][0])/(g[1][1]-g[1][0]):.3f}"
             if len(g) == 2 else ""))
