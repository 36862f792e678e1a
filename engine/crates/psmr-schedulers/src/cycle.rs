//! Per-class arrival cycle marks (paper 000 Algorithms 3-4, reused by
//! Algorithm 8's `sync`): how the threads of a sequential class meet on one
//! request without blocking. Shared by busy-wait ([`crate::busy_wait`]) and
//! the moderate, aggressive and optimistic work-stealing variants
//! ([`crate::work_stealing`]); what a waiter does while it waits (spin with
//! backoff, or steal) is theirs. Protocol note:
//! `docs/protocols/busy-wait-cycles.md`.
//!
//! Each class `c` has two atomic counters, the marks `mark[c][0]` and
//! `mark[c][1]`, one per cycle. Each worker keeps, per class, the cycle it
//! used last ([`CycleMarks::cursor`]) and flips it on every request of the
//! class (Alg. 4 lines 7-8). On a request it increments the cycle's mark
//! (line 9); the thread whose increment completes the count of the class's
//! threads executes the request (line 10) and resets the mark to 0
//! (line 11). The others wait until they see 0 (line 13).
//!
//! Invariant (why two cycles suffice): before any thread can use cycle `k`
//! of class `c` again (two requests of `c` later), every thread of `c` must
//! have arrived at the request in between, on the other cycle; a thread
//! arrives there only after it left the wait of the earlier request. So a
//! mark is never incremented for request `i + 2` while some thread still
//! waits for it to drop to 0 for request `i`, and a mark reads 0 only
//! between a reset and the first arrival of the next use.

use crossbeam_utils::CachePadded;
use psmr_core::{ClassId, EventKind, RequestId, ThreadRef};

use crate::plan::Plan;
use crate::probe::Probe;
use crate::sync::{AtomicU32, Ordering};

/// Algorithm 3's shared variables: two marks per class (only sequential
/// classes use theirs), each on its own cache line so that threads of
/// different classes arriving and spinning at once do not false-share.
#[derive(Debug)]
pub struct CycleMarks {
    marks: Vec<[CachePadded<AtomicU32>; 2]>,
    /// Threads of each class: the count that makes a thread the executor.
    parties: Vec<u32>,
}

/// How a thread's arrival at a cycle ended.
#[derive(Debug)]
pub enum Arrived<'m> {
    /// It arrived last and executed the request; the cycle is released.
    Executed,
    /// Others have yet to arrive: wait until [`Pending::released`].
    Waiting(Pending<'m>),
}

/// A cycle this thread arrived at and the executor has not released yet
/// (as far as it knows).
#[derive(Debug)]
pub struct Pending<'m> {
    mark: &'m AtomicU32,
    pub cycle: u8,
}

impl Pending<'_> {
    /// Alg. 4 line 13's test: has the executor reset the mark?
    pub fn released(&self) -> bool {
        // Acquire: pairs with the executor's Release reset in
        // `CycleMarks::arrive`, so the executed request happens-before
        // whatever this thread does next. The mark cannot read 0 before
        // the reset: this thread's own increment precedes the load in the
        // mark's modification order, and only the reset brings it to 0
        // (the module invariant: nobody increments it again before every
        // waiter has left).
        self.mark.load(Ordering::Acquire) == 0
    }
}

impl CycleMarks {
    pub fn new(plan: &Plan) -> Self {
        CycleMarks {
            marks: plan
                .classes()
                .iter()
                .map(|_| {
                    [
                        CachePadded::new(AtomicU32::new(0)),
                        CachePadded::new(AtomicU32::new(0)),
                    ]
                })
                .collect(),
            parties: plan.classes().iter().map(|cp| cp.parties()).collect(),
        }
    }

    /// Every mark is 0: no cycle is in use (true between runs, once each
    /// executor has released its cycle).
    #[cfg(all(test, not(loom), not(shuttle)))]
    pub(crate) fn at_rest(&self) -> bool {
        // Relaxed: called after the threads that used the marks joined.
        self.marks
            .iter()
            .flatten()
            .all(|m| m.load(Ordering::Relaxed) == 0)
    }

    /// Alg. 4 line 2 (Alg. 8 line 4): a worker's cycle per class, all 0.
    pub fn cursor(&self) -> Vec<u8> {
        vec![0; self.parties.len()]
    }

    /// Alg. 4 lines 7-11 (Alg. 8 lines 24-29) for worker `me` on request
    /// `req` of class `class`: flip `cursor[class]` to this request's
    /// cycle, record `SyncArrive{cycle}`, arrive; the last arriver
    /// executes, records `SyncRelease{cycle, executor: me}` and releases
    /// the cycle. Everyone else gets the cycle to wait on.
    pub fn arrive<P: Probe>(
        &self,
        cursor: &mut [u8],
        me: ThreadRef,
        req: RequestId,
        class: ClassId,
        probe: &mut P,
    ) -> Arrived<'_> {
        let c = class as usize;
        // Lines 7-8: flip to this request's cycle.
        cursor[c] = 1 - cursor[c];
        let cycle = cursor[c];
        let mark = &self.marks[c][cycle as usize];
        probe.record(EventKind::SyncArrive { class, req, cycle });
        // Line 9. AcqRel: the Release half publishes everything this thread
        // did before arriving (its earlier executions) to the executor; the
        // Acquire half lets the last arriver, the executor, see all of them,
        // because each earlier increment heads a release sequence that the
        // later read-modify-writes on the same mark continue.
        crate::sync::charge_rmw(mark);
        if mark.fetch_add(1, Ordering::AcqRel) + 1 != self.parties[c] {
            return Arrived::Waiting(Pending { mark, cycle });
        }
        // Line 10: every thread of the class is here; run it.
        probe.execute(req, class);
        probe.record(EventKind::SyncRelease {
            class,
            req,
            executor: me,
            cycle,
        });
        // Line 11. Release: a waiter that reads this 0 with Acquire
        // (`Pending::released`) sees the execution's effects before it runs
        // anything else. No other thread writes this mark until every
        // waiter has read the 0 (the module invariant).
        crate::sync::charge_store(mark);
        mark.store(0, Ordering::Release);
        Arrived::Executed
    }
}
