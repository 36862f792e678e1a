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
//! The protocol code ([`worker_loop`], [`Dispatcher`], [`SeqSync`]) does
//! not depend on the run context: it calls a [`Probe`] for execution and
//! trace events, so the model checkers (loom, shuttle) drive the very same
//! code with plain threads.

use psmr_core::exec::{RunContext, RunOutput};
use psmr_core::trace::{Counter, EventKind, Recorder, SCHEDULER};
use psmr_core::{ClassId, RequestId, RunError, Scheduler, SchedulerId, WaitReason};
use psmr_core::{ClassTable, ThreadRef};
use psmr_mapping::{CtoT, Mode};

use crate::queue::{BoundedFifo, PushEvent};
use crate::spec::{SchedulerSpec, DEFAULT_QUEUE_CAPACITY, MAX_QUEUE_CAPACITY};
use crate::BuildEnv;

pub mod barrier;

pub use barrier::{BarrierSync, ClassBarrier};

/// `req` field of a wait that is not about a particular request (a worker
/// idle on an empty queue that then gets closed).
pub const NO_REQUEST: RequestId = RequestId::MAX;

/// What travels through a worker's queue: the request and its class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    pub req: RequestId,
    pub class: ClassId,
}

/// The mapping of one class, as the protocol uses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassPlan {
    pub sequential: bool,
    /// Worker ids, sorted ascending, no duplicates, not empty.
    pub threads: Vec<ThreadRef>,
}

impl ClassPlan {
    /// Alg. 2 line 8: the thread that executes a sequential request (the
    /// smallest id of the class).
    pub fn executor(&self) -> ThreadRef {
        self.threads[0]
    }
}

/// The CtoT in the form the protocol uses, with its invariants checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    threads: usize,
    classes: Vec<ClassPlan>,
}

impl Plan {
    /// Check and convert a CtoT for `classes` classes: one entry per class,
    /// every class has at least one thread (R.1), every thread id is below
    /// `ctot.threads`. Conflict rules R.2-R.5 are the mapping crate's job
    /// (`CtoT::validate`); this only guards what the protocol would trip on.
    pub fn new(ctot: &CtoT, classes: usize) -> Result<Self, String> {
        if ctot.threads == 0 || ctot.threads > usize::from(SCHEDULER) {
            return Err(format!("a mapping needs 1..{} threads", SCHEDULER));
        }
        if ctot.classes.len() != classes {
            return Err(format!(
                "the mapping has {} classes, the application has {classes}",
                ctot.classes.len()
            ));
        }
        let mut plans = Vec::with_capacity(classes);
        for (c, m) in ctot.classes.iter().enumerate() {
            let mut threads: Vec<ThreadRef> = Vec::with_capacity(m.threads.len());
            for &t in &m.threads {
                if t >= ctot.threads {
                    return Err(format!(
                        "class {c} uses thread {t}, the mapping has {}",
                        ctot.threads
                    ));
                }
                threads.push(t as ThreadRef);
            }
            threads.sort_unstable();
            threads.dedup();
            if threads.is_empty() {
                return Err(format!("R.1: class {c} has no thread"));
            }
            plans.push(ClassPlan {
                sequential: m.mode == Mode::Sequential,
                threads,
            });
        }
        Ok(Plan {
            threads: ctot.threads,
            classes: plans,
        })
    }

    pub fn threads(&self) -> usize {
        self.threads
    }
    pub fn class(&self, c: ClassId) -> &ClassPlan {
        &self.classes[c as usize]
    }
    pub fn classes(&self) -> &[ClassPlan] {
        &self.classes
    }
}

/// Algorithm 1's routing decision, with the round-robin state of each
/// concurrent class (the paper's `next`).
#[derive(Debug)]
pub struct Dispatcher<'p> {
    plan: &'p Plan,
    next: Vec<usize>,
}

impl<'p> Dispatcher<'p> {
    pub fn new(plan: &'p Plan) -> Self {
        Dispatcher {
            plan,
            next: vec![0; plan.classes.len()],
        }
    }

    /// The queues a request of `class` goes to: all threads of a sequential
    /// class (Alg. 1 lines 4-6), or the next thread of a concurrent class
    /// in round-robin order (lines 7-8).
    pub fn targets(&mut self, class: ClassId) -> &'p [ThreadRef] {
        let cp = &self.plan.classes[class as usize];
        if cp.sequential {
            &cp.threads
        } else {
            let i = self.next[class as usize];
            self.next[class as usize] = (i + 1) % cp.threads.len();
            &cp.threads[i..i + 1]
        }
    }
}

/// The hooks the protocol calls: execution and everything worth tracing.
/// The real run implements it over [`RunContext`] and a [`Recorder`]; the
/// model checkers implement it over their own logs.
pub trait Probe {
    /// Execute the request (the only execution path).
    fn execute(&mut self, job: Job);
    fn dequeued(&mut self, _job: Job) {}
    /// A wait starts; returns its start time (ns) for `wait_done`.
    fn wait_begin(&mut self, _reason: WaitReason, _req: RequestId) -> u64 {
        0
    }
    /// The wait that began at `start_ns` ended after `spins` busy checks.
    fn wait_done(&mut self, _reason: WaitReason, _req: RequestId, _start_ns: u64, _spins: u32) {}
    fn sync_arrive(&mut self, _class: ClassId, _req: RequestId, _cycle: u8) {}
    fn sync_release(&mut self, _class: ClassId, _req: RequestId, _executor: ThreadRef, _cycle: u8) {
    }
    fn count(&mut self, _c: Counter, _n: u64) {}
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
        let next =
            queue.pop(|| idle_since = Some(probe.wait_begin(WaitReason::EmptyQueue, NO_REQUEST)));
        if let Some(start_ns) = idle_since {
            let req = next.map_or(NO_REQUEST, |j| j.req);
            probe.wait_done(WaitReason::EmptyQueue, req, start_ns, 0);
        }
        let Some(job) = next else { break };
        probe.dequeued(job);
        if plan.class(job.class).sequential {
            sync.sequential(&mut local, me, job, probe);
        } else {
            probe.execute(job);
        }
    }
}

/// The real run's probe: executes through the run context and records into
/// the worker's recorder.
pub struct CtxProbe<'c, 'a> {
    pub ctx: &'c RunContext<'a>,
    pub rec: Recorder<'a>,
}

impl Probe for CtxProbe<'_, '_> {
    fn execute(&mut self, job: Job) {
        self.ctx
            .execute(&mut self.rec, &self.ctx.requests[job.req as usize]);
    }
    fn dequeued(&mut self, job: Job) {
        self.rec.record(EventKind::Dequeued { req: job.req });
    }
    fn wait_begin(&mut self, reason: WaitReason, req: RequestId) -> u64 {
        self.rec.wait_begin(reason, req)
    }
    fn wait_done(&mut self, reason: WaitReason, req: RequestId, start_ns: u64, spins: u32) {
        self.rec.wait_done(reason, req, start_ns, spins);
    }
    fn sync_arrive(&mut self, class: ClassId, req: RequestId, cycle: u8) {
        self.rec.record(EventKind::SyncArrive { class, req, cycle });
    }
    fn sync_release(&mut self, class: ClassId, req: RequestId, executor: ThreadRef, cycle: u8) {
        self.rec.record(EventKind::SyncRelease {
            class,
            req,
            executor,
            cycle,
        });
    }
    fn count(&mut self, c: Counter, n: u64) {
        self.rec.count(c, n);
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
    let mut dispatcher = Dispatcher::new(plan);
    let sample_every = (ctx.requests.len() * queues.len() / MAX_SAMPLES).max(16) as u32;
    let start_ns = rec.now();
    let mut full_wait_ns = 0u64;
    for req in ctx.requests {
        if !ctx.deliver(&mut rec, req) {
            break;
        }
        out.delivered += 1;
        let job = Job {
            req: req.id,
            class: req.class,
        };
        for &to in dispatcher.targets(req.class) {
            let mut full_since: Option<u64> = None;
            // Both events are recorded under the queue's lock: the wait's
            // end and `Enqueued` get smaller seqs than the worker's
            // `Dequeued`, which it records after taking the same lock.
            queues[to as usize].push(job, |e| match e {
                PushEvent::Blocked => {
                    full_since = Some(rec.wait_begin(WaitReason::FullQueue, req.id));
                }
                PushEvent::Pushed { .. } => {
                    if let Some(since) = full_since {
                        full_wait_ns += rec.now().saturating_sub(since);
                        rec.wait_done(WaitReason::FullQueue, req.id, since, 0);
                    }
                    rec.record(EventKind::Enqueued { req: req.id, to });
                }
            });
        }
        if out.delivered % sample_every == 0 {
            for (t, q) in queues.iter().enumerate() {
                out.sample_queue(&mut rec, t as ThreadRef, q.len());
            }
        }
    }
    for q in queues {
        q.close();
    }
    out.scheduler_busy_ns = rec
        .now()
        .saturating_sub(start_ns)
        .saturating_sub(full_wait_ns);
    out
}

/// Run an early-family scheduler: `plan.threads()` workers running
/// [`worker_loop`] with `sync`, and [`drive`] on the delivering thread.
pub(crate) fn run_family<S: SeqSync>(
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
        .map(|_| BoundedFifo::new(capacity))
        .collect();
    let mut out = ctx
        .host
        .run(
            plan.threads(),
            |i| {
                let mut probe = CtxProbe {
                    ctx,
                    rec: ctx.recorder(i as ThreadRef),
                };
                worker_loop(i as ThreadRef, &queues[i], plan, sync, &mut probe);
            },
            || drive(ctx, plan, &queues),
        )
        .map_err(RunError::Threads)?;
    out.extra.push(("queue_capacity".into(), capacity as f64));
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
    /// Resolve `spec.mapping` (default: the optimizer) for `env`, check the
    /// queue capacity (1..=MAX_QUEUE_CAPACITY, default
    /// [`DEFAULT_QUEUE_CAPACITY`]).
    pub fn from_spec(spec: &SchedulerSpec, env: &BuildEnv<'_>) -> Result<Self, RunError> {
        let capacity = spec.queue_capacity.unwrap_or(DEFAULT_QUEUE_CAPACITY);
        if capacity == 0 || capacity > MAX_QUEUE_CAPACITY {
            return Err(RunError::InvalidConfig(format!(
                "queue_capacity must be in 1..={MAX_QUEUE_CAPACITY}, got {capacity}"
            )));
        }
        let mapping = spec.mapping.clone().unwrap_or_default();
        let resolved = psmr_mapping::resolve(&mapping, env.classes, env.threads)
            .map_err(RunError::InvalidConfig)?;
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
        let mapping = plan
            .classes()
            .iter()
            .enumerate()
            .map(|(c, cp)| psmr_core::scheduler::ClassAssignment {
                class: classes.get(c as ClassId).name.clone(),
                sequential: cp.sequential,
                threads: cp.threads.clone(),
            })
            .collect();
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

/// Early scheduling with per-class barriers.
#[derive(Clone, Debug)]
pub struct Early {
    pub config: FamilyConfig,
}

impl Early {
    pub fn new(config: FamilyConfig) -> Self {
        Early { config }
    }
    /// Build from a scenario entry (`build`'s `early` arm).
    pub fn from_spec(spec: &SchedulerSpec, env: &BuildEnv<'_>) -> Result<Self, RunError> {
        FamilyConfig::from_spec(spec, env).map(Early::new)
    }
}

impl Scheduler for Early {
    fn id(&self) -> SchedulerId {
        SchedulerId::Early
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<RunOutput, RunError> {
        let sync = BarrierSync::new(&self.config.plan);
        run_family(ctx, &self.config.plan, self.config.capacity, &sync)
    }
    fn info(&self) -> psmr_core::scheduler::SchedulerInfo {
        self.config.info.clone()
    }
}

#[cfg(all(test, not(loom), not(shuttle)))]
mod tests;

#[cfg(all(test, shuttle, not(loom)))]
mod shuttle_tests;
