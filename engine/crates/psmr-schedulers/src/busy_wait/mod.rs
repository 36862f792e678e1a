//! Early scheduling with busy-wait cycles instead of barriers (paper 000
//! section 4.1, Algorithms 3-4; protocol note:
//! `docs/protocols/busy-wait-cycles.md`).
//!
//! The scheduler, the queues and the worker loop are those of
//! [`crate::early`]; only the synchronization of a sequential request
//! changes: the threads of a sequential class meet at the class's cycle
//! marks ([`crate::cycle`], Alg. 3-4 lines 7-11), and a thread that is not
//! the last to arrive spins until the executor releases the cycle (line
//! 13).
//!
//! Unlike Alg. 2, the executor is whichever thread arrives *last*, not the
//! smallest id: nobody waits for a thread that is already there.
//!
//! Spinning goes through [`Backoff`] (spin, then yield, then park), so an
//! oversubscribed machine (more threads than cores) still makes progress.

use psmr_core::exec::{RunContext, RunOutput};
use psmr_core::trace::Counter;
use psmr_core::{Family, Needs, NO_REQUEST};
use psmr_core::{RunError, Scheduler, SchedulerId, ThreadRef, WaitReason};

use crate::cycle::{Arrived, CycleMarks, Pending};
use crate::early::params::{EarlyParams, SPIN_FIELDS};
use crate::early::{FamilyConfig, Job, SeqSync};
use crate::plan::{routed_needs, Plan};
use crate::probe::Probe;
use crate::registry::{boxed_or_broken, Fault, Registration};
use crate::spin::{Backoff, SpinPolicies, WaitKind};
use crate::BuildEnv;

/// Sequential requests synchronized by the classes' cycle marks, waiters
/// spinning with `spin`'s backoff.
#[derive(Debug)]
pub struct CycleSync {
    marks: CycleMarks,
    spin: SpinPolicies,
    /// The broken variant: waiters leave before the release.
    #[cfg(any(test, feature = "fault-injection"))]
    early_release: bool,
}

impl CycleSync {
    pub fn new(plan: &Plan, spin: impl Into<SpinPolicies>) -> Self {
        CycleSync {
            marks: CycleMarks::new(plan),
            spin: spin.into(),
            #[cfg(any(test, feature = "fault-injection"))]
            early_release: false,
        }
    }
}

impl SeqSync for CycleSync {
    /// Alg. 4 line 2: the cycle each class used last on this worker.
    type Local = Vec<u8>;

    fn local(&self) -> Vec<u8> {
        self.marks.cursor()
    }

    /// Alg. 4 lines 7-13. Trace: `SyncArrive{cycle}`; the executor records
    /// `SyncRelease{cycle, executor}` before resetting the mark; a waiter
    /// records one `Cycle` wait with its spin count.
    fn sequential<P: Probe>(&self, cycles: &mut Vec<u8>, me: ThreadRef, job: Job, probe: &mut P) {
        if let Arrived::Waiting(pending) = self.marks.arrive(cycles, me, job.req, job.class, probe)
        {
            #[cfg(any(test, feature = "fault-injection"))]
            if self.early_release {
                return;
            }
            self.wait_for_release(&pending, job, probe);
        }
    }
}

impl CycleSync {
    /// Line 13: spin (with backoff) until the executor resets the mark.
    fn wait_for_release<P: Probe>(&self, pending: &Pending<'_>, job: Job, probe: &mut P) {
        if pending.released() {
            return;
        }
        let since = probe.wait_begin(WaitReason::Cycle, job.req, NO_REQUEST);
        let mut backoff = Backoff::new(self.spin.of(WaitKind::Cycle));
        backoff.wait_until(|| pending.released());
        probe.wait_done(WaitReason::Cycle, job.req, since, backoff.spins);
        probe.count(Counter::CycleWaits, 1);
        probe.count(Counter::Spins, u64::from(backoff.spins));
        probe.count(Counter::Yields, u64::from(backoff.yields));
        probe.count(Counter::Parks, u64::from(backoff.parks));
    }
}

/// Name of `busy-wait`'s fault-injection variant: a cycle's waiters go on
/// before its executor has run the request.
pub const FAULT_EARLY_RELEASE: &str = "busy-wait-early-release";

/// Early scheduling with busy-wait cycles.
#[derive(Clone, Debug)]
pub struct BusyWait {
    pub config: FamilyConfig,
    /// Cycle waits only: busy-wait has no markers and no idle spinning.
    pub spin: SpinPolicies,
    /// The broken variant: waiters do not wait for the release.
    #[cfg(any(test, feature = "fault-injection"))]
    early_release: bool,
}

impl BusyWait {
    pub fn new(config: FamilyConfig, spin: impl Into<SpinPolicies>) -> Self {
        BusyWait {
            config,
            spin: spin.into(),
            #[cfg(any(test, feature = "fault-injection"))]
            early_release: false,
        }
    }

    /// The broken variant (fault injection): a thread that is not the last
    /// to arrive at a cycle goes on at once, as if the cycle were already
    /// released, while the executor may still be running the request.
    #[cfg(any(test, feature = "fault-injection"))]
    pub fn into_broken(mut self) -> Self {
        self.early_release = true;
        self
    }
    /// Build from a scenario entry's `early` object (`build`'s `busy-wait` arm).
    pub fn from_params(params: &EarlyParams, env: &BuildEnv<'_>) -> Result<Self, RunError> {
        let config = FamilyConfig::from_params(params, env)?;
        Ok(BusyWait::new(config, SpinPolicies::from_param(params.spin)))
    }
}

/// Busy-wait is early scheduling with cycles: same needs, plus `spin`.
pub const NEEDS: Needs = routed_needs(Family::Early, "early", SPIN_FIELDS);

/// `busy-wait`'s registration: its fault, the synchronization and mapping
/// views.
pub const REGISTRATION: Registration = Registration {
    faults: &[Fault {
        name: FAULT_EARLY_RELEASE,
        rule: "a thread waiting at a cycle goes on before the executor has run the request and released it",
        guard: &["while mark[c][cycle[c]].get() ≠ 0"],
        only: &[],
    }],
    views: &["sync", "mapping"],
    ..Registration::new(&[(SchedulerId::BusyWait, &NEEDS)], |args| {
        let busy = BusyWait::from_params(&args.params(), args.env)?;
        boxed_or_broken!(args, busy, |_| busy.into_broken())
    })
};

impl Scheduler for BusyWait {
    fn id(&self) -> SchedulerId {
        SchedulerId::BusyWait
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<RunOutput, RunError> {
        self.config.run(ctx, |plan| {
            #[allow(unused_mut)]
            let mut sync = CycleSync::new(plan, self.spin);
            #[cfg(any(test, feature = "fault-injection"))]
            {
                sync.early_release = self.early_release;
            }
            sync
        })
    }
    fn info(&self) -> psmr_core::scheduler::SchedulerInfo {
        self.config.info.clone()
    }
}

#[cfg(all(test, not(loom), not(shuttle)))]
mod tests;

#[cfg(all(test, loom))]
mod loom_tests;
