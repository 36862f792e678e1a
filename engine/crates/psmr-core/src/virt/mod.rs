//! Virtual cores: the real threads of a run, one at a time, in virtual
//! time, under a [`Conductor`] (issue 25; rules and the determinism
//! argument in docs/protocols/virtual-cores.md).
//!
//! A thread of a virtual run knows its conductor through a thread-local
//! set by [`attach`] (the thread host does it for every thread of a
//! team). Code that may run in either mode asks [`current`]: in a real run
//! that is one relaxed load of a process-wide count of live conductors
//! (zero, so `None` at once), and only while some virtual run exists in the
//! process a thread-local read.

pub mod conductor;
mod cores;
pub mod cost;
mod gate;
pub mod schedule;
pub mod sync;

use std::cell::RefCell;
use std::panic::Location;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

pub use conductor::{Conductor, ConductorStats, StallHook, LINES_PER_BLOCK, LONE_SPIN_LIMIT};
pub use cost::{CostSource, CostTable, Costs};
pub use schedule::{ReplayToken, Schedule};

/// Live conductors in the process. `Relaxed` is enough: a thread of a
/// virtual run is attached after its conductor was made (the spawn orders
/// the increment before it), and a thread of a real run reads 0 or, while
/// an unrelated virtual run lives, finds no conductor in its thread-local.
static ACTIVE: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static CURRENT: RefCell<Option<(Arc<Conductor>, usize)>> = const { RefCell::new(None) };
}

/// Thread `me` of `conductor`, as seen from the thread itself.
#[derive(Clone, Copy, Debug)]
pub struct Here<'c> {
    pub conductor: &'c Conductor,
    pub me: usize,
}

impl Here<'_> {
    pub fn costs(&self) -> &CostTable {
        self.conductor.costs()
    }
    pub fn now(&self) -> u64 {
        self.conductor.now(self.me)
    }
    #[track_caller]
    pub fn point(&self, ns: u64) {
        self.conductor.point(self.me, ns, Location::caller());
    }
    /// A point that is work others may wait for (see [`Conductor::work`]).
    #[track_caller]
    pub fn work(&self, ns: u64) {
        self.conductor.work(self.me, ns, Location::caller());
    }
    /// One iteration of a wait loop's spin phase (see [`Conductor::spin`]).
    #[track_caller]
    pub fn spin(&self, ns: u64) {
        self.conductor.spin(self.me, ns, false, Location::caller());
    }
    /// Up to `budget` iterations of `while !cond() { spin(ns) }` (see
    /// [`Conductor::poll`]); returns how many were made.
    #[track_caller]
    pub fn poll(&self, ns: u64, budget: u32, cond: &(dyn Fn() -> bool + Sync)) -> u32 {
        self.conductor
            .poll(self.me, ns, false, budget, Location::caller(), cond)
    }
    pub fn advance(&self, ns: u64) {
        self.conductor.advance(self.me, ns);
    }
    #[track_caller]
    pub fn sleep(&self, ns: u64) {
        self.conductor.sleep(self.me, ns, Location::caller());
    }
    #[track_caller]
    pub fn block(&self, key: usize, deadline: Option<u64>) -> bool {
        self.conductor
            .block(self.me, key, deadline, Location::caller())
    }
    pub fn wake(&self, key: usize, all: bool) -> usize {
        self.conductor.wake(self.me, key, all)
    }
}

/// Whether any virtual run lives in the process (one relaxed load).
#[inline(always)]
pub fn any_active() -> bool {
    ACTIVE.load(Ordering::Relaxed) != 0
}

/// Run `f` with the calling thread's conductor, if it belongs to a virtual
/// run; `None` (after one relaxed load, in a real run) otherwise.
#[inline(always)]
pub fn with_current<R>(f: impl FnOnce(Here<'_>) -> R) -> Option<R> {
    if !any_active() {
        return None;
    }
    with_current_slow(f)
}

#[inline(never)]
fn with_current_slow<R>(f: impl FnOnce(Here<'_>) -> R) -> Option<R> {
    CURRENT.with(|c| {
        let c = c.borrow();
        let (conductor, me) = c.as_ref()?;
        Some(f(Here { conductor, me: *me }))
    })
}

/// Whether the calling thread belongs to a virtual run.
#[inline(always)]
pub fn is_virtual() -> bool {
    with_current(|_| ()).is_some()
}

/// The calling thread's virtual clock, if it belongs to a virtual run.
/// The reading costs the table's `clock_read` (local work, after the
/// reading: a real `Instant::now` returns a time taken during its call).
#[inline(always)]
pub fn now() -> Option<u64> {
    with_current(|h| {
        let t = h.now();
        let read = h.costs().clock_read;
        if read > 0 {
            h.advance(read);
        }
        t
    })
}

/// A synchronization point of the given kind's cost (no-op in a real run).
#[inline(always)]
#[track_caller]
pub fn point(cost: impl FnOnce(&CostTable) -> u64) {
    let at = Location::caller();
    with_current(|h| {
        let ns = cost(h.costs());
        h.conductor.point(h.me, ns, at);
    });
}

/// A write to the shared word at `word` (a cycle's mark, a color's owner,
/// a flag others poll): a line transfer when another thread wrote the
/// word last, plus `atomic_rmw` when it is a read-modify-write (`rmw`).
/// Local work (no point): the next point makes it visible. No-op in a
/// real run (one relaxed load).
#[inline(always)]
pub fn shared_write<T: ?Sized>(word: &T, rmw: bool) {
    with_current(|h| {
        let extra = if rmw { h.costs().atomic_rmw } else { 0 };
        h.conductor.write_word(h.me, addr_of(word), extra)
    });
}

/// An item handed to another thread through a queue (its pop): costs
/// `queue_handoff` (the item's lines and the queue's indices moving to
/// the consumer). Local work, like [`shared_write`].
#[inline(always)]
pub fn queue_handoff() {
    with_current(|h| h.advance(h.costs().queue_handoff));
}

/// `steps` steps of a scheduler's own search (graph nodes compared, queue
/// entries walked): `scan_step` each. Local work, like [`shared_write`].
#[inline(always)]
pub fn scan(steps: u64) {
    with_current(|h| h.advance(steps.saturating_mul(h.costs().scan_step)));
}

/// A scheduler's own work at one place of its protocol (a route, a pop, a
/// take: the `route`, `event_pop`, `event_register`, `graph_take` and
/// `graph_remove` entries), costing what `cost` reads from the table. Local
/// work, like [`shared_write`]: made inside a critical section, it holds
/// the lock that much longer. Nothing when the entry is 0 (the reference
/// table: no trace moves). No-op in a real run (one relaxed load).
#[inline(always)]
pub fn own_work(cost: impl FnOnce(&CostTable) -> u64) {
    with_current(|h| {
        let ns = cost(h.costs());
        if ns > 0 {
            h.advance(ns);
        }
    });
}

/// The address of `x`, as a key of the cache model (never to order).
pub(crate) fn addr_of<T: ?Sized>(x: &T) -> usize {
    x as *const T as *const u8 as usize
}

/// The calling thread is attached to a conductor until this is dropped.
#[must_use = "the thread leaves the virtual run when this is dropped"]
pub struct Attached {
    conductor: Arc<Conductor>,
    me: usize,
}

/// Make the calling thread thread `me` of `conductor` and wait for its
/// first turn. Dropping the result ends the thread's part in the run (or,
/// while panicking, fails the run so no other thread waits forever).
#[track_caller]
pub fn attach(conductor: Arc<Conductor>, me: usize) -> Attached {
    CURRENT.with(|c| *c.borrow_mut() = Some((Arc::clone(&conductor), me)));
    conductor.enter(me);
    Attached { conductor, me }
}

impl Drop for Attached {
    fn drop(&mut self) {
        CURRENT.with(|c| *c.borrow_mut() = None);
        if std::thread::panicking() {
            self.conductor.abort(self.me);
        } else {
            self.conductor.exit(self.me);
        }
    }
}

#[cfg(test)]
mod tests;
