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
//! The barrier is a generation counter under a mutex with a condition
//! variable: blocking, so that waiting threads leave the CPU (this is what
//! the busy-wait variant trades away for latency).

use psmr_core::trace::Counter;
use psmr_core::{ThreadRef, WaitReason};

use super::{Job, Plan, Probe, SeqSync};
use crate::sync::{Condvar, Mutex};

#[derive(Debug)]
struct BarrierState {
    /// Threads arrived in the current generation (`< parties`).
    arrived: u32,
    /// Completed generations; a waiter leaves when it changes.
    generation: u64,
}

/// A reusable barrier for `parties` threads.
///
/// Invariant: `arrived < parties` between calls; the last arrival of a
/// generation resets `arrived` and bumps `generation` in the same critical
/// section, so a fast thread that re-enters for the next generation counts
/// towards the next one, never the one still being left.
#[derive(Debug)]
pub struct ClassBarrier {
    parties: u32,
    state: Mutex<BarrierState>,
    cv: Condvar,
}

impl ClassBarrier {
    pub fn new(parties: u32) -> Self {
        ClassBarrier {
            parties: parties.max(1),
            state: Mutex::new(BarrierState {
                arrived: 0,
                generation: 0,
            }),
            cv: Condvar::new(),
        }
    }

    /// Wait until all parties called `await_all` in this generation. The
    /// last arrival returns `true` at once and wakes the others; the rest
    /// call `on_block` once (under the lock, before blocking) and return
    /// `false` when released.
    pub fn await_all(&self, on_block: impl FnOnce()) -> bool {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        st.arrived += 1;
        if st.arrived == self.parties {
            st.arrived = 0;
            st.generation = st.generation.wrapping_add(1);
            // Every other party of this generation is blocked below (it
            // arrived earlier and only a generation change lets it go).
            if self.parties > 1 {
                self.cv.notify_all();
            }
            return true;
        }
        let generation = st.generation;
        on_block();
        while st.generation == generation {
            st = self.cv.wait(st).unwrap_or_else(|p| p.into_inner());
        }
        false
    }
}

/// Sequential requests synchronized by one [`ClassBarrier`] per class.
#[derive(Debug)]
pub struct BarrierSync {
    /// `None` for concurrent classes (they never synchronize).
    barriers: Vec<Option<ClassBarrier>>,
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
                        .then(|| ClassBarrier::new(cp.threads.len() as u32))
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
        probe.sync_arrive(job.class, job.req, 0);
        let mut waiting_since: Option<u64> = None;
        if me == executor {
            // Line 9: wait until every thread of the class has arrived.
            barrier.await_all(|| start_wait(&mut waiting_since, probe, job));
            if let Some(since) = waiting_since.take() {
                probe.wait_done(WaitReason::Barrier, job.req, since, 0);
            }
            // Line 10: execute on behalf of the class.
            probe.execute(job);
            probe.sync_release(job.class, job.req, me, 0);
            // Line 11: let the others go (they already wait here, except
            // one that was just released from phase 1 and is on its way).
            barrier.await_all(|| start_wait(&mut waiting_since, probe, job));
        } else {
            // Line 13: signal arrival; line 14: wait until executed.
            barrier.await_all(|| start_wait(&mut waiting_since, probe, job));
            barrier.await_all(|| start_wait(&mut waiting_since, probe, job));
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
        *waiting_since = Some(probe.wait_begin(WaitReason::Barrier, job.req));
        probe.count(Counter::BarrierWaits, 1);
    }
}
