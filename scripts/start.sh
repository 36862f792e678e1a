#!/usr/bin/env bash
# `npm start`: install what is missing, build the engine to wasm, serve the
# lab (cross-origin isolated) on http://127.0.0.1:${PORT:-5173}/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PORT="${PORT:-5173}"

step "rust toolchain (engine/rust-toolchain.toml)" "needs network access to the Rust dist server" install_toolchain
step "wasm-bindgen-cli $WASM_BINDGEN_VERSION" "cargo install needs crates.io" install_wasm_bindgen
step "node modules (npm ci)" "needs the npm registry" install_node_modules
step "binaryen (Debian, wasm-opt)" "apt-get install -y binaryen needs root and the Debian mirror" install_binaryen
# With the broken variants (fault-injection), as scripts/test.sh builds it:
# one build for the app and the e2e tests, and the classroom's break-it mode
# needs them (about 16 KB raw, 5 KB gzipped more; docs/benchmarks/break-it.md).
# --families: one package per scheduler family too (issue 30), so the app
# downloads only the family a lesson needs (each at most 350 KB gzipped,
# the full engine 480 KB); six more release builds, see
# docs/benchmarks/frontend.md ("Tenth pass: the app loads ...").
step "engine -> wasm with fault-injection, and one package per family (scripts/build-wasm.sh --families)" "see README.md, Troubleshooting" \
  bash "$ROOT/scripts/build-wasm.sh" --features fault-injection --families

printf '\n\033[1mP-SMR Lab: http://127.0.0.1:%s/\033[0m  (default scenario: scenarios/quickstart.json; Ctrl-C stops)\n\n' "$PORT"
cd "$ROOT/web"
exec npx vite --host 127.0.0.1 --port "$PORT" --strictPort
