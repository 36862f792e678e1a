//! Event-coloring runtimes (paper 002): `libasync` (Libasync-smp, section
//! II) and `mely` (Mely, sections III-IV). One thread per core runs event
//! handlers; events carry a color; events of one color run one at a time,
//! in registration order, and different colors may run at once. A handler
//! registers new events (continuations), of any color, and the runtime
//! decides on which core they go. Idle cores steal whole colors.
//!
//! * [`runtime`]: what both share: cores, the color table that keeps each
//!   color on one core at a time, registration (any core into any core's
//!   queue), sleeping without a lost wake-up, termination, the steal loop;
//! * [`libasync`]: one FIFO per core and section II-B's stealing;
//! * [`mely`]: color-queues, batching, the stealing queue and the three
//!   heuristics;
//! * [`worker`]: the core thread's loop;
//! * this module: the driver (delivers root events), parameters, metrics
//!   and the [`Scheduler`] implementations.
//!
//! Protocol note: `docs/protocols/event-coloring.md`.
//!
//! Bounds: a delivered root waits while the core it goes to holds
//! `queue_capacity` events or more. Events registered by handlers never
//! wait (a handler blocked on a full queue could deadlock two cores that
//! register into each other), so a queue holds at most `queue_capacity`
//! roots' worth plus the events of the trees already admitted: at most the
//! events of the delivered trees.

use psmr_core::exec::{QueueSample, RunContext, RunOutput};
use psmr_core::trace::{Counter, SCHEDULER};
use psmr_core::{
    EventKind, Family, Needs, RequestId, RunError, Scheduler, SchedulerId, SpaceKind, StreamKind,
    ThreadRef, WaitReason,
};

use crate::params::{DEFAULT_QUEUE_CAPACITY, MAX_QUEUE_CAPACITY};
use crate::probe::{run_workers, CtxProbe, Probe};
use crate::registry::{boxed_or_broken, BuildArgs, Fault, Registration};
use crate::spin::SpinPolicy;

pub mod libasync;
pub mod mely;
pub mod params;
pub mod runtime;
pub mod worker;

#[cfg(all(test, loom))]
mod loom_tests;
#[cfg(all(test, shuttle, not(loom)))]
mod shuttle_tests;
#[cfg(all(test, not(loom), not(shuttle)))]
mod tests;

use libasync::Libasync;
use mely::Mely;
pub use params::{ColoringParams, MAX_BATCH};
use runtime::{Discipline, EventProbe, Refusal, Runtime, Tally, ROOT};
use worker::Worker;

/// `libasync` runs event streams over colors.
pub const NEEDS_LIBASYNC: Needs = Needs {
    spaces: &[SpaceKind::Colors],
    params: Some(("coloring", &["stealing", "queue_capacity", "spin"])),
    ..Needs::new(Family::Coloring, &[StreamKind::Events])
};

/// `mely` too, with its batching and heuristics.
pub const NEEDS_MELY: Needs = Needs {
    spaces: &[SpaceKind::Colors],
    params: Some((
        "coloring",
        &[
            "stealing",
            "batch",
            "locality",
            "time_left",
            "penalty",
            "cores_per_cache",
            "steal_cost_ns",
            "queue_capacity",
            "spin",
        ],
    )),
    ..Needs::new(Family::Coloring, &[StreamKind::Events])
};

/// The name `SchedulerSpec::fault` uses for the broken variant: a stealer
/// that takes the color its victim is running.
pub const FAULT_STEAL_RUNNING: &str = "steal-running";

/// `libasync` and `mely`, their fault, and the Colors & steals view.
pub const REGISTRATION: Registration = Registration {
    faults: &[Fault {
        name: FAULT_STEAL_RUNNING,
        rule: "a stealer takes the color its victim is executing",
        guard: &[
            "if v holds fewer than two colors",
            "c ← a color of the highest",
        ],
        only: &[],
    }],
    views: &["coloring"],
    ..Registration::new(
        &[
            (SchedulerId::Libasync, &NEEDS_LIBASYNC),
            (SchedulerId::Mely, &NEEDS_MELY),
        ],
        build,
    )
};

/// Default steal cost assumed before any steal was measured (ns).
pub const DEFAULT_STEAL_COST_NS: u32 = 1000;

/// Metric names in `RunOutput::extra` (paper 002 Tables I, III, IV).
pub mod metric {
    /// Mean time of one successful steal, ns (Table I, first column).
    pub const STEAL_COST_NS: &str = "steal_cost_ns_mean";
    /// Mean measured processing time of the events one steal moved, ns
    /// (Table I, second column; Table IV's "stolen time").
    pub const STOLEN_TIME_NS: &str = "stolen_time_ns_mean";
    /// Mean annotated time left of what one steal moved, ns.
    pub const STOLEN_LEFT_NS: &str = "stolen_left_ns_mean";
    /// Share of the cores' time spent in the runtime: neither running
    /// handlers nor idle (Table III's overhead).
    pub const RUNTIME_SHARE: &str = "runtime_share";
    /// Share of the cores' time blocked on contended core locks (Table
    /// III's "locking time" counts the time holding them too).
    pub const LOCK_WAIT_SHARE: &str = "lock_wait_share";
    /// Share of the cores' time idle (spinning, yielding, asleep).
    pub const IDLE_SHARE: &str = "idle_share";
    /// Victims looked at.
    pub const STEAL_TRIES: &str = "steal_tries";
}

/// Which runtime.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Libasync,
    Mely(Mely),
}

/// An event-coloring runtime, ready to run.
#[derive(Clone, Debug)]
pub struct Coloring {
    id: SchedulerId,
    kind: Kind,
    stealing: bool,
    capacity: usize,
    spin: SpinPolicy,
    fault_steal_running: bool,
}

impl Coloring {
    /// `libasync` or `mely` with `params`.
    pub fn from_params(id: SchedulerId, p: &ColoringParams) -> Result<Self, RunError> {
        let capacity = p.queue_capacity.unwrap_or(DEFAULT_QUEUE_CAPACITY);
        if capacity == 0 || capacity > MAX_QUEUE_CAPACITY {
            return Err(RunError::InvalidConfig(format!(
                "queue_capacity must be in 1..={MAX_QUEUE_CAPACITY}, got {capacity}"
            )));
        }
        let steal_cost_ns = p.steal_cost_ns.unwrap_or(DEFAULT_STEAL_COST_NS) as u64;
        let kind = match id {
            SchedulerId::Libasync => Kind::Libasync,
            SchedulerId::Mely => {
                let d = Mely::default();
                let m = Mely {
                    batch: p.batch.unwrap_or(d.batch),
                    locality: p.locality.unwrap_or(d.locality),
                    time_left: p.time_left.unwrap_or(d.time_left),
                    penalty: p.penalty.unwrap_or(d.penalty),
                    cores_per_cache: p.cores_per_cache.unwrap_or(d.cores_per_cache),
                    unit_ns: steal_cost_ns.max(1),
                };
                if m.batch == 0 || m.batch > MAX_BATCH || m.cores_per_cache == 0 {
                    return Err(RunError::InvalidConfig(format!(
                        "batch must be in 1..={MAX_BATCH} and cores_per_cache at least 1, got {} and {}",
                        m.batch, m.cores_per_cache
                    )));
                }
                Kind::Mely(m)
            }
            other => {
                return Err(RunError::InvalidConfig(format!(
                    "`{other}` is not an event-coloring runtime"
                )))
            }
        };
        Ok(Coloring {
            id,
            kind,
            stealing: p.stealing.unwrap_or(true),
            capacity,
            spin: p.spin.unwrap_or_default(),
            fault_steal_running: false,
        })
    }

    /// The broken variant: stealers take the color being executed.
    #[cfg(any(test, feature = "fault-injection"))]
    pub fn into_broken(mut self) -> Self {
        self.fault_steal_running = true;
        self
    }
}

/// `build` for `libasync` and `mely`.
pub fn build(args: &BuildArgs<'_>) -> Result<Box<dyn Scheduler>, RunError> {
    let rt = Coloring::from_params(args.id, &args.params())?;
    boxed_or_broken!(args, rt, |_| rt.into_broken())
}

impl Scheduler for Coloring {
    fn id(&self) -> SchedulerId {
        self.id
    }

    fn run(&self, ctx: &RunContext<'_>) -> Result<RunOutput, RunError> {
        match self.kind {
            Kind::Libasync => self.run_with(ctx, Libasync),
            Kind::Mely(m) => self.run_with(ctx, m),
        }
    }
}

impl Coloring {
    fn run_with<D: Discipline>(&self, ctx: &RunContext<'_>, d: D) -> Result<RunOutput, RunError> {
        let mut rt = Runtime::new(ctx.requests, ctx.threads, d);
        rt.fault_steal_running = self.fault_steal_running;
        let done = std::sync::Mutex::new(Vec::with_capacity(ctx.threads));
        let driver = || drive(ctx, &rt, self.capacity, self.spin);
        let mut out = run_workers(ctx, ctx.threads, driver, |i, probe| {
            let w = Worker::new(i, &rt, CoreProbe::wrap(probe), self.stealing, self.spin);
            let (tally, probe) = w.run();
            done.lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((tally, probe.samples));
        })?;
        let mut total = Tally::default();
        for (t, samples) in done.into_inner().unwrap_or_else(|e| e.into_inner()) {
            total.add(&t);
            let room = RunOutput::MAX_QUEUE_SAMPLES.saturating_sub(out.queue_samples.len());
            out.queue_samples.extend(samples.into_iter().take(room));
        }
        out.queue_samples.sort_by_key(|s| (s.t_ns, s.thread));
        report(&mut out, &total);
        Ok(out)
    }
}

/// The driver: deliver each root event into the queue of the core its
/// color goes to (waiting while that core holds `capacity` events or more),
/// then say how many events the delivered trees hold.
fn drive<D: Discipline>(
    ctx: &RunContext<'_>,
    rt: &Runtime<'_, D>,
    capacity: usize,
    spin: SpinPolicy,
) -> RunOutput {
    let mut p = CoreProbe::new(ctx, SCHEDULER);
    let mut t = Tally::default();
    let mut d = ctx.deliverer();
    let start = p.now();
    let mut blocked_ns = 0;
    while let Some(unit) = d.next(&mut p.inner.rec) {
        let root = ctx.stream.delivery(unit).start;
        blocked_ns += wait_for_room(rt, root, capacity, spin, &mut p);
        rt.register(&mut p, &mut t, None, ROOT, root);
    }
    rt.finish(
        ctx.stream.runnable(d.delivered() as usize) as u64,
        &p,
        &mut t,
    );
    RunOutput {
        delivered: d.delivered(),
        scheduler_busy_ns: d.busy_ns(start, p.now(), blocked_ns),
        ..RunOutput::default()
    }
}

/// Wait (bounded backoff) while the core `root` would go to holds
/// `capacity` events or more; returns the time waited.
fn wait_for_room<D: Discipline>(
    rt: &Runtime<'_, D>,
    root: RequestId,
    capacity: usize,
    spin: SpinPolicy,
    p: &mut CoreProbe<'_, '_>,
) -> u64 {
    let full = |rt: &Runtime<'_, D>| rt.queued(rt.target_of(root)) as usize >= capacity;
    if !full(rt) {
        return 0;
    }
    let k = rt.target_of(root) as u32;
    let t0 = p.wait_begin(WaitReason::FullQueue, root, k);
    let mut b = crate::spin::Backoff::new(spin);
    b.wait_until(|| !full(rt));
    p.wait_done(WaitReason::FullQueue, root, t0, b.spins);
    p.now().saturating_sub(t0)
}

/// Put the run's stealing numbers in the output (see [`metric`]).
fn report(out: &mut RunOutput, t: &Tally) {
    let per_steal = |x: u64| {
        if t.steals == 0 {
            0.0
        } else {
            x as f64 / t.steals as f64
        }
    };
    let share = |x: u64| {
        if t.life_ns == 0 {
            0.0
        } else {
            x as f64 / t.life_ns as f64
        }
    };
    let runtime = t
        .life_ns
        .saturating_sub(t.exec_ns)
        .saturating_sub(t.park_ns);
    let mut put = |k: &str, v: f64| out.extra.push((k.to_string(), v));
    put(metric::STEAL_COST_NS, per_steal(t.steal_ns));
    put(metric::STOLEN_TIME_NS, per_steal(t.stolen_exec_ns));
    put(metric::STOLEN_LEFT_NS, per_steal(t.stolen_left_ns));
    put(metric::RUNTIME_SHARE, share(runtime));
    put(metric::LOCK_WAIT_SHARE, share(t.lock_wait_ns));
    put(metric::IDLE_SHARE, share(t.park_ns));
    put(metric::STEAL_TRIES, t.tries as f64);
    for r in Refusal::ALL {
        put(r.metric(), t.refused[r as usize] as f64);
    }
}

/// The probe of a real run's core (or driver): a [`CtxProbe`] plus the
/// thread's queue samples.
pub struct CoreProbe<'c, 'a> {
    pub inner: CtxProbe<'c, 'a>,
    /// Queue lengths sampled (bounded by `RunOutput::MAX_QUEUE_SAMPLES`).
    pub samples: Vec<QueueSample>,
}

impl<'c, 'a> CoreProbe<'c, 'a> {
    pub fn new(ctx: &'c RunContext<'a>, thread: ThreadRef) -> Self {
        Self::wrap(CtxProbe::new(ctx, thread))
    }

    /// A core's probe over the thread's run probe, no samples yet.
    pub fn wrap(inner: CtxProbe<'c, 'a>) -> Self {
        CoreProbe {
            inner,
            samples: Vec::new(),
        }
    }
}

impl Probe for CoreProbe<'_, '_> {
    fn execute(&mut self, req: RequestId, class: psmr_core::ClassId) {
        self.inner.execute(req, class);
    }
    fn record(&mut self, kind: EventKind) {
        self.inner.record(kind);
    }
    fn wait_begin(&mut self, reason: WaitReason, req: RequestId, on: u32) -> u64 {
        self.inner.wait_begin(reason, req, on)
    }
    fn wait_done(&mut self, reason: WaitReason, req: RequestId, start_ns: u64, spins: u32) {
        self.inner.wait_done(reason, req, start_ns, spins);
    }
    fn count(&mut self, c: Counter, n: u64) {
        self.inner.count(c, n);
    }
    fn now_ns(&self) -> u64 {
        self.inner.now_ns()
    }
}

impl<'a> EventProbe<'a> for CoreProbe<'_, 'a> {
    fn run_event(&mut self, e: RequestId) -> &'a [RequestId] {
        self.inner.execute_event(e)
    }
    fn admit(&mut self, parent: RequestId, child: RequestId) {
        self.admit_on(parent, child, 0);
    }
    fn admit_on(&mut self, parent: RequestId, child: RequestId, core: usize) {
        self.inner
            .ctx
            .register(&mut self.inner.rec, parent, child, core);
    }
    fn now(&self) -> u64 {
        self.inner.rec.now()
    }
    fn tracing(&self) -> bool {
        self.inner.rec.tracing()
    }
    fn sample_queue(&mut self, len: u32) {
        let thread = self.inner.rec.thread;
        self.inner.ctx.progress.set_queue_len(thread, len as usize);
        if self.samples.len() < RunOutput::MAX_QUEUE_SAMPLES {
            let t_ns = self.inner.rec.now();
            self.samples.push(QueueSample { t_ns, thread, len });
            self.inner
                .rec
                .record_at(EventKind::QueueLen { of: thread, len }, t_ns);
        }
    }
}
