//! Early scheduling with busy-wait cycles instead of barriers (paper 000
//! section 4.1, Algorithms 3-4; protocol note:
//! `docs/protocols/busy-wait-cycles.md`).
//!
//! The scheduler, the queues and the worker loop are those of
//! [`crate::early`]; only the synchronization of a sequential request
//! changes. Each sequential class `c` has two atomic counters, the *marks*
//! `mark[c][0]` and `mark[c][1]`, one per *cycle*. Each worker keeps, per
//! class, the cycle it used last and flips it on every request of the class
//! (Alg. 4 lines 7-8). On a request it increments the cycle's mark
//! (line 9); the thread whose increment completes the count of the class's
//! threads is the executor: it runs the request (line 10) and resets the
//! mark to 0 (line 11). The others spin until they see 0 (line 13).
//!
//! Unlike Alg. 2, the executor is whichever thread arrives *last*, not the
//! smallest id: nobody waits for a thread that is already there.
//!
//! Why two cycles suffice: before any thread can use cycle `k` of class `c`
//! again (two requests of `c` later), every thread of `c` must have
//! *arrived* at the request in between, on the other cycle; a thread
//! arrives there only after it left the wait of the earlier request. So a
//! mark is never incremented for request `i + 2` while some thread still
//! waits for it to drop to 0 for request `i`.
//!
//! Spinning goes through [`Backoff`] (spin, then yield, then park), so an
//! oversubscribed machine (more threads than cores) still makes progress.

use crossbeam_utils::CachePadded;
use psmr_core::exec::{RunContext, RunOutput};
use psmr_core::trace::Counter;
use psmr_core::{EventKind, Family, Needs, StreamKind, NO_REQUEST};
use psmr_core::{RunError, Scheduler, SchedulerId, ThreadRef, WaitReason};

use crate::early::params::EarlyParams;
use crate::early::{run_family, FamilyConfig, Job, Plan, SeqSync};
use crate::probe::Probe;
use crate::registry::Registration;
use crate::spin::SpinPolicy;
use crate::spin::{Backoff, SpinPolicies};
use crate::sync::{AtomicU32, Ordering};
use crate::BuildEnv;

/// Algorithm 3's shared variables: two marks per class (only sequential
/// classes use theirs), each on its own cache line so that classes do not
/// false-share.
#[derive(Debug)]
pub struct CycleSync {
    marks: Vec<[CachePadded<AtomicU32>; 2]>,
    /// Threads of each class: the count that makes a thread the executor.
    parties: Vec<u32>,
    spin: SpinPolicy,
}

impl CycleSync {
    pub fn new(plan: &Plan, spin: SpinPolicy) -> Self {
        CycleSync {
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
            parties: plan
                .classes()
                .iter()
                .map(|cp| cp.threads.len() as u32)
                .collect(),
            spin,
        }
    }
}

impl SeqSync for CycleSync {
    /// Alg. 4 line 2: the cycle each class used last on this worker.
    type Local = Vec<u8>;

    fn local(&self) -> Vec<u8> {
        vec![0; self.parties.len()]
    }

    /// Alg. 4 lines 7-13. Trace: `SyncArrive{cycle}`; the executor records
    /// `SyncRelease{cycle, executor}` before resetting the mark; a waiter
    /// records one `Cycle` wait with its spin count.
    fn sequential<P: Probe>(&self, cycles: &mut Vec<u8>, me: ThreadRef, job: Job, probe: &mut P) {
        let c = job.class as usize;
        // Lines 7-8: flip to this request's cycle.
        cycles[c] = 1 - cycles[c];
        let cycle = cycles[c];
        let mark = &self.marks[c][cycle as usize];
        probe.record(EventKind::SyncArrive {
            class: job.class,
            req: job.req,
            cycle,
        });
        // Line 9. AcqRel: the Release half publishes everything this thread
        // did before arriving (its earlier executions) to the executor; the
        // Acquire half lets the last arriver, the executor, see all of them,
        // because each earlier increment heads a release sequence that the
        // later read-modify-writes on the same mark continue.
        let arrived = mark.fetch_add(1, Ordering::AcqRel) + 1;
        if arrived == self.parties[c] {
            // Line 10: every thread of the class is here; run it.
            probe.execute(job.req, job.class);
            probe.record(EventKind::SyncRelease {
                class: job.class,
                req: job.req,
                executor: me,
                cycle,
            });
            // Line 11. Release: a waiter that reads this 0 with Acquire
            // sees the execution's effects before it runs anything else.
            // No other thread writes this mark until every waiter has read
            // the 0 (the two-cycle argument in the module comment).
            mark.store(0, Ordering::Release);
        } else {
            self.wait_for_release(mark, job, probe);
        }
    }
}

impl CycleSync {
    /// Line 13: spin (with backoff) until the executor resets the mark.
    fn wait_for_release<P: Probe>(&self, mark: &AtomicU32, job: Job, probe: &mut P) {
        // Acquire (here and in the loop): pairs with the executor's Release
        // store of 0, so the executed request happens-before whatever this
        // thread does next. The mark cannot read 0 before the executor's
        // reset: this thread's own increment precedes the load in the
        // mark's modification order, and only the reset brings it to 0.
        if mark.load(Ordering::Acquire) == 0 {
            return;
        }
        let since = probe.wait_begin(WaitReason::Cycle, job.req, NO_REQUEST);
        let mut backoff = Backoff::new(self.spin);
        while mark.load(Ordering::Acquire) != 0 {
            backoff.snooze();
        }
        probe.wait_done(WaitReason::Cycle, job.req, since, backoff.spins);
        probe.count(Counter::CycleWaits, 1);
        probe.count(Counter::Spins, u64::from(backoff.spins));
        probe.count(Counter::Yields, u64::from(backoff.yields));
        probe.count(Counter::Parks, u64::from(backoff.parks));
    }
}

/// Early scheduling with busy-wait cycles.
#[derive(Clone, Debug)]
pub struct BusyWait {
    pub config: FamilyConfig,
    pub spin: SpinPolicy,
}

impl BusyWait {
    pub fn new(config: FamilyConfig, spin: SpinPolicy) -> Self {
        BusyWait { config, spin }
    }
    /// Build from a scenario entry's `early` object (`build`'s `busy-wait` arm).
    pub fn from_params(params: &EarlyParams, env: &BuildEnv<'_>) -> Result<Self, RunError> {
        let config = FamilyConfig::from_params(params, env)?;
        // Cycle waits only: busy-wait has no markers and no idle spinning.
        let spin = SpinPolicies::from_param(params.spin).cycle;
        Ok(BusyWait::new(config, spin))
    }
}

/// Busy-wait is early scheduling with cycles: same needs, plus `spin`.
pub const NEEDS: Needs = Needs {
    family: Family::Early,
    streams: &[StreamKind::Total],
    spaces: &[],
    covering_classes: true,
    roles: &[],
    params: Some(("early", &["mapping", "queue_capacity", "spin"])),
};

/// `busy-wait`'s registration: the synchronization and mapping views.
pub const REGISTRATION: Registration = Registration {
    views: &["sync", "mapping"],
    ..Registration::new(&[(SchedulerId::BusyWait, &NEEDS)], |spec, env| {
        let params = spec.early.clone().unwrap_or_default();
        Ok(Box::new(BusyWait::from_params(&params, env)?))
    })
};

impl Scheduler for BusyWait {
    fn id(&self) -> SchedulerId {
        SchedulerId::BusyWait
    }
    fn needs(&self) -> &'static Needs {
        &NEEDS
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<RunOutput, RunError> {
        let sync = CycleSync::new(&self.config.plan, self.spin);
        run_family(ctx, &self.config.plan, self.config.capacity, &sync)
    }
    fn info(&self) -> psmr_core::scheduler::SchedulerInfo {
        self.config.info.clone()
    }
}

#[cfg(all(test, not(loom), not(shuttle)))]
mod tests;

#[cfg(all(test, loom))]
mod loom_tests;
