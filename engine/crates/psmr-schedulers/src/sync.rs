//! Synchronization facade: the real protocol code compiles against std
//! atomics normally, against loom's under `--cfg loom` and against
//! shuttle's under `--cfg shuttle`, so the model checkers explore the very
//! code the executors run (tokio's habit).

#[cfg(loom)]
pub use loom::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
#[cfg(loom)]
pub use loom::sync::{Arc, Condvar, Mutex, MutexGuard};
#[cfg(loom)]
pub use loom::thread::yield_now;

#[cfg(all(shuttle, not(loom)))]
pub use shuttle::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
#[cfg(all(shuttle, not(loom)))]
pub use shuttle::sync::{Arc, Condvar, Mutex, MutexGuard};
#[cfg(all(shuttle, not(loom)))]
pub use shuttle::thread::yield_now;

#[cfg(not(any(loom, shuttle)))]
pub use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
/// All three mutexes report a failed `try_lock` with std's error type.
pub use std::sync::TryLockError;
#[cfg(not(any(loom, shuttle)))]
pub use std::sync::{Arc, Condvar, Mutex, MutexGuard};
#[cfg(not(any(loom, shuttle)))]
pub use std::thread::yield_now;

/// Sleep briefly (a yield under loom and shuttle, which have no time).
pub fn park_for_us(us: u32) {
    #[cfg(any(loom, shuttle))]
    {
        let _ = us;
        yield_now();
    }
    #[cfg(not(any(loom, shuttle)))]
    {
        if us == 0 {
            std::thread::yield_now();
        } else {
            std::thread::sleep(std::time::Duration::from_micros(us as u64));
        }
    }
}
