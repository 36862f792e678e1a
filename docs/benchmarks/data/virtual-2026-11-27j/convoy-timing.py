#!/usr/bin/env python3
"""CBASE at 2 workers on real threads: what follows a removal that notifies
the delivering thread waiting on a full graph (`space.notify_one` under the
graph's lock). Reads the dump of a temporary instrumentation of
`late/dag.rs` (not committed; the events are listed below): one line per
event, `ns kind cpu thread`.

    convoy-timing.py DUMP...   (convoy/timing-N.txt.gz: the dumps of this pass)

Events: 10/11 insert called / graph lock taken, 12 graph found full,
13 woken from the full-graph wait (lock re-taken), 14/15 insert done / lock
released; 20/21 take called / lock taken, 22 worker waits for a ready node,
23 take's lock released; 30/31 remove called / lock taken, 32/33 before /
after `space.notify_one`, 34 lock released after a notify, 35 lock released
(no notify); 90/91 a contended graph lock: before / after `lock`.
"""
import bisect
import gzip
import statistics
import sys


def opn(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def q(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))] if xs else float("nan")


def us(xs):
    if not xs:
        return "none"
    return (f"n {len(xs)}, median {q(xs, .5)/1e3:.2f} us, p10 {q(xs, .1)/1e3:.2f}, "
            f"p90 {q(xs, .9)/1e3:.2f}, sum {sum(xs)/1e6:.2f} ms")


for path in sys.argv[1:]:
    evs = []
    for line in opn(path):
        t, k, cpu, th = map(int, line.split())
        evs.append((t, k, cpu, th))
    evs.sort()
    by = {}
    for e in evs:
        by.setdefault(e[3], []).append(e)
    deliverer = next(th for th, es in by.items() if any(k == 10 for _, k, _, _ in es))
    workers = [th for th in by if th != deliverer]
    d = by[deliverer]
    d_times = [e[0] for e in d]
    print(f"== {path}: deliverer thread {deliverer}, workers {workers}, "
          f"full-graph waits {sum(1 for e in d if e[1] == 12)}")
    notify, unlock, to_take_lock, take_contended = [], [], [], 0
    gap_quiet = []
    d_wake, d_after_unlock, same_cpu, d_before_unlock = [], [], 0, 0
    d_insert_then_take = 0
    other_busy = []
    n_notify = 0
    for w in workers:
        es = by[w]
        other = [x for x in workers if x != w]
        for i, (t, k, cpu, _) in enumerate(es):
            if k not in (32, 35):
                continue
            # next take's lock (21) by this worker, and whether contended
            j = i + 1
            contended = False
            while j < len(es) and es[j][1] != 21:
                if es[j][1] == 90:
                    contended = True
                j += 1
            if j >= len(es):
                continue
            if k == 35:
                gap_quiet.append(es[j][0] - t)
                continue
            n_notify += 1
            t33 = next(e[0] for e in es[i:] if e[1] == 33)
            t34 = next(e[0] for e in es[i:] if e[1] == 34)
            notify.append(t33 - t)
            unlock.append(t34 - t33)
            to_take_lock.append(es[j][0] - t34)
            take_contended += contended
            # the deliverer's wake (13) after this notify
            a = bisect.bisect_left(d_times, t)
            wk = next((e for e in d[a:] if e[1] == 13), None)
            if wk:
                d_wake.append(wk[0] - t)
                if wk[0] < t34:
                    d_before_unlock += 1
                d_after_unlock.append(wk[0] - t34)
                if wk[2] == cpu:
                    same_cpu += 1
                ins_done = next((e for e in d[a:] if e[1] == 15), None)
                if ins_done and ins_done[0] <= es[j][0]:
                    d_insert_then_take += 1
            # the other worker: did it take (21) or remove (31) inside the gap?
            for o in other:
                ots = [e for e in by[o] if t <= e[0] <= es[j][0] and e[1] in (21, 31)]
                other_busy.append(len(ots))
    print(f"removes that notified: {n_notify}")
    print(f"  notify_one under the lock:            {us(notify)}")
    print(f"  unlock after the notify:              {us(unlock)}")
    print(f"  unlock -> next take's lock taken:     {us(to_take_lock)}")
    print(f"  next take's lock found held:          {take_contended} of {n_notify}")
    print(f"  deliverer relocked after the notify:  {us(d_wake)}")
    print(f"  ... before the notifier's unlock:     {d_before_unlock}; on the notifier's CPU: {same_cpu}")
    print(f"  deliverer's insert done before the notifier's next take got the lock: {d_insert_then_take}")
    print(f"  other worker's lock sections inside the gap: median {q(other_busy, .5)}, "
          f"zero in {sum(1 for x in other_busy if x == 0)} of {len(other_busy)}")
    print(f"removes without a notify, unlock -> next take's lock: {us(gap_quiet)}")
    # deliverer: woken -> its insert's unlock
    ins = []
    for i, e in enumerate(d):
        if e[1] == 13:
            nx = next((x for x in d[i:] if x[1] == 15), None)
            if nx:
                ins.append(nx[0] - e[0])
    print(f"deliverer, woken -> insert's lock released: {us(ins)}")

# Per full-graph wait: the removal that woke the deliverer (the first notify
# after its wait began) and what followed.
print("\n# per full-graph wait")
for path in sys.argv[1:]:
    evs = sorted(tuple(map(int, l.split())) for l in opn(path))
    deliverer = next(e[3] for e in evs if e[1] == 10)
    waits, first = [], None
    lost, inside_unlock, after_unlock, notif, unl, same_cpu = [], 0, 0, [], [], 0
    d_spin = []
    by = {}
    for e in evs:
        by.setdefault(e[3], []).append(e)
    for i, e in enumerate(evs):
        if e[3] == deliverer and e[1] == 12:
            first = "waiting"
        elif first == "waiting" and e[1] == 32:
            first = None
            w = e[3]
            es = by[w]
            j = es.index(e)
            t33 = next(x for x in es[j:] if x[1] == 33)
            t34 = next(x for x in es[j:] if x[1] == 34)
            nxt = next((x for x in es[j:] if x[1] == 21), None)
            wk = next((x for x in evs[i:] if x[3] == deliverer and x[1] == 13), None)
            if not (wk and nxt):
                continue
            notif.append(t33[0] - e[0])
            unl.append(t34[0] - t33[0])
            lost.append(nxt[0] - e[0])
            same_cpu += wk[2] == e[2]
            if t33[0] <= wk[0] <= t34[0]:
                inside_unlock += 1
            elif wk[0] > t34[0]:
                after_unlock += 1
    n = len(lost)
    print(f"== {path}: {n} full-graph waits ended by a removal's notify")
    print(f"  the waking notify_one:                     {us(notif)}")
    print(f"  the notifier's unlock after it:            {us(unl)}")
    print(f"  notifier: notify -> its next take's lock:  {us(lost)}")
    print(f"  deliverer re-took the lock inside the notifier's unlock: {inside_unlock}, "
          f"after it: {after_unlock}; on the notifier's CPU: {same_cpu}")
