//! Moderate work stealing (000 section 4.2): the first barrier of the
//! conservative variant becomes a non-blocking arrival counter, so threads
//! that arrive early at a sequential request steal while they wait; the
//! last to arrive executes. A barrier after the execution remains.
//!
//! While synchronizing on class `c`, a thread only steals from a victim
//! whose ready queue holds no class conflicting with `c` (the validation's
//! NoConflict clause, `Shared::valid`).
//!
//! `Worker::sync_in_cycle`, a method this file adds to the shared worker
//! (`worker.rs` calls it without importing this file), is shared with the
//! aggressive and optimistic variants, which run it without the trailing
//! barrier (`Policy::barrier_after`). The cycle marks themselves are
//! [`crate::cycle`]'s, shared with busy-wait.

use psmr_core::trace::Counter;
use psmr_core::{Request, ThreadRef, WaitReason, NO_REQUEST};

use super::worker::{Arrival, Policy, Worker};
use crate::cycle::{Arrived, Pending};
use crate::probe::Probe;
use crate::spin::{Backoff, WaitKind};

/// The moderate variant.
pub const POLICY: Policy = Policy {
    arrival: Arrival::Cycle,
    barrier_after: true,
    steal_while_syncing: true,
    victims_from_next: false,
    optimistic: false,
    broken: false,
    skip_single_thread_markers: false,
};

impl<P: Probe> Worker<'_, '_, P> {
    /// Algorithm 8 lines 24-31 (plus, for moderate, the barrier after):
    /// arrive at the class's next cycle ([`crate::cycle`]), and either
    /// execute (last to arrive) or wait for the executor's release,
    /// stealing meanwhile.
    pub(super) fn sync_in_cycle(&mut self, req: &Request) {
        let (class, me) = (req.class, self.id as ThreadRef);
        // A copy of the shared reference: the pending cycle borrows the
        // shared state, not this worker, which goes on stealing.
        let shared = self.shared;
        if let Arrived::Waiting(pending) =
            shared
                .marks
                .arrive(&mut self.cycles, me, req.id, class, &mut self.probe)
        {
            self.wait_for_release(req, &pending);
        }
        if self.policy.barrier_after {
            self.barrier(class, req.id);
        }
    }

    /// Wait until the executor releases the cycle. The wait is traced in
    /// segments: a successful steal ends the current segment, runs the
    /// stolen requests, and a new segment starts.
    fn wait_for_release(&mut self, req: &Request, pending: &Pending<'_>) {
        let class = req.class;
        self.probe.count(Counter::CycleWaits, 1);
        loop {
            let start = self.probe.wait_begin(WaitReason::Cycle, req.id, NO_REQUEST);
            let mut b = Backoff::new(self.spin.of(WaitKind::Cycle));
            let mut victim = None;
            while !pending.released() {
                if self.policy.steal_while_syncing {
                    victim = self.try_steal(Some(class));
                    if victim.is_some() {
                        break;
                    }
                }
                b.snooze();
            }
            self.probe
                .wait_done(WaitReason::Cycle, req.id, start, b.spins);
            self.account(&b);
            match victim {
                Some(v) => self.run_stolen(v),
                None => return,
            }
        }
    }
}
