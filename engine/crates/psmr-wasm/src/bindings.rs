//! The wasm-bindgen exports (wasm32 only). Each is a thin call into the
//! one global [`Engine`]; see [`crate::session`] for the protocol.

use std::sync::{Mutex, OnceLock};

use psmr_core::threads::ThreadHost;
use psmr_scenario::Limits;
use wasm_bindgen::prelude::*;

use crate::session::{Engine, StartError, DEFAULT_FILE};

pub use wasm_bindgen_rayon::init_thread_pool;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// The first panic's message. With `panic=abort` a panicking pool thread
/// traps and its run never finishes, so `poll` reports this instead of
/// leaving the page waiting forever.
static PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Route Rust panics to the console and to [`PANIC`] before the thread
/// traps, so a bug shows its message instead of only "unreachable".
#[wasm_bindgen(start)]
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let message = format!("psmr engine panic: {info}");
        console_error(&message);
        // try_lock: never block inside a panic (the panicking thread might
        // be the one holding the lock); the first message is kept.
        if let Ok(mut slot) = PANIC.try_lock() {
            slot.get_or_insert(message);
        }
    }));
}

pub(crate) fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| Engine::new(ThreadHost::global(), Limits::browser()))
}

/// Threads in the global rayon pool (call after `initThreadPool`).
#[wasm_bindgen(js_name = poolThreads)]
pub fn pool_threads() -> usize {
    rayon::current_num_threads()
}

#[wasm_bindgen]
pub fn version() -> String {
    crate::engine_version().to_string()
}

/// JSON list of the Cargo features of this build.
#[wasm_bindgen]
pub fn features() -> String {
    serde_json::to_string(&crate::enabled_features()).unwrap_or_else(|_| "[]".into())
}

/// JSON of the browser limits (`max_threads` sizes the pool).
#[wasm_bindgen(js_name = browserLimits)]
pub fn browser_limits() -> String {
    crate::limits_json(engine().limits())
}

/// JSON list of located diagnostics for `text` (empty when valid).
#[wasm_bindgen]
pub fn validate(text: &str, file: Option<String>) -> String {
    let d = engine().validate(text, file.as_deref().unwrap_or(DEFAULT_FILE));
    serde_json::to_string(&d).unwrap_or_else(|_| "[]".into())
}

/// Start a run on the pool and return at once. Throws a JSON list of
/// diagnostics for an invalid scenario, a plain message otherwise.
#[wasm_bindgen(js_name = startRun)]
pub fn start_run(text: &str, options_json: &str) -> Result<(), JsValue> {
    // rayon::spawn: the run goes to a pool thread, so this worker's event
    // loop stays free to poll.
    engine()
        .start_run(text, options_json, rayon::spawn)
        .map_err(start_error)
}

/// Diagnostics as a JSON list (the worker tells them apart from messages).
fn start_error(e: StartError) -> JsValue {
    match e {
        StartError::Invalid(d) => {
            JsValue::from_str(&serde_json::to_string(&d).unwrap_or_else(|_| "[]".into()))
        }
        other => JsValue::from_str(&other.to_string()),
    }
}

/// Start a bench sweep (threads x write share, see
/// `psmr_scenario::bench`) on the pool and return at once; errors as
/// [`start_run`]. Its outcome is `{ok: true, bench}` from `takeReport`.
#[wasm_bindgen(js_name = startBench)]
pub fn start_bench(text: &str, options_json: &str) -> Result<(), JsValue> {
    engine()
        .start_bench(text, options_json, rayon::spawn)
        .map_err(start_error)
}

/// Start an exploration (the classroom's break-it mode: one scheduler, a
/// fault, virtual cores, a budget of schedules; `ExploreOptions` as JSON)
/// on the pool and return at once; errors as [`start_run`]. Its progress is
/// `snapshot.explore` in `poll`, its outcome `{ok: true, explore}` from
/// `takeReport`; `cancel` stops it.
#[wasm_bindgen(js_name = startExplore)]
pub fn start_explore(text: &str, options_json: &str) -> Result<(), JsValue> {
    engine()
        .start_explore(text, options_json, rayon::spawn)
        .map_err(start_error)
}

/// JSON `{running, done, snapshot}` of the current run, plus `panic` (a
/// message) once a pool thread has panicked: the engine is then unusable.
#[wasm_bindgen]
pub fn poll() -> String {
    let panic = PANIC.try_lock().ok().and_then(|p| p.clone());
    let mut v = serde_json::to_value(engine().poll()).unwrap_or_default();
    if let (Some(message), Some(obj)) = (panic, v.as_object_mut()) {
        obj.insert("panic".into(), message.into());
    }
    v.to_string()
}

/// JSON `{ok: true, report}`, `{ok: true, bench}` or `{ok: false,
/// diagnostics}` of the finished run. Throws when no run has finished.
#[wasm_bindgen(js_name = takeReport)]
pub fn take_report() -> Result<String, JsValue> {
    let outcome = engine()
        .take_report()
        .ok_or_else(|| JsValue::from_str("no finished run to report"))?;
    serde_json::to_string(&outcome).map_err(|e| JsValue::from_str(&e.to_string()))
}

/// The packed trace (24 bytes per event) of run `run_index` of the last
/// report. Throws when there is no such run.
#[wasm_bindgen(js_name = takeTrace)]
pub fn take_trace(run_index: usize) -> Result<Vec<u8>, JsValue> {
    engine()
        .trace_bytes(run_index)
        .ok_or_else(|| JsValue::from_str(&format!("no run #{run_index} in the last report")))
}

/// The workload graph of the last report's stream, as JSON (the
/// repartitioning view). Throws with the reason when there is none.
#[wasm_bindgen(js_name = workloadGraph)]
pub fn workload_graph() -> Result<String, JsValue> {
    engine().workload_graph().map_err(|e| JsValue::from_str(&e))
}

/// Ask the current run to stop.
#[wasm_bindgen]
pub fn cancel() {
    engine().cancel();
}

/// Hold the current run's delivery back (`true`) or let it go on (`false`).
#[wasm_bindgen(js_name = setPaused)]
pub fn set_paused(paused: bool) {
    engine().set_paused(paused);
}
