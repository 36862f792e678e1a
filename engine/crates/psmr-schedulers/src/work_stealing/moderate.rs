//! Moderate work stealing (000 section 4.2): the first barrier of the
//! conservative variant becomes a non-blocking arrival counter, so threads
//! that arrive early at a sequential request steal while they wait; the
//! last to arrive executes. A barrier after the execution remains.
//!
//! While synchronizing on class `c`, a thread only steals from a victim
//! whose ready queue holds no class conflicting with `c` (the validation's
//! NoConflict clause, `Shared::valid`).
//!
//! [`sync_in_cycle`] is shared with the aggressive and optimistic variants,
//! which run it without the trailing barrier (`Policy::barrier_after`).

use psmr_core::trace::Counter;
use psmr_core::{EventKind, Request, WaitReason, NO_REQUEST};

use super::worker::{Arrival, Policy, Worker};
use crate::probe::Probe;
use crate::spin::Backoff;

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

/// Algorithm 8 lines 24-31 (plus, for moderate, the barrier after):
/// switch to the class's next cycle, arrive, and either execute (last to
/// arrive) or wait for the executor's release, stealing meanwhile.
pub fn sync_in_cycle<P: Probe>(w: &mut Worker<'_, '_, P>, req: &Request) {
    let class = req.class;
    let cycle = 1 - w.cycles[class as usize];
    w.cycles[class as usize] = cycle;
    let cycle = cycle as usize;
    w.probe.record(EventKind::SyncArrive {
        class,
        req: req.id,
        cycle: cycle as u8,
    });
    let parties = w.shared.plan.class(class).threads.len() as u32;
    if w.shared.cycle_arrive(class, cycle) == parties {
        w.probe.execute(req.id, req.class);
        w.probe.record(EventKind::SyncRelease {
            class,
            req: req.id,
            executor: w.id as u16,
            cycle: cycle as u8,
        });
        w.shared.cycle_release(class, cycle);
    } else {
        wait_for_release(w, req, cycle);
    }
    if w.policy.barrier_after {
        w.barrier(class, req.id);
    }
}

/// Wait until the executor releases the cycle. The wait is traced in
/// segments: a successful steal ends the current segment, runs the stolen
/// requests, and a new segment starts.
fn wait_for_release<P: Probe>(w: &mut Worker<'_, '_, P>, req: &Request, cycle: usize) {
    let class = req.class;
    w.probe.count(Counter::CycleWaits, 1);
    loop {
        let start = w.probe.wait_begin(WaitReason::Cycle, req.id, NO_REQUEST);
        let mut b = Backoff::new(w.spin.cycle);
        let mut victim = None;
        while !w.shared.cycle_released(class, cycle) {
            if w.policy.steal_while_syncing {
                victim = w.try_steal(Some(class));
                if victim.is_some() {
                    break;
                }
            }
            b.snooze();
        }
        w.probe.wait_done(WaitReason::Cycle, req.id, start, b.spins);
        w.account(&b);
        match victim {
            Some(v) => w.run_stolen(v),
            None => return,
        }
    }
}
