#!/usr/bin/env bash
# One slot.mjs session with the kernel's scheduler switches recorded on all
# CPUs (perf, sched:sched_switch; OUT_PREFIX.tids: the renderer's threads): every time a thread went on
# or off a CPU, so each run's CPU time can be summed however loaded the
# machine is (switches.py). Needs root (or perf_event_paranoid <= -1).
#   docs/benchmarks/data/wasm-2026-11-27d/perf-session.sh OUT_PREFIX DIST ORDER [REQUESTS]
set -uo pipefail
OUTP="$1"; DIST="$2"; ORDER="$3"; REQ="${4:-4000}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
node "$HERE/slot.mjs" "$OUTP.csv" "$DIST" "$ORDER" "$REQ" >"$OUTP.log" 2>&1 &
node_pid=$!
# The renderer that hosts the engine: the chromium descendant of this
# session with Web Worker threads.
desc() { local k; for k in $(pgrep -P "$1"); do echo "$k"; desc "$k"; done; }
# perf -p follows only the threads that exist when it attaches: wait until
# the engine's pool is up (the count of Web Worker threads steady for 1 s).
renderer=""
count=0
steady=0
for _ in $(seq 1 1200); do
  kill -0 "$node_pid" 2>/dev/null || break # the session failed
  for p in $(desc "$node_pid"); do
    n="$(cat /proc/"$p"/task/*/comm 2>/dev/null | grep -c '^DedicatedWorker')"
    if [ "${n:-0}" -gt 0 ]; then
      renderer="$p"
      if [ "$n" = "$count" ]; then steady=$((steady + 1)); else steady=0; count="$n"; fi
      break
    fi
  done
  [ -n "$renderer" ] && [ "$count" -ge 3 ] && [ "$steady" -ge 10 ] && break
  sleep 0.1
done
[ -n "$renderer" ] || { echo "no renderer with workers" >&2; wait "$node_pid"; exit 1; }
# All CPUs (a thread's switch onto a CPU is an event of the thread it
# replaces); the renderer's Web Worker threads are kept by switches.py.
ls /proc/"$renderer"/task >"$OUTP.tids"
perf record -q -a -e sched:sched_switch -o "$OUTP.perf.data" >/dev/null 2>&1 &
perf_pid=$!
wait "$node_pid"; rc=$?
kill -INT "$perf_pid" 2>/dev/null; wait "$perf_pid" 2>/dev/null
perf script -i "$OUTP.perf.data" -F tid,time,event,trace 2>/dev/null | gzip >"$OUTP.switches.txt.gz"
rm -f "$OUTP.perf.data"
exit "$rc"
