#!/usr/bin/env bash
# `npm test` (and CI): installs, then every check, failing fast.
#
#   engine: no import circles (scripts/import-cycles.mjs), rustfmt, clippy -D warnings, cargo test (dev profile at
#           opt-level 1 without debug info: compiles in a fraction of the
#           release time and still runs the proptests quickly); the
#           fault-injection test of the CLI; loom and shuttle model checks
#   wasm:   build with the fault-injection feature (for the e2e tests), and
#           one package per family (sizes checked; not loaded by the app yet)
#   web:    tsc, eslint, prettier --check, vitest, lesson bookmarks over CLI
#           runs, vite build, Playwright
#
# CARGO_TARGET_DIR / PSMR_WASM_TARGET_DIR override the native / wasm target
# dirs (defaults engine/target and engine/target/wasm).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
T0=$SECONDS

step "rust toolchain (engine/rust-toolchain.toml)" "needs network access to the Rust dist server" install_toolchain
step "wasm-bindgen-cli $WASM_BINDGEN_VERSION" "cargo install needs crates.io" install_wasm_bindgen
step "node modules (npm ci)" "needs the npm registry" install_node_modules
step "binaryen (Debian, wasm-opt)" "apt-get install -y binaryen needs root and the Debian mirror" install_binaryen
step "chromium (Debian)" "apt-get install -y chromium needs root and the Debian mirror" install_chromium

cd "$ROOT/engine"
export CARGO_PROFILE_DEV_OPT_LEVEL="${CARGO_PROFILE_DEV_OPT_LEVEL:-1}"
export CARGO_PROFILE_DEV_DEBUG="${CARGO_PROFILE_DEV_DEBUG:-0}"
step "scripts' own tests (node --test scripts/*.test.mjs)" "a script test failed, see above" \
  node --test "$ROOT"/scripts/*.test.mjs
step "no import circles (engine crates, web/src)" "break the cycle listed above: move what both files need into a leaf module" \
  node "$ROOT/scripts/import-cycles.mjs" "$ROOT"
step "cargo fmt --check" "run: (cd engine && cargo fmt --all)" cargo fmt --all --check
step "cargo clippy -D warnings" "fix the lints above" cargo clippy --workspace --all-targets -- -D warnings
step "cargo test" "a Rust test failed, see above" cargo test --workspace
step "cargo test, fault-injection build (the oracle catches every broken variant; exploration finds each)" "a Rust test failed, see above" \
  cargo test -p psmr-cli --features fault-injection --test violation --test explore
# A one-family build (the engine packages' features): a left-out family's
# scheduler, parameters and workload get a located error, the rest runs.
step "cargo test, one-family build (psmr-scenario with only the early family)" "a Rust test failed, see above" \
  cargo test -p psmr-scenario --no-default-features --features early --test left_out
# Model checks of the synchronization protocols (docs/protocols/): the real
# protocol code compiled against loom's / shuttle's primitives, in their own
# target dirs so the normal build stays cached.
step "loom models (barrier, busy-wait cycles, stealing flags and markers)" "a model check failed, see above" \
  env RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/engine/target}/loom" \
  cargo test -p psmr-schedulers loom
step "shuttle schedules (whole early-family and stealing executors)" "a shuttle check failed, see above" \
  env RUSTFLAGS="--cfg shuttle" CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/engine/target}/shuttle" \
  cargo test -p psmr-schedulers shuttle

step "cargo clippy for wasm32 (psmr-wasm bindings)" "fix the lints above" \
  bash "$ROOT/scripts/build-wasm.sh" --features fault-injection --clippy
# The full engine, then one package per family (issue 30: each fails the
# build over 350 KB gzipped; the app loads the one a scenario needs, and
# e2e/tests/first-load.spec.ts checks the first lesson's).
step "engine -> wasm with fault-injection, and the per-family packages (each at most 350 KB gzipped)" "see README.md, Troubleshooting" \
  bash "$ROOT/scripts/build-wasm.sh" --features fault-injection --families

cd "$ROOT/web"
step "web typecheck (tsc -b)" "fix the type errors above" npx tsc -b
step "web eslint" "fix the lint errors above" npx eslint .
step "web prettier --check" "run: (cd web && npx prettier --write .)" npx prettier --check .
step "web unit tests (vitest)" "a vitest test failed, see above" npx vitest run
# Every lesson bookmark in every run: each lesson scenario run 5 times per
# mode (real threads, 2 threads, 16 virtual cores) by the psmr that cargo
# test built, replayed with the lesson bar's own finders.
step "lesson bookmarks over CLI runs (scripts/check-lesson-bookmarks.mjs --runs 5)" "a lesson bookmark missed in a run, see above" \
  node "$ROOT/scripts/check-lesson-bookmarks.mjs" --runs 5 --psmr "${CARGO_TARGET_DIR:-$ROOT/engine/target}/debug/psmr"
# The e2e load test plays synthetic traces on the harness page, which only a
# PSMR_HARNESS=1 build includes (the app itself never does).
step "web build (vite build, with the harness page)" "the production build failed, see above" \
  env PSMR_HARNESS=1 npx vite build

cd "$ROOT"
step "e2e (Playwright, Debian chromium)" "see e2e/test-results/ for traces and screenshots" \
  npx playwright test -c e2e

step_summary
printf '\nall checks passed in %ds\n' $((SECONDS - T0))
