//! PePaxos (paper 004 Algorithm 3): the graph builder hands each SCC to a
//! worker as soon as it is found; at most nWT SCCs are in flight (the
//! paper's counting semaphore); a worker executes an SCC's instances in seq
//! order once the SCCs it depends on have finished.
//!
//! The paper starts a goroutine per SCC, bounded by the semaphore. Here the
//! threads are a fixed pool: nWT workers, fed through a FIFO by the builder
//! (an auxiliary thread), the semaphore unchanged. A worker's life is the
//! life of the paper's goroutine repeated: take an SCC, run lines 27-33,
//! release the credit. What a run measures carries over: at most nWT SCCs
//! execute at once in both, the builder blocks on the semaphore in both,
//! and the order constraints are the same; the pool only saves the cost of
//! starting a thread per SCC (which paper 004 blames for PePaxos's losses
//! on the 1-entry list, so our results there are a little kinder to it).
//!
//! The wait before an SCC ([`WaitRule::Scc`]): Algorithm 3 lines 29-30 wait,
//! before each instance, for its direct dependencies outside the SCC. That
//! is enough when an instance's dependencies name every interfering
//! instance before it, as the per-replica dependencies of the Go
//! implementation do. With minimal dependencies (each instance names only
//! the latest interfering ones, as the lab's simulator and many
//! implementations keep them) an instance can conflict with an earlier
//! SCC only through a member of its own SCC that comes later by seq; the
//! oracle caught the literal rule on a simulated list workload (test
//! `per_instance_waits_on_direct_dependencies_are_not_enough`). So a worker
//! waits, before the SCC's first instance, until every SCC that a member
//! depends on has *finished*; by induction everything the SCC reaches has
//! then executed. The literal rule stays as a fault-injection variant.
//!
//! Why no instance runs twice or early, and why nothing deadlocks:
//! `docs/protocols/epaxos-scc.md` (and the loom model in `loom_tests.rs`).
//!
//! * twice: only the builder takes instances, and it never takes one that
//!   is `EXECUTING` or `EXECUTED` (graph.rs).
//! * early: a member's dependency is in an earlier SCC of the same graph
//!   or was taken by an earlier graph (the search skipped it); both were
//!   handed over before this SCC. The worker waits until those SCCs are
//!   done (Acquire), which their workers store after running every member
//!   (Release). Inside the SCC the order is seq.
//! * deadlock: the FIFO hands SCCs out in the order they were found, so a
//!   waited-for SCC was taken by a worker before the waiting one; at most
//!   nWT are in flight and there are nWT workers, so every SCC in flight
//!   has a worker, and waits follow dependency order, which is acyclic
//!   between SCCs.

use psmr_core::exec::{RunContext, RunOutput};
use psmr_core::stream::CommitTable;
use psmr_core::trace::{Counter, AUX_BASE};
use psmr_core::{EventKind, Family, Needs, RunError, Scheduler, SchedulerId, StreamKind};
use psmr_core::{ThreadRef, WaitReason, NO_REQUEST};

use super::graph::{builder_loop, Builder, Instances, Sink, EXECUTED};
use super::params::EpaxosParams;
use super::{commit_loop, finish, table};
use crate::probe::{CtxProbe, Probe};
use crate::queue::BoundedFifo;
use crate::registry::{boxed_or_broken, BuildArgs, Fault, Registration};
use crate::spin::Backoff;
use crate::spin::SpinPolicy;
use crate::sync::{AtomicU32, AtomicU64, Condvar, Mutex, Ordering};

/// Fault-injection variant: workers start SCCs without any wait.
pub const FAULT_NO_WAIT: &str = "pepaxos-skip-scc-wait";
/// Fault-injection variant: Algorithm 3 lines 29-30 literally (each
/// instance waits for its direct dependencies outside its SCC only).
pub const FAULT_PER_INSTANCE: &str = "pepaxos-per-instance-wait";

/// What a worker waits for before executing an SCC's instances.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WaitRule {
    /// Before the first instance, until every SCC a member depends on has
    /// finished (correct with minimal dependencies; see the module comment).
    #[default]
    Scc,
    /// Before each instance, until its direct dependencies outside the SCC
    /// are executed (the paper's lines 29-30; broken with minimal
    /// dependencies, fault injection only).
    PerInstance,
    /// No wait at all (broken, fault injection only).
    None,
}

/// Most workers (nWT) a run may have (paper 004 goes up to 64).
pub const MAX_NWT: usize = 64;

/// `pepaxos`: commit streams; its parameters in `epaxos`; one auxiliary
/// thread that builds the graphs.
pub const NEEDS: Needs = Needs {
    roles: &["graph-builder"],
    params: Some(("epaxos", &["spin"])),
    ..Needs::new(Family::Epaxos, &[StreamKind::Commits])
};

/// `pepaxos`'s registration: its two faults and the dependency-graph view.
pub const REGISTRATION: Registration = Registration {
    faults: &[
        Fault {
            name: FAULT_NO_WAIT,
            rule: "workers start an SCC without waiting for the SCCs it depends on",
            guard: &["wait until T has finished"],
            only: &[],
        },
        Fault {
            name: FAULT_PER_INSTANCE,
            rule: "each instance waits only for its direct dependencies outside its SCC",
            guard: &["for each SCC T that an instance of S depends on"],
            only: &[],
        },
    ],
    views: &["graph"],
    ..Registration::new(&[(SchedulerId::Pepaxos, &NEEDS)], build)
};

/// The counting semaphore of Algorithm 3 line 14: `credit` SCCs may still
/// be started. A mutex-guarded counter with a condition variable; the
/// builder is the only one that takes credit (`down`), workers give it
/// back (`up`), so `waiting` is a flag.
#[derive(Debug)]
pub struct Semaphore {
    state: Mutex<(u32, bool)>,
    cv: Condvar,
}

impl Semaphore {
    pub fn new(credit: u32) -> Self {
        Semaphore {
            state: Mutex::new((credit, false)),
            cv: Condvar::new(),
        }
    }

    /// Take one credit, blocking while there is none (line 36). `on_block`
    /// runs once, under the lock, before the first block.
    pub fn down(&self, on_block: impl FnOnce()) -> bool {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let blocked = st.0 == 0;
        if blocked {
            on_block();
        }
        while st.0 == 0 {
            st.1 = true;
            st = self.cv.wait(st).unwrap_or_else(|p| p.into_inner());
        }
        st.1 = false;
        st.0 -= 1;
        blocked
    }

    /// Give one credit back (line 33) and wake the builder if it waits.
    pub fn up(&self) {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        st.0 += 1;
        if st.1 {
            self.cv.notify_one();
        }
    }
}

/// An SCC handed to the pool: its group and where its members (sorted by
/// seq) sit in `Pool::members` (private).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    pub group: u32,
    pub at: u32,
    pub len: u32,
}

/// What the builder and the workers share.
#[derive(Debug)]
pub struct Pool<'t> {
    pub table: &'t CommitTable,
    pub inst: Instances,
    pub credit: Semaphore,
    pub jobs: BoundedFifo<Job>,
    /// Every instance's place in the SCC order, written once by the builder
    /// (Relaxed: the job queue's mutex orders the writes before a worker
    /// pops a job, and a worker reads only members of jobs handed over).
    members: Vec<AtomicU32>,
    /// The group of every taken instance (same publication as `members`).
    group_of: Vec<AtomicU32>,
    /// Per group: 1 once every member executed (Release by its worker,
    /// Acquire by a waiting one).
    group_done: Vec<AtomicU32>,
    rule: WaitRule,
}

impl<'t> Pool<'t> {
    /// State for `table` with `nwt` workers waiting by `rule` (anything but
    /// [`WaitRule::Scc`] is reachable only through fault injection).
    pub fn new(table: &'t CommitTable, nwt: usize, rule: WaitRule) -> Self {
        let n = table.instances();
        Pool {
            table,
            inst: Instances::new(n),
            credit: Semaphore::new(nwt.max(1) as u32),
            jobs: BoundedFifo::new(nwt.max(1)),
            members: (0..n).map(|_| AtomicU32::new(0)).collect(),
            group_of: (0..n).map(|_| AtomicU32::new(u32::MAX)).collect(),
            group_done: (0..n).map(|_| AtomicU32::new(0)).collect(),
            rule,
        }
    }

    fn member(&self, k: u32) -> u32 {
        self.members[k as usize].load(Ordering::Relaxed)
    }
}

/// The builder's sink: one credit, then the SCC into the FIFO.
pub struct Dispatch<'p, 't> {
    pub pool: &'p Pool<'t>,
    /// Next free place in `pool.members`.
    at: u32,
}

impl<'p, 't> Dispatch<'p, 't> {
    pub fn new(pool: &'p Pool<'t>) -> Self {
        Dispatch { pool, at: 0 }
    }
}

impl<P: Probe> Sink<P> for Dispatch<'_, '_> {
    fn scc(&mut self, group: u32, _position: u32, members: &[u32], probe: &mut P) -> u64 {
        let pool = self.pool;
        let first = pool.table.first[members[0] as usize];
        let mut wait = None;
        // Line 36: a credit per SCC in flight.
        pool.credit.down(|| {
            wait = Some(probe.wait_begin(WaitReason::Semaphore, first, NO_REQUEST));
        });
        let mut away = 0;
        if let Some(t) = wait {
            away = probe.now_ns().saturating_sub(t);
            probe.wait_done(WaitReason::Semaphore, first, t, 0);
        }
        for (k, &m) in members.iter().enumerate() {
            pool.members[self.at as usize + k].store(m, Ordering::Relaxed);
            pool.group_of[m as usize].store(group, Ordering::Relaxed);
        }
        let job = Job {
            group,
            at: self.at,
            len: members.len() as u32,
        };
        self.at += job.len;
        // Line 37: at most nWT jobs exist (one credit each), so the FIFO of
        // nWT places never blocks here.
        pool.jobs.push(job, |_| {});
        away
    }
}

/// A worker: lines 26-33 for every SCC it takes, until the builder closes
/// the FIFO.
pub fn worker_loop<P: Probe>(
    pool: &Pool<'_>,
    probe: &mut P,
    spin: SpinPolicy,
    class_of: impl Fn(u32) -> u16,
) {
    loop {
        let mut idle = None;
        let job = pool.jobs.pop(|| {
            idle = Some(probe.wait_begin(WaitReason::EmptyQueue, NO_REQUEST, NO_REQUEST));
        });
        if let Some(t) = idle {
            probe.wait_done(WaitReason::EmptyQueue, NO_REQUEST, t, 0);
        }
        let Some(job) = job else { break };
        run_scc(pool, job, probe, spin, &class_of);
        // Line 33.
        pool.credit.up();
    }
}

/// Lines 27-32: the SCC's instances in seq order, after the wait its rule
/// asks for.
fn run_scc<P: Probe>(
    pool: &Pool<'_>,
    job: Job,
    probe: &mut P,
    spin: SpinPolicy,
    class_of: &impl Fn(u32) -> u16,
) {
    probe.record(EventKind::SccStart {
        group: job.group,
        size: job.len,
    });
    if pool.rule == WaitRule::Scc {
        for k in job.at..job.at + job.len {
            let m = pool.member(k);
            for &d in pool.table.deps(m) {
                let g = pool.group_of[d as usize].load(Ordering::Relaxed);
                if g != job.group {
                    wait_for(pool, m, d, probe, spin, |p| {
                        p.group_done[g as usize].load(Ordering::Acquire) == 1
                    });
                }
            }
        }
    }
    for k in job.at..job.at + job.len {
        let m = pool.member(k);
        if pool.rule == WaitRule::PerInstance {
            for &d in pool.table.deps(m) {
                if pool.group_of[d as usize].load(Ordering::Relaxed) != job.group {
                    wait_for(pool, m, d, probe, spin, |p| p.inst.state(d) == EXECUTED);
                }
            }
        }
        for r in pool.table.commands(m) {
            probe.execute(r, class_of(r));
        }
        pool.inst.executed(m);
    }
    // Release: a worker that sees the group done sees every execution of
    // its members.
    pool.group_done[job.group as usize].store(1, Ordering::Release);
    probe.record(EventKind::SccEnd { group: job.group });
}

/// Busy-wait (bounded: spin, yield, park; the paper busy-waits) until
/// `done`; traced as an `scc` wait of `m`'s first command on `d`'s first
/// command.
fn wait_for<P: Probe>(
    pool: &Pool<'_>,
    m: u32,
    d: u32,
    probe: &mut P,
    spin: SpinPolicy,
    done: impl Fn(&Pool<'_>) -> bool + Sync,
) {
    if done(pool) {
        return;
    }
    let (req, on) = (pool.table.first[m as usize], pool.table.first[d as usize]);
    let t = probe.wait_begin(WaitReason::Scc, req, on);
    probe.count(Counter::DependencyWaits, 1);
    let mut backoff = Backoff::new(spin);
    backoff.wait_until(|| done(pool));
    probe.count(Counter::Spins, backoff.spins as u64);
    probe.count(Counter::Yields, backoff.yields as u64);
    probe.count(Counter::Parks, backoff.parks as u64);
    probe.wait_done(WaitReason::Scc, req, t, backoff.spins);
}

/// The builder's life: build graphs as instances commit, dispatch SCCs,
/// then close the FIFO so the workers end. Returns its busy time and the
/// number of SCCs.
pub fn builder_thread<P: Probe>(pool: &Pool<'_>, probe: &mut P) -> (u64, u32) {
    let mut builder = Builder::new(pool.table);
    let mut sink = Dispatch::new(pool);
    builder_loop(&pool.inst, &mut builder, &mut sink, probe);
    pool.jobs.close();
    (builder.busy_ns, builder.groups())
}

/// `pepaxos`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pepaxos {
    spin: SpinPolicy,
    rule: WaitRule,
}

impl Pepaxos {
    pub fn new(spin: SpinPolicy) -> Self {
        Pepaxos {
            spin,
            rule: WaitRule::Scc,
        }
    }

    /// A broken variant: SCCs wait by `rule` instead of for the SCCs they
    /// depend on (fault injection).
    #[cfg(any(test, feature = "fault-injection"))]
    pub fn into_broken(mut self, rule: WaitRule) -> Self {
        self.rule = rule;
        self
    }
}

/// `build` for `pepaxos`.
pub fn build(args: &BuildArgs<'_>) -> Result<Box<dyn Scheduler>, RunError> {
    let params: EpaxosParams = args.params();
    let p = Pepaxos::new(params.spin.unwrap_or_default());
    // The two faults the registration declares.
    boxed_or_broken!(args, p, |fault| p.into_broken(
        if fault.name == FAULT_NO_WAIT {
            WaitRule::None
        } else {
            WaitRule::PerInstance
        }
    ))
}

impl Scheduler for Pepaxos {
    fn id(&self) -> SchedulerId {
        SchedulerId::Pepaxos
    }

    fn run(&self, ctx: &RunContext<'_>) -> Result<RunOutput, RunError> {
        let table = table(ctx, SchedulerId::Pepaxos)?;
        if ctx.threads == 0 || ctx.threads > MAX_NWT {
            return Err(RunError::InvalidConfig(format!(
                "pepaxos runs 1..={MAX_NWT} workers (nWT), not {}",
                ctx.threads
            )));
        }
        let pool = Pool::new(table, ctx.threads, self.rule);
        let measured = (AtomicU64::new(0), AtomicU64::new(0));
        let mut out = ctx
            .host
            .run_team(
                ctx.threads,
                1,
                |i| {
                    let mut probe = CtxProbe::new(ctx, i as ThreadRef);
                    worker_loop(&pool, &mut probe, self.spin, |r| {
                        ctx.requests[r as usize].class
                    });
                },
                |k| {
                    let mut probe = CtxProbe::new(ctx, AUX_BASE + k as ThreadRef);
                    let (busy, groups) = builder_thread(&pool, &mut probe);
                    // Relaxed: read after the host joined this thread.
                    measured.0.store(busy, Ordering::Relaxed);
                    measured.1.store(groups as u64, Ordering::Relaxed);
                },
                || commit_loop(ctx, table, &pool.inst),
            )
            .map_err(RunError::Threads)?;
        finish(&mut out, &measured, ctx.stream.len());
        Ok(out)
    }
}
