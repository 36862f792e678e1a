//! Synchronization facade: the real protocol code compiles against std
//! atomics normally, against loom's under `--cfg loom` and against
//! shuttle's under `--cfg shuttle`, so the model checkers explore the very
//! code the executors run (tokio's habit).
//!
//! Without loom or shuttle, `Mutex`, `MutexGuard` and `Condvar` are
//! psmr-core's virtual-aware ones: std's in a real run (plus one relaxed
//! load), synchronization points of the conductor on virtual cores
//! (docs/protocols/virtual-cores.md); `yield_now` and [`park_for_us`] are
//! points too.

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
pub use psmr_core::virt::sync::{Condvar, Mutex, MutexGuard};
#[cfg(not(any(loom, shuttle)))]
pub use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
#[cfg(not(any(loom, shuttle)))]
pub use std::sync::Arc;
/// All three mutexes report a failed `try_lock` with std's error type.
pub use std::sync::TryLockError;

/// Yield the processor (on virtual cores: a point costing a yield, after
/// which the earliest thread runs).
#[cfg(not(any(loom, shuttle)))]
#[inline]
#[track_caller]
pub fn yield_now() {
    let at = std::panic::Location::caller();
    if psmr_core::virt::with_current(|h| h.conductor.spin(h.me, h.costs().yield_now, true, at))
        .is_none()
    {
        std::thread::yield_now();
    }
}

/// One busy-wait iteration: `std::hint::spin_loop`, or on virtual cores a
/// point costing a spin (the conductor's watchdog names the caller's line
/// if nothing can end the wait).
#[inline]
#[track_caller]
pub fn spin_loop() {
    #[cfg(not(any(loom, shuttle)))]
    {
        let at = std::panic::Location::caller();
        let spun =
            psmr_core::virt::with_current(|h| h.conductor.spin(h.me, h.costs().spin, false, at));
        if spun.is_some() {
            return;
        }
    }
    std::hint::spin_loop();
}

/// On virtual cores: up to `budget` iterations of the wait loop `while
/// !done() { spin_loop() }` (or of `yield_now()` with `yielding`), whose
/// condition the caller has just found false, made by the conductor
/// without waking the caller while `done` stays false (the same schedule;
/// see `Conductor::poll`). Returns the iterations made, or `None` outside
/// a virtual run (the caller spins itself). `done` must only read atomics.
#[track_caller]
pub fn poll_spins(budget: u32, yielding: bool, done: &(dyn Fn() -> bool + Sync)) -> Option<u32> {
    #[cfg(not(any(loom, shuttle)))]
    {
        let at = std::panic::Location::caller();
        psmr_core::virt::with_current(|h| {
            let c = h.costs();
            let ns = if yielding { c.yield_now } else { c.spin };
            h.conductor.poll(h.me, ns, yielding, budget, at, done)
        })
    }
    #[cfg(any(loom, shuttle))]
    {
        let _ = (budget, yielding, done);
        None
    }
}

/// On virtual cores: the caller is about to lock `n` mutexes in turn;
/// `attempt(i)` returns the key of the `i`-th when it is free and the
/// caller would lock it, find nothing and unlock it (a read: see
/// `Conductor::lock_scan`). The conductor makes those failing attempts
/// for the caller without waking it, with the same points and charges.
/// Returns the first attempt the caller makes itself, its lock's point
/// already made (lock it with `Mutex::lock_after_point`), or `n` when all
/// failed; `None` outside a virtual run and under loom and shuttle.
#[track_caller]
pub fn lock_scan(n: u32, attempt: &(dyn Fn(u32) -> Option<usize> + Sync)) -> Option<u32> {
    #[cfg(not(any(loom, shuttle)))]
    {
        let at = std::panic::Location::caller();
        psmr_core::virt::with_current(|h| {
            let ns = h.costs().lock_uncontended;
            h.conductor.lock_scan(h.me, ns, n, at, attempt)
        })
    }
    #[cfg(any(loom, shuttle))]
    {
        let _ = (n, attempt);
        None
    }
}

/// Sleep briefly (a yield under loom and shuttle, which have no time; a
/// sleep in virtual time on virtual cores).
#[track_caller]
pub fn park_for_us(us: u32) {
    #[cfg(any(loom, shuttle))]
    {
        let _ = us;
        yield_now();
    }
    #[cfg(not(any(loom, shuttle)))]
    {
        if psmr_core::virt::with_current(|h| h.sleep(us as u64 * 1_000)).is_some() {
            return;
        }
        if us == 0 {
            std::thread::yield_now();
        } else {
            std::thread::sleep(std::time::Duration::from_micros(us as u64));
        }
    }
}

/// An atomic read-modify-write on a shared word, for the virtual-cores cost
/// model: on virtual cores it costs `atomic_rmw` plus a line transfer when
/// another thread wrote the word last; in a real run one relaxed load;
/// nothing under loom and shuttle. Call it next to the operation itself.
#[inline(always)]
pub fn charge_rmw<T: ?Sized>(word: &T) {
    charge_write(word, true);
}

/// A store to a shared word other threads poll (a flag, a marker): on
/// virtual cores a line transfer when another thread wrote it last.
#[inline(always)]
pub fn charge_store<T: ?Sized>(word: &T) {
    charge_write(word, false);
}

#[inline(always)]
fn charge_write<T: ?Sized>(word: &T, rmw: bool) {
    #[cfg(not(any(loom, shuttle)))]
    psmr_core::virt::shared_write(word, rmw);
    #[cfg(any(loom, shuttle))]
    let _ = (word, rmw);
}

/// An item taken from a queue another thread filled: on virtual cores it
/// costs `queue_handoff`.
#[inline(always)]
pub fn charge_handoff() {
    #[cfg(not(any(loom, shuttle)))]
    psmr_core::virt::queue_handoff();
}

/// `steps` steps of a scheduler's own search (graph nodes compared, queue
/// entries walked): on virtual cores `scan_step` each.
#[inline(always)]
pub fn charge_scan(steps: u64) {
    #[cfg(not(any(loom, shuttle)))]
    psmr_core::virt::scan(steps);
    #[cfg(any(loom, shuttle))]
    let _ = steps;
}

/// A scheduler's own work at one place of its protocol: on virtual cores
/// the table entry `cost` reads (`route`, `event_pop`, `event_register`,
/// `graph_take`, `graph_remove`), local work; nothing in a real run (one
/// relaxed load) nor under loom and shuttle. Call it where the work is
/// done (inside the critical section when the work is).
#[inline(always)]
pub fn charge_own(cost: fn(&psmr_core::virt::CostTable) -> u64) {
    #[cfg(not(any(loom, shuttle)))]
    psmr_core::virt::own_work(cost);
    #[cfg(any(loom, shuttle))]
    let _ = cost;
}
