//! Late scheduling: CBASE (paper 003 section 3.2 and 6.1, paper 000
//! section 2.3), the baseline the early-scheduling papers compare against.
//!
//! The delivering thread (the *scheduler*) inserts every delivered request
//! into one dependency graph shared with the workers ([`dag`]): the request
//! gets an edge to every request still in the graph that it conflicts
//! with, at cell granularity (`Stream::conflicts`: on the key-value store a
//! write waits only for requests on its key). Workers take requests that
//! are not running and have no dependency left, execute them and remove
//! them. No classes, no mapping: the graph decides at run time.
//!
//! The graph holds at most `graph_bound` requests; the scheduler blocks
//! while it is full. Default: 50 when every request of the stream writes,
//! 150 otherwise, the sizes paper 003 section 6.1 found best for CBASE.
//!
//! Protocol note: `docs/protocols/late-dag.md`.

use psmr_core::exec::{RunContext, RunOutput};
use psmr_core::trace::{Recorder, SCHEDULER};
use psmr_core::{Family, Needs, RunError, Scheduler, SchedulerId, StreamKind};

use crate::probe::{run_workers, CtxProbe};
use crate::registry::{boxed_or_broken, BuildArgs, Fault, Registration};

pub mod dag;
pub mod params;

#[cfg(all(test, loom))]
mod loom_tests;
#[cfg(all(test, shuttle, not(loom)))]
mod shuttle_tests;
#[cfg(all(test, not(loom), not(shuttle)))]
mod tests;

use dag::Dag;
pub use params::{LateParams, MAX_GRAPH_BOUND};

/// Graph bound for a stream whose every request writes (paper 003 §6.1).
pub const WRITE_ONLY_BOUND: usize = 50;
/// Graph bound otherwise (paper 003 §6.1).
pub const MIXED_BOUND: usize = 150;

/// Name of the fault-injection variant (inserts without edges).
pub const FAULT_NAME: &str = "late-ignore-conflicts";

/// `RunOutput::extra` keys.
pub const EXTRA_BOUND: &str = "graph_bound";
/// Mean number of requests an insert compared the new one with.
pub const EXTRA_SCANNED: &str = "graph_scanned_per_insert";
/// Mean number of edges per insert.
pub const EXTRA_EDGES: &str = "graph_edges_per_insert";

/// Late scheduling runs totally ordered streams on any cells.
pub const NEEDS: Needs = Needs {
    params: Some(("late", &["graph_bound"])),
    ..Needs::new(Family::Late, &[StreamKind::Total])
};

/// `late`'s registration: its fault and the dependency-graph view.
pub const REGISTRATION: Registration = Registration {
    faults: &[Fault {
        name: FAULT_NAME,
        rule: "requests enter the graph without dependency edges",
        guard: &["if r conflicts with n: add edge"],
        only: &[],
    }],
    views: &["graph"],
    ..Registration::new(&[(SchedulerId::Late, &NEEDS)], build)
};

/// The CBASE scheduler.
#[derive(Clone, Debug, Default)]
pub struct Late {
    /// `None`: the paper's default for the stream (see the module comment).
    bound: Option<usize>,
    broken: bool,
}

impl Late {
    pub fn new(bound: Option<usize>) -> Result<Self, RunError> {
        if let Some(b) = bound {
            if b == 0 || b > MAX_GRAPH_BOUND {
                return Err(RunError::InvalidConfig(format!(
                    "graph_bound must be in 1..={MAX_GRAPH_BOUND}, got {b}"
                )));
            }
        }
        Ok(Late {
            bound,
            broken: false,
        })
    }

    /// The broken variant (fault injection): no dependency edges.
    #[cfg(any(test, feature = "fault-injection"))]
    pub fn into_broken(mut self) -> Self {
        self.broken = true;
        self
    }

    /// The bound used on `stream`.
    pub fn bound_for(&self, stream: &psmr_core::Stream) -> usize {
        self.bound.unwrap_or_else(|| {
            let write_only =
                (0..stream.len() as u32).all(|r| stream.footprint(r).iter().any(|s| s.write));
            if write_only && !stream.is_empty() {
                WRITE_ONLY_BOUND
            } else {
                MIXED_BOUND
            }
        })
    }
}

/// `build` for `late`.
pub fn build(args: &BuildArgs<'_>) -> Result<Box<dyn Scheduler>, RunError> {
    let params: LateParams = args.params();
    let late = Late::new(params.graph_bound)?;
    boxed_or_broken!(args, late, |_| late.into_broken())
}

impl Scheduler for Late {
    fn id(&self) -> SchedulerId {
        SchedulerId::Late
    }

    fn run(&self, ctx: &RunContext<'_>) -> Result<RunOutput, RunError> {
        let bound = self.bound_for(ctx.stream);
        let dag = Dag::new(bound).ignoring_conflicts(self.broken);
        let mut out = run_workers(
            ctx,
            ctx.threads,
            || deliver(ctx, &dag),
            |_, mut probe| {
                dag::worker_loop(&dag, &mut probe, |r| ctx.requests[r as usize].class);
            },
        )?;
        out.extra.push((EXTRA_BOUND.into(), bound as f64));
        Ok(out)
    }
}

/// Sample the graph size every this many deliveries.
const SAMPLE_EVERY: u32 = 16;

/// The scheduler thread: insert each delivered request, then close.
fn deliver(ctx: &RunContext<'_>, dag: &Dag) -> RunOutput {
    let mut probe = CtxProbe::new(ctx, SCHEDULER);
    let mut out = RunOutput::default();
    let mut blocked_ns = 0u64;
    let (mut scanned, mut edges) = (0u64, 0u64);
    let start_ns = probe.rec.now();
    let mut deliverer = ctx.deliverer();
    while let Some(d) = deliverer.next(&mut probe.rec) {
        let req = d;
        let ins = dag.insert(req, |other| ctx.stream.conflicts(other, req), &mut probe);
        blocked_ns += ins.blocked_ns;
        scanned += ins.scanned as u64;
        edges += ins.edges as u64;
        out.delivered += 1;
        if out.delivered % SAMPLE_EVERY == 0 {
            sample(&mut out, &mut probe.rec, ctx, dag.len());
        }
    }
    dag.close();
    let n = out.delivered.max(1) as f64;
    out.extra.push((EXTRA_SCANNED.into(), scanned as f64 / n));
    out.extra.push((EXTRA_EDGES.into(), edges as f64 / n));
    out.scheduler_busy_ns = deliverer.busy_ns(start_ns, probe.rec.now(), blocked_ns);
    out
}

/// The graph's size as the scheduler's queue length (live view, charts).
fn sample(out: &mut RunOutput, rec: &mut Recorder<'_>, ctx: &RunContext<'_>, len: usize) {
    out.sample_queue(rec, ctx.progress, SCHEDULER, len);
}
