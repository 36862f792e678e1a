//! A monotonic nanosecond clock that all threads of a run share.
//!
//! Natively it is `Instant` relative to a process-wide origin. In the
//! browser each worker has its own `performance.now()` origin, so the clock
//! adds `performance.timeOrigin` to make readings of different workers
//! comparable (resolution: 5 µs in a cross-origin isolated page).

#[cfg(not(target_arch = "wasm32"))]
pub fn now_ns() -> u64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    let origin = *ORIGIN.get_or_init(Instant::now);
    origin.elapsed().as_nanos() as u64
}

#[cfg(target_arch = "wasm32")]
pub fn now_ns() -> u64 {
    use wasm_bindgen::JsCast;
    thread_local! {
        static PERF: Option<(js_sys::Function, f64, wasm_bindgen::JsValue)> = {
            let global = js_sys::global();
            js_sys::Reflect::get(&global, &"performance".into()).ok().and_then(|perf| {
                let now = js_sys::Reflect::get(&perf, &"now".into()).ok()?.dyn_into::<js_sys::Function>().ok()?;
                let origin = js_sys::Reflect::get(&perf, &"timeOrigin".into()).ok()?.as_f64()?;
                Some((now, origin, perf))
            })
        };
    }
    PERF.with(|p| match p {
        Some((now, origin, perf)) => {
            let ms = now.call0(perf).ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
            // Subtract a fixed epoch so the product stays well inside f64's
            // exact integer range at nanosecond scale.
            ((origin - 1.7e12 + ms) * 1e6) as u64
        }
        None => 0,
    })
}

/// Busy-spin for about `ns` nanoseconds (the synthetic "spin" work).
pub fn spin_for(ns: u64) -> u64 {
    let start = now_ns();
    let mut iterations = 0u64;
    while now_ns().saturating_sub(start) < ns {
        iterations = iterations.wrapping_add(1);
        std::hint::spin_loop();
    }
    iterations
}
