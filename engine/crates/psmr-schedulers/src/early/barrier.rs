//! Per-class barriers for sequential requests (paper 000 Algorithm 2,
//! lines 7-14; protocol note: `docs/protocols/barrier-cycle.md`).
//!
//! Every thread of a sequential class `c` receives each request of `c`, in
//! delivery order. For one request, the threads meet twice at `c`'s
//! barrier:
//!
//! 1. **arrival** — everyone has reached the request in its queue, so every
//!    earlier request any of them holds is done;
//! 2. **completion** — the executor (smallest thread id of the class) has
//!    run the request between the two phases; the others wait here so none
//!    of them runs a later request that may conflict with it.
//!
//! The barrier is [`GenerationBarrier`]: a generation counter under a
//! mutex with a condition variable, blocking, so that waiting threads leave
//! the CPU (this is what the busy-wait variant trades away for latency).

use psmr_core::trace::Counter;
use psmr_core::{EventKind, ThreadRef, WaitReason, NO_REQUEST};

use super::{Job, SeqSync};
use crate::barrier::GenerationBarrier;
use crate::plan::Plan;
use crate::probe::Probe;

/// Sequential requests synchronized by one [`GenerationBarrier`] per class.
#[derive(Debug)]
pub struct BarrierSync {
    /// `None` for concurrent classes (they never synchronize).
    barriers: Vec<Option<GenerationBarrier>>,
    executor: Vec<ThreadRef>,
}

impl BarrierSync {
    pub fn new(plan: &Plan) -> Self {
        BarrierSync {
            barriers: plan
                .classes()
                .iter()
                .map(|cp| {
                    cp.sequential
                        .then(|| GenerationBarrier::new(cp.threads.len()))
                })
                .collect(),
            executor: plan.classes().iter().map(|cp| cp.executor()).collect(),
        }
    }
}

impl SeqSync for BarrierSync {
    type Local = ();

    fn local(&self) {}

    /// Alg. 2 lines 8-14. Trace: `SyncArrive` on reaching the request; a
    /// thread that has to block records one `Barrier` wait (the executor
    /// waits for the arrivals, the others until the execution is done); the
    /// executor records `SyncRelease` before the completion phase frees the
    /// others.
    fn sequential<P: Probe>(&self, _local: &mut (), me: ThreadRef, job: Job, probe: &mut P) {
        let barrier = self.barriers[job.class as usize]
            .as_ref()
            .expect("sequential class has a barrier");
        let executor = self.executor[job.class as usize];
        probe.record(EventKind::SyncArrive {
            class: job.class,
            req: job.req,
            cycle: 0,
        });
        let mut waiting_since: Option<u64> = None;
        if me == executor {
            // Line 9: wait until every thread of the class has arrived.
            barrier.wait(|| start_wait(&mut waiting_since, probe, job));
            if let Some(since) = waiting_since.take() {
                probe.wait_done(WaitReason::Barrier, job.req, since, 0);
            }
            // Line 10: execute on behalf of the class.
            probe.execute(job.req, job.class);
            probe.record(EventKind::SyncRelease {
                class: job.class,
                req: job.req,
                executor: me,
                cycle: 0,
            });
            // Line 11: let the others go (they already wait here, except
            // one that was just released from phase 1 and is on its way).
            barrier.wait(|| start_wait(&mut waiting_since, probe, job));
        } else {
            // Line 13: signal arrival; line 14: wait until executed.
            barrier.wait(|| start_wait(&mut waiting_since, probe, job));
            barrier.wait(|| start_wait(&mut waiting_since, probe, job));
        }
        if let Some(since) = waiting_since {
            probe.wait_done(WaitReason::Barrier, job.req, since, 0);
        }
    }
}

/// A thread is about to block at a barrier: start its one `Barrier` wait
/// for this request (if not already started).
fn start_wait<P: Probe>(waiting_since: &mut Option<u64>, probe: &mut P, job: Job) {
    if waiting_since.is_none() {
        *waiting_since = Some(probe.wait_begin(WaitReason::Barrier, job.req, NO_REQUEST));
        probe.count(Counter::BarrierWaits, 1);
    }
}
