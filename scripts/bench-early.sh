#!/usr/bin/env bash
# Reproduce docs/benchmarks/early.md: native `psmr bench` sweeps of the
# shipped early-scheduling, busy-wait and work-stealing scenarios.
#
#   scripts/bench-early.sh [OUT_DIR]
#
# Prints the machine (cores, CPU model, load average) before and after, one
# table per sweep, and keeps each sweep's JSON report in OUT_DIR (default:
# a fresh folder under ${TMPDIR:-/tmp}). Points where worker threads + 1
# (the delivering thread) exceed the cores are marked `*`: their threads
# time-share the cores, so they say little about the scheduler.
#
# Environment:
#   PSMR_BENCH_THREADS  thread counts to sweep (default 1,2,4,8)
#   PSMR_BENCH_REPS     repetitions per point, median reported (default 1)
#   PSMR_BENCH_ONLY     run only sweeps whose name contains this text
#   PSMR_BENCH_TIMEOUT  seconds allowed per sweep before it is stopped (default 180)
#   CARGO_TARGET_DIR    where the release build of psmr goes (default engine/target)
#
# Run it on a quiet machine: other processes' load distorts the numbers
# (the load average is printed next to them for that reason).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_env THREADS=PSMR_BENCH_THREADS=1,2,4,8 REPS=PSMR_BENCH_REPS=1 "ONLY=PSMR_BENCH_ONLY=" TIMEOUT_S=PSMR_BENCH_TIMEOUT=180
bench_settings bench-early "${1:-}"

# name | scenario file | thread counts | write shares ("-": the scenario's) | requests | repetitions ("-": REPS) | change
# change "no-skew" drops the scenario's skew: the same sweep on balanced
# shards, to see what the skew costs each executor.
# Request counts are the scenarios' own, except where a sweep would take
# minutes on a small machine (noted in docs/benchmarks/early.md). The
# 8-shard sweep runs once per point: before each run the class-to-thread
# mapping optimizer takes up to tens of milliseconds on 18 classes (outside the measured
# window, but it adds up).
SWEEPS=(
  "read-light|early-rw-read-light.json|$THREADS|-|20000|-"
  "read-moderate|early-rw-read-moderate.json|$THREADS|-|4000|-"
  "mixed-light|early-rw-mixed-light.json|$THREADS|-|20000|-"
  "conflicts|early-busy-wait-conflicts.json|$THREADS|0.01,0.3|10000|-"
  "shards-4-balanced|early-shards-4-balanced.json|$THREADS|-|20000|-"
  "shards-4-skewed|early-shards-4-skewed.json|$THREADS|-|20000|-"
  "ws-skewed-shards|ws-skewed-shards.json|$THREADS|-|20000|-"
  "ws-balanced-shards|ws-skewed-shards.json|$THREADS|-|20000|-|no-skew"
  "skewed-stealing|skewed-stealing.json|$THREADS|-|5000|-"
  "ws-stealing-throughput|ws-stealing-throughput.json|${PSMR_BENCH_THREADS:-2,4,8}|-|20000|1"
)

# Print one sweep's JSON report as a table.
table() {
  bench_table "$1"
}

bench_dry THREADS REPS ONLY TIMEOUT_S OUT TARGET PSMR SWEEPS
run_bench_sweeps
