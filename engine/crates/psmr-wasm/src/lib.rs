//! # psmr-wasm
//!
//! The engine as seen from a browser worker. The web app loads the module in
//! a dedicated module worker, calls `init()` and then `initThreadPool(n)`
//! (wasm-bindgen-rayon), after which the exported functions drive scenario
//! runs on that pool (see `web/src/engine/engine.worker.ts`).
//!
//! Everything that crosses the boundary is a JSON string (or bytes for
//! traces, and the ids of kept reports for Check), so the bindings stay thin: the logic lives in [`session`], which
//! is compiled and tested natively too; only `bindings` is wasm-only.

#[cfg(target_arch = "wasm32")]
pub mod bindings;
mod check;
pub mod session;
#[cfg(test)]
mod testdata;

pub use session::{Engine, Outcome, Poll, StartError, WebRunOptions};

/// Version of this engine build, shown in the web app's header.
pub fn engine_version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// Cargo features this build was compiled with (the app shows them, and the
/// e2e tests check that the fault-injection build is the one under test).
pub fn enabled_features() -> Vec<&'static str> {
    // Capabilities the web app checks before offering them, and the
    // Cargo features of this build.
    let mut f = vec!["thread-pace"];
    if cfg!(feature = "fault-injection") {
        f.push("fault-injection");
    }
    f
}

/// The browser limits as JSON (`max_threads`, `max_requests`,
/// `max_trace_events`): the worker sizes its pool from `max_threads`.
pub fn limits_json(l: &psmr_scenario::Limits) -> String {
    serde_json::json!({
        "max_threads": l.max_threads,
        "max_requests": l.max_requests,
        "max_trace_events": l.max_trace_events,
        "max_roles": l.max_roles,
    })
    .to_string()
}
