#!/usr/bin/env bash
# Reproduce docs/benchmarks/late-epaxos.md: native `psmr bench` sweeps of
# the paper 004 scenarios (epaxos against pepaxos on commit streams over a
# list of 1, 10K, 100K and 1M entries, at the paper's conflict rates) and of
# the paper 003 comparison of late (CBASE) and early scheduling.
#
#   scripts/bench-late-epaxos.sh [OUT_DIR]
#
# Prints the machine (cores, CPU model, load average) before and after, one
# table per sweep (with PePaxos's speedup over ePaxos and the streams' SCC
# sizes), and keeps each sweep's JSON report in OUT_DIR (default: a fresh
# folder under ${TMPDIR:-/tmp}). Points whose threads (workers, the
# delivering thread and PePaxos's graph builder) exceed the cores are
# marked `*`: their threads time-share the cores.
#
# Environment:
#   PSMR_BENCH_THREADS  thread counts to sweep (default 1,2,4)
#   PSMR_BENCH_WRITES   write shares of the paper 004 sweeps (default 0,0.01,0.02,0.25,1)
#   PSMR_BENCH_REPS     repetitions per point, median reported (default 3)
#   PSMR_BENCH_ONLY     run only sweeps whose name contains this text
#   PSMR_BENCH_TIMEOUT  seconds allowed per sweep before it is stopped (default 600)
#   CARGO_TARGET_DIR    where the release build of psmr goes (default engine/target)
#
# Run it on a quiet machine: other processes' load distorts the numbers
# (the load average is printed next to them for that reason), and it
# favours runs with more threads (they get a larger share of a contended
# machine).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_env THREADS=PSMR_BENCH_THREADS=1,2,4 WRITES=PSMR_BENCH_WRITES=0,0.01,0.02,0.25,1 REPS=PSMR_BENCH_REPS=3 "ONLY=PSMR_BENCH_ONLY=" TIMEOUT_S=PSMR_BENCH_TIMEOUT=600
bench_settings bench-late-epaxos "${1:-}"

# name | scenario file | thread counts | write shares ("-": the scenario's) | requests | repetitions ("-": REPS)
# Request counts keep a pass within minutes on 2 cores: each sweep runs
# sequential, epaxos and pepaxos per write share (pepaxos per thread count).
SWEEPS=(
  "fig3-list-1|epaxos-fig3-list-1.json|$THREADS|$WRITES|100000|-"
  "fig4-list-10k|epaxos-fig4-list-10k.json|$THREADS|$WRITES|10000|-"
  "fig5-list-100k|epaxos-fig5-list-100k.json|$THREADS|$WRITES|2000|-"
  "fig6-list-1m|epaxos-fig6-list-1m.json|${PSMR_BENCH_THREADS:-1,2}|0,1|200|-"
  "late-read-light|late-vs-early-read-light.json|$THREADS|-|20000|-"
  "late-read-moderate|late-vs-early-read-moderate.json|$THREADS|-|4000|-"
  "late-read-heavy|late-vs-early-read-heavy.json|$THREADS|-|600|-"
  "late-mixed-light|late-vs-early-mixed-light.json|$THREADS|-|20000|-"
  "late-mixed-moderate|late-vs-early-mixed-moderate.json|$THREADS|-|4000|-"
  "late-graph-bound|late-graph-bound.json|${PSMR_BENCH_THREADS:-1,2}|-|20000|-"
)

# Print one sweep's JSON report as a table.
table() {
  bench_table "$1" vs-epaxos
}

bench_dry THREADS WRITES REPS ONLY TIMEOUT_S OUT TARGET PSMR SWEEPS
run_bench_sweeps
