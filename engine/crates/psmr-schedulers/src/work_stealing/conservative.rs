//! Conservative work stealing (000 section 4.2, Algorithms 5-7): a thread
//! steals only when its own ready queue is empty; sequential requests
//! synchronize with two blocking barriers, the smallest thread of the class
//! executing between them.
//!
//! One change from Algorithm 7 as printed: there only the executor (the
//! smallest id) waits for its markers (line 16). That is not enough when
//! the stolen requests came from another thread of the class: that thread
//! would pass the barrier while its stealer still runs a conflicting
//! request. Like Algorithm 8 (lines 22-23), every thread of the class waits
//! for its own markers first (done by the caller, `Worker::sequential`).
//!
//! `Worker::sync_with_barriers` is a method this file adds to the
//! shared worker (`worker.rs` calls it, without importing this file).

use psmr_core::{EventKind, Request};

use super::worker::{Arrival, Policy, Worker};
use crate::probe::Probe;

/// The conservative variant.
pub const POLICY: Policy = Policy {
    arrival: Arrival::Barrier,
    barrier_after: true,
    steal_while_syncing: false,
    victims_from_next: false,
    optimistic: false,
    broken: false,
    skip_single_thread_markers: false,
};

impl<P: Probe> Worker<'_, '_, P> {
    /// Algorithm 7 lines 14-22: barrier, the smallest thread executes,
    /// barrier.
    pub(super) fn sync_with_barriers(&mut self, req: &Request) {
        let class = req.class;
        self.probe.record(EventKind::SyncArrive {
            class,
            req: req.id,
            cycle: 0,
        });
        self.barrier(class, req.id);
        let executor = self.shared.plan.class(class).executor();
        if self.id == usize::from(executor) {
            self.probe.execute(req.id, req.class);
            self.probe.record(EventKind::SyncRelease {
                class,
                req: req.id,
                executor,
                cycle: 0,
            });
        }
        self.barrier(class, req.id);
    }
}
