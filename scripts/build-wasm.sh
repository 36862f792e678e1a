#!/usr/bin/env bash
# Build the engine to multithreaded WebAssembly and generate its JS bindings
# into web/src/engine-pkg/ (gitignored).
#
#   scripts/build-wasm.sh [--features fault-injection] [--dev] [--clippy] [--families]
#
# --families also builds one package per scheduler family after the full
# one (issue 30: the app downloads the smallest package that covers a
# scenario), into web/src/engine-pkg/families/<family>/, each with only that
# family (and sequential) compiled in, the same flags and features; it fails
# if one is over 350 KB gzipped (gzip -9).
#
# --clippy lints psmr-wasm for wasm32 (the wasm-only bindings) with
# -D warnings instead of building.
#
# Needs the pinned nightly (engine/rust-toolchain.toml, with rust-src) and
# wasm-bindgen-cli at the same version as the wasm-bindgen crate; run
# scripts/start.sh or scripts/test.sh once on a fresh machine (they install both).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/web/src/engine-pkg"
FEATURES=""
PROFILE="release"
CLIPPY=0
FAMILIES=0
while [ $# -gt 0 ]; do
  case "$1" in
    --features) FEATURES="$2"; shift 2 ;;
    --dev) PROFILE="dev"; shift ;;
    --clippy) CLIPPY=1; shift ;;
    --families) FAMILIES=1; shift ;;
    *) echo "build-wasm: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

# A separate target dir: the wasm flags and build-std would otherwise
# invalidate the native build artifacts on every switch.
export CARGO_TARGET_DIR="${PSMR_WASM_TARGET_DIR:-$ROOT/engine/target/wasm}"

# Shared-memory wasm. All of these are needed; without any one of them cargo
# and wasm-bindgen still succeed and the browser fails later (see README,
# Troubleshooting). Applied to the wasm target only, never to host builds.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="\
-C target-feature=+atomics,+bulk-memory,+mutable-globals \
-C link-arg=--shared-memory \
-C link-arg=--max-memory=1073741824 \
-C link-arg=--import-memory \
-C link-arg=--export=__wasm_init_tls \
-C link-arg=--export=__tls_size \
-C link-arg=--export=__tls_align \
-C link-arg=--export=__tls_base"

if [ "$CLIPPY" = "1" ]; then
  clippy_args=(clippy -p psmr-wasm --no-deps --target wasm32-unknown-unknown -Z build-std=panic_abort,std --release)
  if [ -n "$FEATURES" ]; then clippy_args+=(--features "$FEATURES"); fi
  echo "build-wasm: cargo ${clippy_args[*]} -- -D warnings"
  cd "$ROOT/engine" && exec cargo "${clippy_args[@]}" -- -D warnings
fi

# The release wasm is what a browser downloads first: link-time
# optimization over one codegen unit and no debug info make it ~20% smaller
# (gzipped) and no slower. Set for this build only (its own target dir).
if [ "$PROFILE" = "release" ]; then
  export CARGO_PROFILE_RELEASE_LTO=fat CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_DEBUG=0
  # The JSON glue (serde's generic deserializers, monomorphized for the
  # scenario types in psmr-scenario) is a large part of the code and runs
  # once per file: optimize it for size. The execution path (psmr-core,
  # psmr-schedulers, psmr-mapping, psmr-partition) and psmr-wasm, whose level
  # is the one fat LTO runs at, stay at opt-level 3.
  SIZE_PACKAGES=(serde serde_json psmr-scenario)
  # The standard library rebuilt (build-std) with its small implementations
  # (core's sorts above all: 15% of the engine's code was sort
  # instantiations): 13% less gzipped, the virtual-core trace digests
  # unchanged, no slow-down seen (docs/benchmarks/frontend.md, fifth pass).
  STD_FEATURES=(-Z build-std-features=optimize_for_size)
fi

# The family packages, as the engine's catalog lists them
# (web/src/engine/catalog.json, `families[].package`, kept equal to
# `psmr schema --catalog` by psmr-cli's tests): each is a family's name and
# the cargo feature of psmr-wasm that compiles it in (issue 30). Read with
# node (every machine that builds the web app has it) when --families asks.
CATALOG="$ROOT/web/src/engine/catalog.json"
# A family package's limit, gzipped (issue 30: 350 KB, KB = 1000 bytes as in
# docs/benchmarks/frontend.md).
FAMILY_LIMIT=350000

DIR="release"
[ "$PROFILE" = "dev" ] && DIR="debug"

# build_package OUT_DIR FEATURE_ARGS...: build psmr-wasm with the features
# given, optimize it and generate its bindings into OUT_DIR (replaced).
# Sets GZ to the gzipped size of the package's wasm.
build_package() {
  local out="$1"
  shift
  local cargo_args=(build -p psmr-wasm --target wasm32-unknown-unknown -Z build-std=panic_abort,std)
  if [ "$PROFILE" = "release" ]; then
    cargo_args+=(--release "${STD_FEATURES[@]}")
    for pkg in "${SIZE_PACKAGES[@]}"; do
      cargo_args+=(--config "profile.release.package.$pkg.opt-level=\"z\"")
    done
  fi
  cargo_args+=("$@")

  echo "build-wasm: cargo ${cargo_args[*]}"
  (cd "$ROOT/engine" && cargo "${cargo_args[@]}")

  local wasm="$CARGO_TARGET_DIR/wasm32-unknown-unknown/$DIR/psmr_wasm.wasm"

  # wasm-opt (Debian's binaryen, installed by scripts/lib.sh) shrinks it
  # further at -O2 (speed kept), before wasm-bindgen: binaryen 108 mistypes
  # the externref table wasm-bindgen adds ("WebAssembly.Table.set():
  # Argument 1 is invalid" at start-up), and it keeps the custom sections
  # wasm-bindgen reads. Features come from the module's target_features.
  if [ "$PROFILE" = "release" ] && command -v wasm-opt >/dev/null 2>&1; then
    echo "build-wasm: wasm-opt -O2 ($(wasm-opt --version))"
    wasm-opt -O2 "$wasm" -o "$CARGO_TARGET_DIR/psmr_wasm.opt.wasm"
    wasm="$CARGO_TARGET_DIR/psmr_wasm.opt.wasm"
  elif [ "$PROFILE" = "release" ]; then
    echo "build-wasm: no wasm-opt (binaryen): the wasm is not optimized further"
  fi

  rm -rf "$out"
  mkdir -p "$out"
  wasm-bindgen --target web --out-dir "$out" --out-name psmr_wasm "$wasm"

  # wasm-bindgen-rayon's worker helper imports the package as '../../..';
  # without a package.json there, Vite cannot resolve it.
  cat > "$out/package.json" <<JSON
{
  "name": "psmr-engine-pkg",
  "private": true,
  "type": "module",
  "main": "psmr_wasm.js",
  "types": "psmr_wasm.d.ts"
}
JSON

  local raw
  raw=$(stat -c %s "$out/psmr_wasm_bg.wasm")
  GZ=$(gzip -9 -c "$out/psmr_wasm_bg.wasm" | wc -c)
  echo "build-wasm: $out/psmr_wasm_bg.wasm ${raw} bytes raw, ${GZ} bytes gzipped (cargo: $*)"
}

# The full package: every family.
full_args=()
if [ -n "$FEATURES" ]; then full_args+=(--features "$FEATURES"); fi
build_package "$OUT" "${full_args[@]}"
printf '%s\n' "${FEATURES:-default}" > "$OUT/FEATURES"

if [ "$FAMILIES" = "1" ]; then
  mapfile -t FAMILY_PACKAGES < <(node -e '
    const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const f of c.families) if (f.package !== null) console.log(f.package);
  ' "$CATALOG")
  if [ "${#FAMILY_PACKAGES[@]}" -eq 0 ]; then
    echo "build-wasm: no family packages in $CATALOG" >&2
    exit 1
  fi
  sizes=()
  over=()
  for family in "${FAMILY_PACKAGES[@]}"; do
    feature="$family"
    build_package "$OUT/families/$family" --no-default-features --features "$feature${FEATURES:+,$FEATURES}"
    printf '%s\n' "$feature${FEATURES:+,$FEATURES}" > "$OUT/families/$family/FEATURES"
    sizes+=("$family $GZ")
    if [ "$GZ" -gt "$FAMILY_LIMIT" ]; then over+=("$family ($GZ bytes)"); fi
  done
  echo "build-wasm: family packages, bytes gzipped (limit $FAMILY_LIMIT): ${sizes[*]}"
  if [ "${#over[@]}" -gt 0 ]; then
    echo "build-wasm: over the family package limit of $FAMILY_LIMIT bytes gzipped: ${over[*]}" >&2
    exit 1
  fi
fi
