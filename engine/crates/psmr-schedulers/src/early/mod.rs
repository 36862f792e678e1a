//! Early scheduling (paper 003 section 4.3, restated with intact text in
//! paper 000 section 3.4, Algorithms 1-2).
//!
//! One delivering thread (the *scheduler*) and `n` workers, each with its
//! own bounded FIFO input queue. The scheduler decides where a request goes
//! from its class alone, using the classes-to-threads mapping (CtoT):
//!
//! * a request of a **sequential** class goes to the queue of *every* thread
//!   of the class (Alg. 1 lines 4-6);
//! * a request of a **concurrent** class goes to *one* thread of the class,
//!   chosen round-robin (Alg. 1 lines 7-8).
//!
//! A worker takes its queue in FIFO order. A concurrent request it simply
//! executes. For a sequential request, all threads of the class meet at the
//! class's barrier; the thread with the smallest id executes the request
//! while the others wait at a second barrier phase until it is done
//! (Alg. 2 lines 7-14, [`barrier`]). The busy-wait variant
//! ([`crate::busy_wait`]) replaces the barrier with two-cycle atomic marks
//! and reuses everything else in this module.
//!
//! Why this is safe (rules R.1-R.5, checked by `psmr_mapping::rules`): two
//! conflicting requests always share at least one thread, because either
//! one class is sequential and contains the other's threads (R.4), or both
//! are sequential with a common thread (R.5). That common thread receives
//! both requests in delivery order and cannot take the second before the
//! first is executed, so conflicting requests never overlap or reorder.
//!
//! The mapping and Algorithm 1's routing are [`crate::plan`]'s ([`Plan`],
//! [`Router`]), shared with work stealing.
//!
//! The protocol code ([`worker_loop`], [`Router`], [`SeqSync`]) does
//! not depend on the run context: it calls a [`Probe`] for execution and
//! trace events, so the model checkers (loom, shuttle) drive the very same
//! code with plain threads.

use psmr_core::exec::{RunContext, RunOutput};
use psmr_core::trace::{EventKind, SCHEDULER};
use psmr_core::{ClassId, RequestId, RunError, Scheduler, SchedulerId, WaitReason, NO_REQUEST};
use psmr_core::{ClassTable, Family, Needs, ThreadRef};
use psmr_mapping::CtoT;

use crate::params::{DEFAULT_QUEUE_CAPACITY, MAX_QUEUE_CAPACITY};
use crate::plan::{routed_needs, Plan, Router};
use crate::probe::{run_workers, Probe};
use crate::queue::BoundedFifo;
use crate::registry::{boxed_or_broken, Fault, Registration};
use crate::BuildEnv;

pub mod barrier;
pub mod params;

pub use barrier::BarrierSync;
pub use params::EarlyParams;

/// What travels through a worker's queue: the request and its class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    pub req: RequestId,
    pub class: ClassId,
}

/// How the threads of a sequential class synchronize on one request
/// (barriers in [`BarrierSync`], busy-wait cycles in
/// [`crate::busy_wait::CycleSync`]).
pub trait SeqSync: Sync {
    /// State private to one worker (e.g. its current cycle per class).
    type Local;
    fn local(&self) -> Self::Local;
    /// Run the sequential request `job` on worker `me`: synchronize with
    /// the class's other threads; exactly one of them executes it; none
    /// returns before it was executed.
    fn sequential<P: Probe>(&self, local: &mut Self::Local, me: ThreadRef, job: Job, probe: &mut P);
}

/// A deliberately broken sequential step: the class's executor runs the
/// request without waiting for the others, who do not wait either. Used by
/// the model checks' "the models have teeth" tests (loom and shuttle) and
/// as `early`'s fault-injection variant ([`FAULT_NO_BARRIER`]).
#[cfg(any(test, feature = "fault-injection"))]
pub(crate) struct NoSync {
    executor: Vec<ThreadRef>,
}

#[cfg(any(test, feature = "fault-injection"))]
impl NoSync {
    pub(crate) fn new(plan: &Plan) -> Self {
        NoSync {
            executor: plan.classes().iter().map(|c| c.executor()).collect(),
        }
    }
}

#[cfg(any(test, feature = "fault-injection"))]
impl SeqSync for NoSync {
    type Local = ();
    fn local(&self) {}
    fn sequential<P: Probe>(&self, _l: &mut (), me: ThreadRef, job: Job, probe: &mut P) {
        if me == self.executor[job.class as usize] {
            probe.execute(job.req, job.class);
        }
    }
}

/// Algorithm 2's (and 4's) main loop for worker `me`: take requests in
/// FIFO order until the queue is closed and drained. An empty queue is an
/// `EmptyQueue` wait (idle time).
pub fn worker_loop<S: SeqSync, P: Probe>(
    me: ThreadRef,
    queue: &BoundedFifo<Job>,
    plan: &Plan,
    sync: &S,
    probe: &mut P,
) {
    let mut local = sync.local();
    loop {
        let mut idle_since: Option<u64> = None;
        let next = queue.pop(|| {
            idle_since = Some(probe.wait_begin(WaitReason::EmptyQueue, NO_REQUEST, NO_REQUEST))
        });
        if let Some(start_ns) = idle_since {
            let req = next.map_or(NO_REQUEST, |j| j.req);
            probe.wait_done(WaitReason::EmptyQueue, req, start_ns, 0);
        }
        let Some(job) = next else { break };
        probe.record(EventKind::Dequeued { req: job.req });
        if plan.class(job.class).sequential {
            sync.sequential(&mut local, me, job, probe);
        } else {
            probe.execute(job.req, job.class);
        }
    }
}

/// Queue samples per run at most (spread over the run by sampling every
/// `requests * threads / MAX_SAMPLES` deliveries).
const MAX_SAMPLES: usize = RunOutput::MAX_QUEUE_SAMPLES;

/// Algorithm 1 on the delivering thread: deliver each request, route it,
/// push it (blocking while a target queue is full), sample queue lengths;
/// on cancellation stop delivering; finally close every queue so workers
/// drain and exit.
fn drive(ctx: &RunContext<'_>, plan: &Plan, queues: &[BoundedFifo<Job>]) -> RunOutput {
    let mut rec = ctx.recorder(SCHEDULER);
    let mut out = RunOutput::default();
    let mut router = Router::new(plan);
    let sample_every = (ctx.requests.len() * queues.len() / MAX_SAMPLES).max(16) as u32;
    let start_ns = rec.now();
    let mut full_wait_ns = 0u64;
    let mut deliverer = ctx.deliverer();
    while let Some(d) = deliverer.next(&mut rec) {
        let req = &ctx.requests[d as usize];
        out.delivered += 1;
        let job = Job {
            req: req.id,
            class: req.class,
        };
        for &to in router.targets(req.class) {
            let q = &queues[to as usize];
            full_wait_ns += q.push_recorded(job, &mut rec, req.id, to as u32, Some(to));
        }
        if out.delivered % sample_every == 0 {
            for (t, q) in queues.iter().enumerate() {
                out.sample_queue(&mut rec, ctx.progress, t as ThreadRef, q.len());
            }
        }
    }
    for q in queues {
        q.close();
    }
    out.scheduler_busy_ns = deliverer.busy_ns(start_ns, rec.now(), full_wait_ns);
    out
}

/// A worker's input queue of `capacity` jobs. A delivering thread blocked
/// on a full queue resumes once the worker has emptied half of it (the
/// queue's resume mark), not after every job: on a saturated stream that
/// turns one wake-up and one context switch per request into one per
/// `capacity / 2` requests (docs/benchmarks/wasm.md measures it). Safe
/// here because a worker never waits for the delivering thread while it
/// holds jobs: everything a barrier or cycle of a queued job needs was
/// pushed to every thread of the class before later jobs were.
pub fn worker_queue(capacity: usize) -> BoundedFifo<Job> {
    BoundedFifo::with_resume_at(capacity, capacity / 2)
}

/// Run an early-family scheduler: `plan.threads()` workers running
/// [`worker_loop`] with `sync`, and [`drive`] on the delivering thread.
fn run_family<S: SeqSync>(
    ctx: &RunContext<'_>,
    plan: &Plan,
    capacity: usize,
    sync: &S,
) -> Result<RunOutput, RunError> {
    if ctx.threads != plan.threads() {
        return Err(RunError::InvalidConfig(format!(
            "the mapping is for {} threads but the run has {}",
            plan.threads(),
            ctx.threads
        )));
    }
    let queues: Vec<BoundedFifo<Job>> = (0..plan.threads())
        .map(|_| worker_queue(capacity))
        .collect();
    let driver = || drive(ctx, plan, &queues);
    let mut out = run_workers(ctx, plan.threads(), driver, |i, mut probe| {
        worker_loop(i as ThreadRef, &queues[i], plan, sync, &mut probe);
    })?;
    out.extra.push(("queue_capacity".into(), capacity as f64));
    #[cfg(all(feature = "sync-counters", not(any(loom, shuttle))))]
    {
        let mut counts = crate::queue::SyncCounts::default();
        for q in &queues {
            counts.add(&q.sync_counts());
        }
        out.extra.extend(counts.named());
    }
    Ok(out)
}

/// The configuration every early-family scheduler shares.
#[derive(Clone, Debug)]
pub struct FamilyConfig {
    pub plan: Plan,
    pub capacity: usize,
    /// What the views show (the mapping by class name, how it was made).
    pub info: psmr_core::scheduler::SchedulerInfo,
}

impl FamilyConfig {
    /// Run this configuration with the sequential-request synchronization
    /// `make_sync` builds for the plan (barriers or cycles).
    pub fn run<S: SeqSync>(
        &self,
        ctx: &RunContext<'_>,
        make_sync: impl FnOnce(&Plan) -> S,
    ) -> Result<RunOutput, RunError> {
        run_family(ctx, &self.plan, self.capacity, &make_sync(&self.plan))
    }

    /// Resolve `params.mapping` (default: the optimizer) for `env`, check
    /// the queue capacity (1..=MAX_QUEUE_CAPACITY, default
    /// [`DEFAULT_QUEUE_CAPACITY`]).
    pub fn from_params(params: &EarlyParams, env: &BuildEnv<'_>) -> Result<Self, RunError> {
        let capacity = params.queue_capacity.unwrap_or(DEFAULT_QUEUE_CAPACITY);
        if capacity == 0 || capacity > MAX_QUEUE_CAPACITY {
            return Err(RunError::InvalidConfig(format!(
                "queue_capacity must be in 1..={MAX_QUEUE_CAPACITY}, got {capacity}"
            )));
        }
        let resolved = params.resolve_mapping(env)?;
        Self::from_ctot(&resolved.ctot, env.classes, capacity, resolved.how)
    }

    /// From a mapping already at hand (tests, benchmarks). Checks rules
    /// R.1-R.5 against `classes`.
    pub fn from_ctot(
        ctot: &CtoT,
        classes: &ClassTable,
        capacity: usize,
        how: String,
    ) -> Result<Self, RunError> {
        ctot.validate(classes).map_err(|v| {
            RunError::InvalidConfig(format!(
                "mapping breaks the rules: {}",
                psmr_mapping::rules::describe(&v)
            ))
        })?;
        let plan = Plan::new(ctot, classes.len()).map_err(RunError::InvalidConfig)?;
        let mapping = plan.assignments(classes);
        Ok(FamilyConfig {
            plan,
            capacity: capacity.clamp(1, MAX_QUEUE_CAPACITY),
            info: psmr_core::scheduler::SchedulerInfo {
                mapping,
                mapping_how: how,
            },
        })
    }
}

/// Name of `early`'s fault-injection variant: sequential classes without
/// their barrier.
pub const FAULT_NO_BARRIER: &str = "early-no-barrier";

/// Early scheduling with per-class barriers.
#[derive(Clone, Debug)]
pub struct Early {
    pub config: FamilyConfig,
    /// The broken variant: sequential requests without the barrier.
    #[cfg(any(test, feature = "fault-injection"))]
    no_barrier: bool,
}

impl Early {
    pub fn new(config: FamilyConfig) -> Self {
        Early {
            config,
            #[cfg(any(test, feature = "fault-injection"))]
            no_barrier: false,
        }
    }

    /// The broken variant (fault injection): the threads of a sequential
    /// class do not meet at its barrier ([`NoSync`]).
    #[cfg(any(test, feature = "fault-injection"))]
    pub fn into_broken(mut self) -> Self {
        self.no_barrier = true;
        self
    }
    /// Build from a scenario entry's `early` object (`build`'s `early` arm).
    pub fn from_params(params: &EarlyParams, env: &BuildEnv<'_>) -> Result<Self, RunError> {
        FamilyConfig::from_params(params, env).map(Early::new)
    }
}

/// Early scheduling runs totally ordered streams on any cell space, routing
/// by class.
pub const NEEDS: Needs = routed_needs(Family::Early, "early", params::EARLY_FIELDS);

/// `early`'s registration: its fault, the synchronization and mapping
/// views.
pub const REGISTRATION: Registration = Registration {
    faults: &[Fault {
        name: FAULT_NO_BARRIER,
        rule: "a sequential class's threads skip its barrier: the executor runs the request while the others go on",
        guard: &["barrier[c].await()"],
        only: &[],
    }],
    views: &["sync", "mapping"],
    ..Registration::new(&[(SchedulerId::Early, &NEEDS)], |args| {
        let early = Early::from_params(&args.params(), args.env)?;
        boxed_or_broken!(args, early, |_| early.into_broken())
    })
};

impl Scheduler for Early {
    fn id(&self) -> SchedulerId {
        SchedulerId::Early
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<RunOutput, RunError> {
        #[cfg(any(test, feature = "fault-injection"))]
        if self.no_barrier {
            return self.config.run(ctx, NoSync::new);
        }
        self.config.run(ctx, BarrierSync::new)
    }
    fn info(&self) -> psmr_core::scheduler::SchedulerInfo {
        self.config.info.clone()
    }
}

#[cfg(all(test, not(loom), not(shuttle)))]
mod tests;

#[cfg(all(test, shuttle, not(loom)))]
mod shuttle_tests;
