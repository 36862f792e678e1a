//! Synchronization facade: the real protocol code compiles against std
//! atomics normally and against loom's under `--cfg loom`, so the model
//! checker explores the very code the executors run (tokio's habit).

#[cfg(loom)]
pub use loom::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
#[cfg(loom)]
pub use loom::sync::{Arc, Condvar, Mutex};
#[cfg(loom)]
pub use loom::thread::yield_now;

#[cfg(not(loom))]
pub use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
#[cfg(not(loom))]
pub use std::sync::{Arc, Condvar, Mutex};
#[cfg(not(loom))]
pub use std::thread::yield_now;

/// Sleep briefly (a no-op yield under loom, which has no time).
pub fn park_for_us(us: u32) {
    #[cfg(loom)]
    {
        let _ = us;
        loom::thread::yield_now();
    }
    #[cfg(not(loom))]
    {
        if us == 0 {
            std::thread::yield_now();
        } else {
            std::thread::sleep(std::time::Duration::from_micros(us as u64));
        }
    }
}
