//! wasm bindings (filled in by the skeleton work).
