# Shared helpers for scripts/*.sh (sourced, not run).

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WASM_BINDGEN_VERSION="0.2.130"
STEP_LOG=()

# step "name" "hint on failure" cmd args...: run one step, stop with a clear
# message when it fails.
step() {
  local name="$1" hint="$2"
  shift 2
  local t0=$SECONDS
  printf '\n\033[1m==> %s\033[0m\n' "$name"
  if "$@"; then
    local dt=$((SECONDS - t0))
    STEP_LOG+=("$(printf '%4ds  %s' "$dt" "$name")")
    printf '    ok: %s (%ds)\n' "$name" "$dt"
  else
    local rc=$?
    printf '\n\033[1;31mFAILED: %s (exit %d)\033[0m\n' "$name" "$rc" >&2
    [ -n "$hint" ] && printf '  hint: %s\n' "$hint" >&2
    exit "$rc"
  fi
}

step_summary() {
  printf '\nstep times:\n'
  printf '  %s\n' "${STEP_LOG[@]}"
}

need() {
  command -v "$1" >/dev/null 2>&1 || {
    echo "missing '$1': $2" >&2
    return 1
  }
}

# The pinned nightly with rust-src and the wasm32 target. rustup does not
# install it on first use here (RUSTUP_AUTO_INSTALL=0), so ask explicitly.
install_toolchain() {
  need rustup "install rustup (https://rustup.rs) first" || return 1
  (cd "$ROOT/engine" && rustup toolchain install) || return 1
  (cd "$ROOT/engine" && rustc --version && cargo --version)
}

# wasm-bindgen-cli must match the wasm-bindgen crate exactly.
install_wasm_bindgen() {
  local have
  have="$(wasm-bindgen --version 2>/dev/null || true)"
  if [ "$have" = "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
    echo "$have already installed"
    return 0
  fi
  echo "found '${have:-no wasm-bindgen}', installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (takes ~2-3 minutes)"
  # No --locked: one of its locked dependency versions is not served here.
  (cd "$ROOT/engine" && cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION") || return 1
  wasm-bindgen --version
}

# npm ci when package-lock.json changed since the last install (a stamp in
# node_modules), or when PSMR_NPM_CI=1.
install_node_modules() {
  need node "install Node.js 20 or newer" || return 1
  need npm "install npm" || return 1
  local major
  major="$(node -p 'process.versions.node.split(".")[0]')"
  if [ "$major" -lt 20 ]; then
    echo "Node $(node --version) is too old: the web app and its tools need Node 20 or newer" >&2
    return 1
  fi
  local sum stamp="$ROOT/node_modules/.psmr-lock.sha256"
  sum="$(sha256sum "$ROOT/package-lock.json" | cut -d' ' -f1)"
  if [ "${PSMR_NPM_CI:-0}" != "1" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
    echo "node_modules match package-lock.json"
    return 0
  fi
  (cd "$ROOT" && npm ci --no-audit --no-fund) || return 1
  echo "$sum" >"$stamp"
}

# Debian's binaryen for wasm-opt, which shrinks the engine's wasm for the
# first load (scripts/build-wasm.sh uses it when present). Optional: without
# it the build still works, only larger.
install_binaryen() {
  if command -v wasm-opt >/dev/null 2>&1; then
    echo "wasm-opt present: $(wasm-opt --version)"
    return 0
  fi
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  if ! $sudo apt-get install -y binaryen; then
    $sudo apt-get update && $sudo apt-get install -y binaryen
  fi || echo "binaryen not installed (needs root and the Debian mirror): the wasm stays unoptimized"
  return 0
}

# Debian's chromium for the e2e tests (Playwright cannot download its own).
install_chromium() {
  local bin="${PSMR_CHROMIUM:-/usr/bin/chromium}"
  if [ -x "$bin" ]; then
    echo "chromium present: $bin"
    return 0
  fi
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update && $sudo apt-get install -y chromium
}

# The machine a benchmark ran on: date, cores, CPU model and load average.
bench_machine() {
  printf 'date (UTC):   %s\n' "$(date -u '+%Y-%m-%d %H:%M:%S')"
  printf 'cores (nproc): %s\n' "$(nproc)"
  printf 'CPU model:    %s\n' "$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)"
  printf 'load average: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
}

# bench_table REPORT [vs-epaxos]: one sweep's JSON report as a table (node
# is already needed by the web app). With vs-epaxos: a column of PePaxos's
# speedup over ePaxos, and each write share's SCC sizes after the table.
bench_table() {
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const vsEpaxos = process.argv[2] === "vs-epaxos";
    const b = r.bench ?? r;
    console.log(`${b.scenario} (${b.cores} cores, median of ${b.repetitions})`);
    const pad = (s, n) => String(s).padStart(n);
    const row = (head, epaxos, tail) => [...head, ...(vsEpaxos ? [epaxos] : []), ...tail].join(" ");
    console.log(row(["scheduler".padEnd(16), pad("threads", 8), pad("writes", 7), pad("ops/s", 9),
      pad("speedup", 8)], pad("vs epaxos", 10), [pad("sched ns/req", 13), pad("correct", 8)]));
    for (const p of b.points) {
      const ve = p.speedup_vs_epaxos == null ? "-" : p.speedup_vs_epaxos.toFixed(2) + "x";
      console.log(row([p.label.padEnd(16), pad(p.threads + (p.oversubscribed ? "*" : ""), 8), pad(p.writes, 7),
        pad(Math.round(p.throughput_ops_s), 9), pad(p.speedup_vs_sequential.toFixed(2) + "x", 8)],
        pad(ve, 10), [pad(Math.round(p.scheduler_ns_per_request), 13), pad(p.correct ? "ok" : "WRONG", 8)]));
    }
    for (const s of vsEpaxos ? b.streams ?? [] : []) {
      const h = s.stream.scc;
      if (h) console.log(`writes ${s.writes}: ${h.instances} instances, SCC sizes ${h.sizes.map(([z, c]) => z + "x" + c).join(", ")}`);
    }
  ' "$1" "${2:-}"
}

# bench_scenario SRC DST REPS [CHANGE]: the scenario SRC with run.repetitions
# set to REPS and the trace off, written to DST. CHANGE "no-skew" drops the
# workload's skew (the same sweep on balanced shards).
bench_scenario() {
  node -e '
    const fs = require("fs");
    const sc = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    sc.run = { ...(sc.run ?? {}), repetitions: Number(process.argv[3]), trace: false };
    if (process.argv[4] === "no-skew") {
      delete sc.workload.skew;
      sc.name += " (skew removed)";
    }
    fs.writeFileSync(process.argv[2], JSON.stringify(sc, null, 2));
  ' "$1" "$2" "$3" "${4:-}"
}

# run_bench_sweeps: the `psmr bench` sweeps of a bench script. Each SWEEPS
# entry is "name|scenario file|thread counts|write shares ("-": the
# scenario's)|requests|repetitions ("-": REPS)[|change]"; only the names that
# contain ONLY run. The caller defines `table REPORT` (prints a JSON report,
# with bench_table) and sets OUT, REPS, ONLY, TIMEOUT_S, TARGET and PSMR.
# Builds psmr, prints the machine before and after, keeps each report in
# OUT; returns 1 when a sweep failed or was stopped after TIMEOUT_S seconds.
run_bench_sweeps() {
  need node "install Node.js 20+" || exit 2
  mkdir -p "$OUT"
  echo "== machine"
  bench_machine | tee "$OUT/machine-before.txt"

  echo
  echo "== build: cargo build --release -p psmr-cli (target $TARGET)"
  bench_build

  local failed=0 T0=$SECONDS entry name file threads writes requests reps change scenario args t0 rc
  for entry in "${SWEEPS[@]}"; do
    IFS='|' read -r name file threads writes requests reps change <<<"$entry"
    [ -n "$ONLY" ] && [[ "$name" != *"$ONLY"* ]] && continue
    scenario="$OUT/$name.scenario.json"
    [ "$reps" = "-" ] && reps="$REPS"
    bench_scenario "$ROOT/scenarios/$file" "$scenario" "$reps" "$change"
    args=(bench "$scenario" --threads "$threads" --requests "$requests" --json)
    [ "$writes" != "-" ] && args+=(--writes "$writes")
    echo
    echo "== $name: psmr bench scenarios/$file ${args[*]:2}${change:+ ($change)} (repetitions $reps, load $(cut -d' ' -f1 /proc/loadavg))"
    t0=$SECONDS
    rc=0
    timeout "$TIMEOUT_S" "$PSMR" "${args[@]}" >"$OUT/$name.json" || rc=$?
    if [ "$rc" -eq 124 ]; then
      echo "   stopped after ${TIMEOUT_S}s (PSMR_BENCH_TIMEOUT): no numbers for this sweep"
      failed=1
      continue
    fi
    table "$OUT/$name.json"
    echo "   ($((SECONDS - t0)) s, exit $rc)"
    [ "$rc" -ne 0 ] && failed=1
  done

  echo
  echo "== machine after $((SECONDS - T0)) s of sweeps"
  bench_machine | tee "$OUT/machine-after.txt"
  echo "JSON reports: $OUT"
  return "$failed"
}

# bench_env NAME=VAR=DEFAULT...: each setting NAME from the environment
# variable VAR, or DEFAULT when VAR is unset or empty (as "${VAR:-DEFAULT}").
bench_env() {
  local spec name var
  for spec in "$@"; do
    name="${spec%%=*}"
    spec="${spec#*=}"
    var="${spec%%=*}"
    printf -v "$name" '%s' "${!var:-${spec#*=}}"
  done
}

# bench_settings NAME [OUT_DIR]: the settings every bench script shares.
# OUT: OUT_DIR, or a fresh folder ${TMPDIR:-/tmp}/psmr-NAME-<UTC time>;
# TARGET: CARGO_TARGET_DIR (default engine/target); PSMR: its release psmr.
bench_settings() {
  OUT="${2:-${TMPDIR:-/tmp}/psmr-$1-$(date -u +%Y%m%dT%H%M%SZ)}"
  TARGET="${CARGO_TARGET_DIR:-$ROOT/engine/target}"
  PSMR="$TARGET/release/psmr"
}

# bench_dry VAR...: with PSMR_BENCH_DRY=1, print the named settings as the
# script parsed them (`declare -p`) and stop before anything is built or run.
bench_dry() {
  [ "${PSMR_BENCH_DRY:-0}" = "1" ] || return 0
  declare -p "$@"
  exit 0
}

# bench_build PACKAGE [CARGO ARGS...]: the release build of PACKAGE (psmr-cli
# by default) into TARGET.
bench_build() {
  (cd "$ROOT/engine" && CARGO_TARGET_DIR="$TARGET" cargo build --release -q -p "${1:-psmr-cli}" "${@:2}")
}

# bench_stamp LABEL: the time, LABEL and the load average, printed and
# appended to OUT/uptime.log.
bench_stamp() {
  printf '%s %s load %s\n' "$(date -u '+%H:%M:%S')" "$1" "$(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/uptime.log"
}
