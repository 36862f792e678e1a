#!/usr/bin/env bash
# Builds the native binary and the wasm variants of this folder's crate (docs/benchmarks/wasm.md, "Issue 30 part 3, second pass").
set -euo pipefail
cd "$(dirname "$0")"
T=${CARGO_TARGET_DIR:?set CARGO_TARGET_DIR}
OUT=${OUT:-$T/mb-out}
mkdir -p "$OUT"
TC=+nightly-2026-05-20
cargo $TC build --release --bin native
cp "$T/release/native" "$OUT/native"
# wasm: the toolchain's default wasm32 features, opt-level 3 (plain)
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="" \
  cargo $TC build --release --lib --target wasm32-unknown-unknown
cp "$T/wasm32-unknown-unknown/release/wsingle_mb.wasm" "$OUT/plain.wasm"
# wasm: + the features of (d), simd128 among them
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+bulk-memory,+sign-ext,+nontrapping-fptoint,+simd128" \
  cargo $TC build --release --lib --target wasm32-unknown-unknown
cp "$T/wasm32-unknown-unknown/release/wsingle_mb.wasm" "$OUT/feat.wasm"
# wasm: opt-level s for the whole crate graph (the walk is inlined into this crate by LTO anyway)
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="" CARGO_PROFILE_RELEASE_OPT_LEVEL=s \
  cargo $TC build --release --lib --target wasm32-unknown-unknown
cp "$T/wasm32-unknown-unknown/release/wsingle_mb.wasm" "$OUT/os.wasm"
# the engine's post-pass: wasm-opt -O2
wasm-opt -O2 "$OUT/plain.wasm" -o "$OUT/plain.O2.wasm"
ls -l "$OUT"
