#!/usr/bin/env python3
"""V8 --prof ticks of the engine's workers, per executor, over every isolate log of one
browser session (sweep-prof.mjs with PROF=1). A tick belongs to a worker when a frame of its
stack is the worker closure of psmr_schedulers::probe::run_workers, instantiated for early
(BarrierSync) or busy-wait (CycleSync); ticks of the delivering thread (early::drive) are
counted apart. V8's sampler signals each isolate's thread every millisecond and a
descheduled thread takes one pending signal when it runs again, so the ticks count about the
thread's running time, in ms, even on a loaded machine (not its wall time).
Categories by the top frame (or, for a tick in C++ / the runtime, the innermost wasm or JS frame):
  walk   ShardedList::execute (the application's work, optimized code '*' or Liftoff '~')
  exec   RunContext::execute around it (footprint crossings, log slot stores, counters)
  clock  performance.now() through wasm-bindgen's import (__wbg_now..., wasm-to-js)
  wait   a condvar or atomic wait (an empty queue: idle)
  loop   the worker closure itself (pop, probe calls inlined there)
  other  anything else
Usage: worker-ticks.py REQUESTS_PER_EXECUTOR SESSION_DIR..."""
import bisect, collections, glob, os, re, sys

WORKER = re.compile(r'^psmr_schedulers\[[0-9a-f]+\]::probe::run_workers::<')

def load(f):
    codes, ticks = [], []
    for line in open(f, errors='replace'):
        if line.startswith('code-creation,'):
            p = line.rstrip('\n').split(',')
            try:
                addr, size, ts = int(p[4], 16), int(p[5]), int(p[3])
            except (ValueError, IndexError):
                continue
            if p[1] == 'JS':
                name = p[6] + (' *' if p[-1] == '*' else ' ~')
            else:
                name = p[1] + ':' + p[6]
            codes.append((addr, addr + size, name, ts))
        elif line.startswith('tick,'):
            p = line.rstrip('\n').split(',')
            ticks.append((int(p[1], 16), int(p[2]), [int(x, 16) for x in p[6:] if x.startswith('0x')]))
    codes.sort()
    return codes, ticks

def classify(f, out):
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

    for pc, ts, stack in ticks:
        names = [find(pc, ts)] + [find(a, ts) for a in stack]
        if any('early::drive' in n for n in names):
            out[('driver', 'all')] += 1
            continue
        w = next((n for n in names if WORKER.match(n)), None)
        if w is None:
            continue
        ex = 'early' if 'BarrierSync' in w else 'busy-wait' if 'CycleSync' in w else 'other'
        top = names[0]
        inner = next((n for n in names if n != '?'), '?')
        if 'ShardedList' in top:
            cat = 'walk' + top[-2:]
        elif '::exec::RunContext>::execute' in top:
            cat = 'exec'
        elif 'wbg_now' in inner or 'wasm-to-js' in inner or 'clock::now_ns' in inner or 'WasmToJs' in inner:
            cat = 'clock'
        elif 'Condvar' in inner or 'park' in inner or 'wait_for' in inner:
            cat = 'wait'
        elif WORKER.match(inner):
            cat = 'loop'
        else:
            cat = 'other'
            out[('other-names', ex, inner[:120])] += 1
        out[(ex, cat)] += 1

requests = int(sys.argv[1])
cats = ['walk *', 'walk ~', 'exec', 'clock', 'loop', 'other', 'wait']
print(f"{'session':28s} {'executor':9s} " + ' '.join(f'{c:>7s}' for c in cats) + '   busy  µs/req (busy = all but wait)')
for d in sys.argv[2:]:
    out = collections.Counter()
    for f in sorted(glob.glob(os.path.join(d, 'isolate-*-v8.log'))):
        classify(f, out)
    for ex in ('early', 'busy-wait'):
        c = [out[(ex, k)] for k in cats]
        busy = sum(c) - out[(ex, 'wait')]
        if sum(c) == 0:
            continue
        print(f"{os.path.basename(d.rstrip('/')):28s} {ex:9s} " + ' '.join(f'{x:7d}' for x in c)
              + f" {busy:6d} {busy * 1000 / requests:7.1f}")
    others = sorted(((v, k[2]) for k, v in out.items() if k[0] == 'other-names'), reverse=True)[:3]
    for v, n in others:
        print(f"    other: {v} {n}")
