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

/// `performance.now()` as a direct, typed import: one call into JS that
/// returns a plain f64. The previous path (a `Function` fetched with
/// `Reflect` and invoked with `call0`) made three calls per reading (call,
/// `as_f64` on the boxed result, drop of the boxed value) and allocated a
/// slot in wasm-bindgen's heap table each time; every scheduler timestamp
/// paid for it (measured in docs/benchmarks/wasm.md).
#[cfg(target_arch = "wasm32")]
mod js {
    use wasm_bindgen::prelude::wasm_bindgen;

    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_namespace = performance, js_name = now)]
        pub fn performance_now() -> f64;
    }
}

#[cfg(target_arch = "wasm32")]
pub fn now_ns() -> u64 {
    thread_local! {
        // This worker's `performance.timeOrigin`, read once per thread, or
        // None where there is no `performance` (then the clock reads 0).
        static ORIGIN_MS: Option<f64> = {
            let global = js_sys::global();
            js_sys::Reflect::get(&global, &"performance".into())
                .ok()
                .filter(|perf| perf.is_object())
                .and_then(|perf| js_sys::Reflect::get(&perf, &"timeOrigin".into()).ok()?.as_f64())
        };
    }
    ORIGIN_MS.with(|origin| match origin {
        Some(origin) => {
            let ms = js::performance_now();
            // Subtract a fixed epoch so the product stays well inside f64's
            // exact integer range at nanosecond scale.
            ((origin - 1.7e12 + ms) * 1e6) as u64
        }
        None => 0,
    })
}

/// Busy-spin for about `ns` nanoseconds (the synthetic "spin" work). On
/// virtual cores it returns at once: `RunContext::execute` charged the
/// spin as the request's modelled cost (see `Application::work`).
pub fn spin_for(ns: u64) -> u64 {
    if crate::virt::is_virtual() {
        return 0;
    }
    let start = now_ns();
    let mut iterations = 0u64;
    while now_ns().saturating_sub(start) < ns {
        iterations = iterations.wrapping_add(1);
        std::hint::spin_loop();
    }
    iterations
}
