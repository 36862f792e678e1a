#!/usr/bin/env bash
# Browser (threaded WebAssembly in Chromium) against native, same machine,
# same stream: issue 20 part 2 and docs/benchmarks/wasm.md.
#
#   scripts/bench-wasm-vs-native.sh [OUT_DIR]
#
# Builds the native CLI (release), the wasm engine (scripts/build-wasm.sh)
# and the web app, then runs, RUNS times and interleaved (native, browser,
# native, browser, ...), the same sweep twice:
#   - natively:  psmr bench SCENARIO --threads THREADS --requests REQUESTS --json
#   - in Chromium: the Sweep tab of the built app (vite preview, Debian's
#     /usr/bin/chromium driven by Playwright, e2e/measure/sweep.measure.ts's
#     "browser sweep for the benchmark docs"), exported as the tab's CSV.
# Both sweep the same file: by default a copy of the scenario with a warm-up
# run in the first parallel slot (PSMR_WVN_WARMUP_SLOT below).
# Each run records `uptime` before and after. Writes into OUT_DIR:
#   bench.scenario.json (the swept copy, with the warm-up slot),
#   native-<i>.json, browser-<i>.csv, uptime.log, clock-native.json and
#   clock-browser.json (cost and step of one clock reading), points.csv (every point of
#   every run, both platforms) and summary.md (median and spread per point,
#   browser/native ratios and the issue's goals, met or not).
#
# Environment:
#   PSMR_WVN_SCENARIO  scenario file under scenarios/ (default early-rw-read-heavy.json)
#   PSMR_WVN_THREADS   thread counts (default 1,2)
#   PSMR_WVN_REQUESTS  requests per stream (default 4000)
#   PSMR_WVN_RUNS      runs per platform (default 3)
#   PSMR_WVN_NO_BUILD  1: skip the three builds (use what is built)
#   PSMR_WVN_ONLY      native | browser: run one platform only
#   PSMR_WVN_PSMR      native psmr binary to run (default: the release build)
#   PSMR_WVN_DIST      built web app to serve (absolute path; default web/dist),
#                      e.g. a copy of web/dist from another commit
#   PSMR_WVN_WARMUP_SLOT 1 (default): both platforms sweep a copy of the
#                      scenario (OUT_DIR/bench.scenario.json, without its
#                      expectations) whose first parallel run, right after
#                      sequential, is a warm-up run of its first executor,
#                      labelled "warm-up": in Chromium that slot runs 3-7 %
#                      slower than the next (docs/benchmarks/wasm.md, "The
#                      first slot (tenth stop)"), so no compared executor
#                      runs there. Its numbers are kept but compare nothing.
#                      0: the scenario as it is (the method before 2026-11-27).
#   PSMR_WVN_CPU       1: sample every Chromium thread's CPU time during the
#                      browser runs (browser-<i>.cpu.tsv). Off by default: the
#                      sampler forks a few processes twice a second, which cost
#                      a 2-thread browser run 10-20 % of its speedup on 2 cores
#                      (docs/benchmarks/wasm.md), and native runs have none.
#   CARGO_TARGET_DIR   native target dir (default engine/target)
#
# Run it on a quiet machine (load average under ~2 on 2 cores): a parallel
# point needs every core, and anything else running takes its share. The
# summary prints the load next to the numbers for that reason.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_env SCENARIO=PSMR_WVN_SCENARIO=early-rw-read-heavy.json THREADS=PSMR_WVN_THREADS=1,2 REQUESTS=PSMR_WVN_REQUESTS=4000 RUNS=PSMR_WVN_RUNS=3 "ONLY=PSMR_WVN_ONLY="
bench_settings wasm-vs-native "${1:-}"
PSMR="${PSMR_WVN_PSMR:-$PSMR}"
WARMUP_SLOT="${PSMR_WVN_WARMUP_SLOT:-1}"
bench_dry SCENARIO THREADS REQUESTS RUNS ONLY OUT TARGET PSMR WARMUP_SLOT

need node "install Node.js 20+" || exit 2
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

{
  printf 'date (UTC):    %s\n' "$(date -u '+%Y-%m-%d %H:%M:%S')"
  printf 'cores (nproc): %s\n' "$(nproc)"
  printf 'CPU model:     %s\n' "$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)"
  printf 'chromium:      %s\n' "$(/usr/bin/chromium --version 2>/dev/null | grep -v unexpected | head -1)"
  printf 'commit:        %s\n' "$(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet || echo ' (dirty)')"
  printf 'stream:        scenarios/%s, %s requests, threads %s, %s runs per platform\n' "$SCENARIO" "$REQUESTS" "$THREADS" "$RUNS"
  printf 'warm-up slot:  %s\n' "$([ "$WARMUP_SLOT" = "1" ] && echo 'on (a warm-up run of the first executor right after sequential)' || echo off)"
  printf 'cpu sampling:  %s\n' "$([ "${PSMR_WVN_CPU:-0}" = "1" ] && echo 'on (perturbs the browser runs)' || echo off)"
} | tee "$OUT/machine.txt"

if [ "${PSMR_WVN_NO_BUILD:-0}" != "1" ]; then
  echo "== build: native CLI, wasm engine, web app"
  bench_build
  [ "$ONLY" = "native" ] || {
    bash "$ROOT/scripts/build-wasm.sh"
    (cd "$ROOT" && npm run build -w web >/dev/null)
  }
fi

# The file both platforms sweep: the scenario itself, or (warm-up slot) a
# copy with a warm-up run of its first parallel executor right after
# sequential, which the browser gets through the Run tab's source box.
SOURCE="$ROOT/scenarios/$SCENARIO"
SWEEP_SOURCE=""
if [ "$WARMUP_SLOT" = "1" ]; then
  SOURCE="$OUT/bench.scenario.json"
  SWEEP_SOURCE="$SOURCE"
  node -e '
    const fs = require("fs");
    const sc = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    delete sc.expect; // it names the executors by label; a sweep judges nothing
    const seq = sc.schedulers.filter((s) => s.id === "sequential");
    const par = sc.schedulers.filter((s) => s.id !== "sequential");
    if (par.length > 0) sc.schedulers = [...seq, { ...par[0], label: "warm-up" }, ...par];
    fs.writeFileSync(process.argv[2], JSON.stringify(sc, null, 2) + "\n");
  ' "$ROOT/scenarios/$SCENARIO" "$SOURCE"
fi

native_run() {
  local i="$1"
  bench_stamp "native-$i before"
  "$PSMR" bench "$SOURCE" --threads "$THREADS" --requests "$REQUESTS" --json >"$OUT/native-$i.json"
  bench_stamp "native-$i after"
}

# Sample every chromium thread's CPU time (utime + stime, clock ticks) every
# 0.5 s while a browser run goes on: the summary sums, per thread name, the
# last sample of each thread, which splits the browser's CPU between the
# engine's Web Workers ("DedicatedWorker thread") and everything else.
# Descendants of process $1 (its children, theirs, ...).
descendants() {
  local kid
  for kid in $(pgrep -P "$1" || true); do
    echo "$kid"
    descendants "$kid"
  done
}

sample_chromium() {
  local file="$1" root="$2" pids stats
  set +e # a sampling miss must not end the sampler
  while :; do
    printf '#\t%s\n' "$(date +%s%N | cut -c1-13)" >>"$file"
    # Only this run's browser: other Chromiums on the machine (someone
    # else's tests) are not counted.
    pids="$(descendants "$root" | while read -r p; do [ "$(cat /proc/"$p"/comm 2>/dev/null)" = chromium ] && echo "$p"; done || true)"
    stats=()
    for p in $pids; do stats+=(/proc/"$p"/task/*/stat); done
    # comm may contain spaces: split after its closing parenthesis.
    # cat, not awk, opens the files: a thread that ends meanwhile is skipped
    # (mawk stops at the first file it cannot open).
    [ "${#stats[@]}" -gt 0 ] && cat "${stats[@]}" 2>/dev/null | awk '{ s = $0; c = substr(s, index(s, "(") + 1); c = substr(c, 1, index(c, ")") - 1);
      r = substr(s, index(s, ")") + 2); split(r, f, " "); print $1 "\t" c "\t" f[12] + f[13] }' >>"$file" || true
    sleep 0.5
  done
}

browser_run() {
  local i="$1"
  bench_stamp "browser-$i before"
  (cd "$ROOT" && PSMR_E2E_DIST="${PSMR_WVN_DIST:-}" PSMR_SWEEP_SCENARIO="$SCENARIO" PSMR_SWEEP_SOURCE="$SWEEP_SOURCE" PSMR_SWEEP_THREADS="$THREADS" \
    PSMR_SWEEP_REQUESTS="$REQUESTS" PSMR_SWEEP_OUT="$OUT/browser-$i.csv" \
    npx playwright test -c e2e sweep -g "browser sweep" --reporter=line >"$OUT/browser-$i.log" 2>&1) &
  local run=$!
  local sampler=""
  if [ "${PSMR_WVN_CPU:-0}" = "1" ]; then
    sample_chromium "$OUT/browser-$i.cpu.tsv" "$run" &
    sampler=$!
  fi
  wait "$run" || {
    echo "browser run $i failed; see $OUT/browser-$i.log" >&2
    tail -20 "$OUT/browser-$i.log" >&2
    [ -z "$sampler" ] || kill "$sampler" 2>/dev/null || true
    exit 1
  }
  if [ -n "$sampler" ]; then
    kill "$sampler" 2>/dev/null || true
    wait "$sampler" 2>/dev/null || true
  fi
  bench_stamp "browser-$i after"
}

for i in $(seq 1 "$RUNS"); do
  [ "$ONLY" = "browser" ] || native_run "$i"
  [ "$ONLY" = "native" ] || browser_run "$i"
done

# What one clock reading costs on each side (the engine reads the clock per
# request: admission, execution start and end).
if [ "$ONLY" != "native" ]; then
  bench_stamp "clock probes before"
  (cd "$ROOT" && PSMR_E2E_DIST="${PSMR_WVN_DIST:-}" PSMR_TIMER_OUT="$OUT/clock-browser.json" \
    npx playwright test -c e2e sweep -g "timer" --reporter=line >"$OUT/clock-browser.log" 2>&1) ||
    echo "browser clock probe failed; see $OUT/clock-browser.log" >&2
fi
if command -v cc >/dev/null 2>&1; then
  cc -O2 -o "$OUT/clock_cost" "$ROOT/scripts/probes/clock_cost.c" && "$OUT/clock_cost" >"$OUT/clock-native.json"
fi
bench_stamp "clock probes after"

node "$ROOT/scripts/wasm-vs-native-summary.mjs" "$OUT" | tee "$OUT/summary.md"
echo "results: $OUT"
