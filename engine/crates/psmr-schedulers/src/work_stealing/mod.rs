//! Work stealing for early scheduling (paper 000 section 4.2, Algorithms
//! 5-8), in four variants that share one protocol core:
//!
//! | variant      | steals when             | sequential request              | victims from | victim lock               |
//! |--------------|-------------------------|---------------------------------|--------------|---------------------------|
//! | conservative | idle                    | barrier, min executes, barrier  | thread 0     | always                    |
//! | moderate     | idle, waiting in cycle  | cycle (last executes), barrier  | thread 0     | always                    |
//! | aggressive   | idle, waiting in cycle  | cycle (last executes)           | own id + 1   | always                    |
//! | optimistic   | idle, waiting in cycle  | cycle (last executes)           | own id + 1   | after a lock-free check   |
//!
//! * [`shared`]: the shared state (ready queues, flags, markers, cycles)
//!   and its critical sections; compiles against [`crate::sync`] for loom.
//!   The mapping and Algorithm 6's routing are [`crate::plan`]'s, the
//!   cycles [`crate::cycle`]'s, both shared with the early family.
//! * [`worker`]: the worker loop (transfer, execute, steal), driven through
//!   a [`crate::probe::Probe`].
//! * one module per variant; `broken.rs` is a fault-injection variant.
//! * this module: the scheduler thread (Algorithm 6) and the
//!   [`psmr_core::Scheduler`] implementation.
//!
//! The protocol and why it is safe: `docs/protocols/stealing-flags-markers.md`.
//!
//! Bounds: each ready queue holds at most `queue_capacity` requests (the
//! scheduler blocks while it is full, until the worker takes it or a
//! stealer empties it); a worker's exec queue and a stealer's stolen batch
//! each hold at most one ready queue's worth.

use psmr_core::exec::{Progress, RunContext, RunOutput};
use psmr_core::scheduler::SchedulerInfo;
use psmr_core::trace::{Recorder, SCHEDULER};
use psmr_core::{ClassTable, EventKind, RequestId, RunError, Scheduler, SchedulerId};
use psmr_core::{Family, Needs, ThreadRef, WaitReason};
use psmr_mapping::CtoT;

use crate::barrier::GenerationBarrier;
use crate::early::params::{EarlyParams, SPIN_FIELDS};
use crate::params::{DEFAULT_QUEUE_CAPACITY, MAX_QUEUE_CAPACITY};
use crate::probe::run_workers;
use crate::registry::{boxed_or_broken, BuildArgs, Fault, Registration};
use crate::spin::SpinPolicies;

pub mod aggressive;
#[cfg(any(test, feature = "fault-injection"))]
pub mod broken;
pub mod conservative;
pub mod moderate;
pub mod optimistic;
pub mod shared;
pub mod worker;

#[cfg(all(test, loom))]
mod loom_tests;
#[cfg(all(test, shuttle, not(loom)))]
mod shuttle_tests;
#[cfg(all(test, not(loom), not(shuttle)))]
mod tests;

use crate::plan::{routed_needs, Plan, Router};
use shared::{Conflicts, EnqueueStep, Shared};
use worker::{Policy, Worker};

/// Name of the stealing-throughput metric in `RunOutput::extra`
/// (000 Fig. 7: stolen requests executed per second of the run).
pub const STEALING_THROUGHPUT: &str = "stealing_throughput_rps";

/// A work-stealing scheduler, ready to run with the threads of its CtoT.
#[derive(Debug, Clone)]
pub struct WorkStealing {
    id: SchedulerId,
    policy: Policy,
    plan: Plan,
    conflicts: Conflicts,
    spin: SpinPolicies,
    capacity: usize,
    info: SchedulerInfo,
}

/// The policy of a work-stealing id.
pub fn policy_of(id: SchedulerId) -> Option<Policy> {
    Some(match id {
        SchedulerId::WsConservative => conservative::POLICY,
        SchedulerId::WsModerate => moderate::POLICY,
        SchedulerId::WsAggressive => aggressive::POLICY,
        SchedulerId::WsOptimistic => optimistic::POLICY,
        _ => return None,
    })
}

impl WorkStealing {
    /// A scheduler of variant `id` over an explicit CtoT.
    pub fn with_ctot(
        id: SchedulerId,
        ctot: &CtoT,
        classes: &ClassTable,
        spin: impl Into<SpinPolicies>,
        capacity: usize,
    ) -> Result<Self, RunError> {
        let spin = spin.into();
        let policy = policy_of(id).ok_or_else(|| {
            RunError::InvalidConfig(format!("`{id}` is not a work-stealing scheduler"))
        })?;
        if capacity == 0 || capacity > MAX_QUEUE_CAPACITY {
            return Err(RunError::InvalidConfig(format!(
                "queue_capacity must be in 1..={MAX_QUEUE_CAPACITY}, got {capacity}"
            )));
        }
        if let Err(v) = ctot.validate(classes) {
            let msgs: Vec<String> = v
                .iter()
                .map(|r| format!("{}: {}", r.rule, r.message))
                .collect();
            return Err(RunError::InvalidConfig(msgs.join("; ")));
        }
        let conflicts = Conflicts::new(classes).map_err(RunError::InvalidConfig)?;
        let plan = Plan::new(ctot, classes.len()).map_err(RunError::InvalidConfig)?;
        let info = SchedulerInfo {
            mapping: plan.assignments(classes),
            mapping_how: String::new(),
        };
        Ok(WorkStealing {
            id,
            policy,
            plan,
            conflicts,
            spin,
            capacity,
            info,
        })
    }

    /// Replace the variant's policy by the broken stealer (fault injection).
    #[cfg(any(test, feature = "fault-injection"))]
    pub fn into_broken(mut self) -> Self {
        self.policy = broken::POLICY;
        self
    }

    /// Say how the mapping was obtained (shown by the views).
    pub fn with_mapping_how(mut self, how: impl Into<String>) -> Self {
        self.info.mapping_how = how.into();
        self
    }
}

/// The four variants run totally ordered streams, routing by class.
pub const NEEDS: Needs = routed_needs(Family::WorkStealing, "stealing", SPIN_FIELDS);

/// The four `ws-*` ids, their fault (the name `broken::FAULT_NAME`), and
/// the synchronization and mapping views.
pub const REGISTRATION: Registration = Registration {
    faults: &[Fault {
        name: "ws-ignore-flags",
        rule: "a stealer ignores the victim's ready and exec flags and raises no marker",
        guard: &["if Valid(v, c):"],
        only: &[],
    }],
    views: &["sync", "mapping"],
    ..Registration::new(
        &[
            (SchedulerId::WsConservative, &NEEDS),
            (SchedulerId::WsModerate, &NEEDS),
            (SchedulerId::WsAggressive, &NEEDS),
            (SchedulerId::WsOptimistic, &NEEDS),
        ],
        build,
    )
};

/// `build` for the four `ws-*` ids.
pub fn build(args: &BuildArgs<'_>) -> Result<Box<dyn Scheduler>, RunError> {
    let params: EarlyParams = args.params();
    let resolved = params.resolve_mapping(args.env)?;
    let ws = WorkStealing::with_ctot(
        args.id,
        &resolved.ctot,
        args.env.classes,
        SpinPolicies::from_param(params.spin),
        params.queue_capacity.unwrap_or(DEFAULT_QUEUE_CAPACITY),
    )?
    .with_mapping_how(resolved.how);
    boxed_or_broken!(args, ws, |_| ws.into_broken())
}

/// A CtoT that satisfies the rules for a sharded class table
/// ([`ClassTable::sharded`]) with any thread count: shard `i` owns threads
/// `{t : t mod s = i}` (or thread `i mod n` when there are fewer threads
/// than shards); `R_i` is concurrent and `W_i` sequential on them, `Rg` is
/// sequential on the first thread of each shard, `Wg` on all threads
/// (the pattern of 000 Table 1).
pub fn partition_ctot(classes: &ClassTable, threads: usize) -> CtoT {
    use psmr_mapping::{ClassMapping, Mode};
    let shards = classes.shards();
    let owners = |i: usize| -> Vec<usize> {
        if threads >= shards {
            (0..threads).filter(|t| t % shards == i).collect()
        } else {
            vec![i % threads]
        }
    };
    let mut out = Vec::with_capacity(classes.len());
    for i in 0..shards {
        let t = owners(i);
        out.push(ClassMapping {
            mode: Mode::Concurrent,
            threads: t.clone(),
        });
        out.push(ClassMapping {
            mode: Mode::Sequential,
            threads: t,
        });
    }
    let mut firsts: Vec<usize> = (0..shards).map(|i| owners(i)[0]).collect();
    firsts.sort_unstable();
    firsts.dedup();
    out.push(ClassMapping {
        mode: Mode::Sequential,
        threads: firsts,
    });
    out.push(ClassMapping {
        mode: Mode::Sequential,
        threads: (0..threads).collect(),
    });
    CtoT {
        threads,
        classes: out,
    }
}

impl Scheduler for WorkStealing {
    fn id(&self) -> SchedulerId {
        self.id
    }

    fn info(&self) -> SchedulerInfo {
        self.info.clone()
    }

    fn run(&self, ctx: &RunContext<'_>) -> Result<RunOutput, RunError> {
        if ctx.threads != self.plan.threads() {
            return Err(RunError::InvalidConfig(format!(
                "the mapping was built for {} threads, the run has {}",
                self.plan.threads(),
                ctx.threads
            )));
        }
        let shared = Shared::new(ctx.requests, &self.plan, &self.conflicts, self.capacity);
        let barriers = class_barriers(&self.plan);
        let start_ns = ctx.trace.now();
        let mut out = run_workers(
            ctx,
            ctx.threads,
            || deliver(ctx, &shared),
            |i, probe| {
                Worker::new(i, &shared, &barriers, self.policy, self.spin, probe).run();
            },
        )?;
        let elapsed_s = (ctx.trace.now().saturating_sub(start_ns)).max(1) as f64 / 1e9;
        // Relaxed: the host joined every worker before returning.
        let stolen = shared.stolen_executed.load(crate::sync::Ordering::Relaxed);
        out.extra
            .push((STEALING_THROUGHPUT.into(), stolen as f64 / elapsed_s));
        Ok(out)
    }
}

/// One blocking barrier per class, for its threads (conservative and
/// moderate work stealing, Algorithm 7).
pub fn class_barriers(plan: &Plan) -> Vec<GenerationBarrier> {
    plan.classes()
        .iter()
        .map(|c| GenerationBarrier::new(c.threads.len()))
        .collect()
}

/// Sample a queue length every this many deliveries.
const SAMPLE_EVERY: u32 = 16;

/// Algorithm 6, the scheduler thread: deliver each request into the ready
/// queues of its threads (all of them for a sequential class, the next in
/// round-robin for a concurrent one: [`Router`]), then close the queues.
fn deliver(ctx: &RunContext<'_>, shared: &Shared<'_>) -> RunOutput {
    let mut rec = ctx.recorder(SCHEDULER);
    let mut out = RunOutput::default();
    let mut router = Router::new(shared.plan);
    let mut blocked_ns = 0u64;
    let start_ns = rec.now();
    let mut deliverer = ctx.deliverer();
    let progress = ctx.progress;
    while let Some(d) = deliverer.next(&mut rec) {
        let req = &ctx.requests[d as usize];
        let sample = out.delivered % SAMPLE_EVERY == 0;
        // Virtual cores: routing this request (its targets, records).
        crate::sync::charge_own(|c| c.route);
        for &t in router.targets(req.class) {
            let t = usize::from(t);
            blocked_ns += enqueue(&mut rec, &mut out, progress, shared, t, req.id, sample);
        }
        out.delivered += 1;
    }
    shared.close_all();
    out.scheduler_busy_ns = deliverer.busy_ns(start_ns, rec.now(), blocked_ns);
    out
}

/// Put `req` into `t`'s ready queue, blocking while it is full.
/// Returns the time spent blocked on the full queue.
fn enqueue(
    rec: &mut Recorder<'_>,
    out: &mut RunOutput,
    progress: &Progress,
    shared: &Shared<'_>,
    t: usize,
    req: RequestId,
    sample: bool,
) -> u64 {
    let mut since = None;
    let mut blocked_ns = 0;
    let len = shared.enqueue(t, req, |step| match step {
        EnqueueStep::Blocked => since = Some(rec.wait_begin(WaitReason::FullQueue, req, t as u32)),
        EnqueueStep::Done { wakeups, .. } => {
            // Inside the critical section: WaitEnd, Enqueued and the
            // worker's Dequeued keep that order in the trace.
            if let (Some(start), Some(n)) = (since, wakeups) {
                blocked_ns = rec.now().saturating_sub(start);
                rec.wait_done(WaitReason::FullQueue, req, start, n);
            }
            rec.record(EventKind::Enqueued {
                req,
                to: t as ThreadRef,
            });
        }
    });
    if sample {
        out.sample_queue(rec, progress, t as ThreadRef, len);
    }
    blocked_ns
}
