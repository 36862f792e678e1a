//! ePaxos execution (paper 004): `epaxos`, Algorithm 2 on one executor
//! thread, and `pepaxos` ([`parallel`]), Algorithm 3 with SCCs executed by
//! a pool of workers.
//!
//! Both consume a commit stream: the delivering thread is the *commit
//! thread* (each delivery is the commit of the next instance in commit
//! order; it records the instance's seq and dependencies and never waits
//! for execution), and the sequential part of execution ([`graph`]) takes
//! committed instances in commit order, builds each one's dependency graph,
//! finds its SCCs (iterative Tarjan) in reverse topological order and sorts
//! each SCC by seq. `epaxos` executes each SCC right there, on its one
//! executor thread; `pepaxos` hands each SCC to a worker.
//!
//! Threads: `epaxos` runs one executor thread (worker 0) whatever the
//! scenario's `threads`; `pepaxos` runs `threads` workers (nWT) and one
//! auxiliary `graph-builder` thread.
//!
//! Protocol note: `docs/protocols/epaxos-scc.md`.

use psmr_core::exec::{RunContext, RunOutput};
use psmr_core::stream::CommitTable;
use psmr_core::trace::SCHEDULER;
use psmr_core::{EventKind, Family, Needs, RunError, Scheduler, SchedulerId, StreamKind};

use crate::probe::{run_workers, Probe};
use crate::registry::{boxed_or_broken, Fault, Registration};
use crate::sync::{AtomicU64, Ordering};

pub mod graph;
pub mod parallel;
pub mod params;

#[cfg(all(test, loom))]
mod loom_tests;
#[cfg(all(test, shuttle, not(loom)))]
mod shuttle_tests;
#[cfg(all(test, not(loom), not(shuttle)))]
mod tests;

use graph::{builder_loop, Builder, Instances, Sink};
pub use parallel::Pepaxos;
pub use params::EpaxosParams;

/// `RunOutput::extra` key: the sequential part's busy time per command
/// (graph building, SCC search, hand-over), in ns.
pub const EXTRA_GRAPH_NS: &str = "graph_ns_per_command";
/// `RunOutput::extra` key: SCCs executed.
pub const EXTRA_SCCS: &str = "sccs";

/// `epaxos`: commit streams only, no parameters, no auxiliary thread.
pub const NEEDS: Needs = Needs::new(Family::Epaxos, &[StreamKind::Commits]);

/// Name of `epaxos`'s fault-injection variant: each SCC's instances in
/// reverse seq order.
pub const FAULT_IGNORE_SEQ: &str = "epaxos-ignore-seq";

/// `epaxos`'s registration: its fault and the dependency-graph view.
pub const REGISTRATION: Registration = Registration {
    faults: &[Fault {
        name: FAULT_IGNORE_SEQ,
        rule: "the instances of an SCC execute in reverse seq order",
        guard: &["for each instance j of S, by (seq"],
        only: &[],
    }],
    views: &["graph"],
    ..Registration::new(&[(SchedulerId::Epaxos, &NEEDS)], |args| {
        let epaxos = Epaxos::new();
        boxed_or_broken!(args, epaxos, |_| epaxos.into_broken())
    })
};

/// The commit table of the run's stream, or why the scheduler cannot run.
fn table<'a>(ctx: &RunContext<'a>, id: SchedulerId) -> Result<&'a CommitTable, RunError> {
    ctx.stream.commits().ok_or_else(|| {
        RunError::InvalidConfig(format!(
            "`{id}` runs commit streams; this stream is a {} stream",
            ctx.stream.kind().as_str()
        ))
    })
}

/// The commit thread: each delivery commits the next instance (recorded
/// with its seq and dependencies) and wakes the builder; it never waits for
/// execution. Stops the builder at the end.
fn commit_loop(ctx: &RunContext<'_>, table: &CommitTable, inst: &Instances) -> RunOutput {
    let mut rec = ctx.recorder(SCHEDULER);
    let mut out = RunOutput::default();
    let mut deliverer = ctx.deliverer();
    while let Some(i) = deliverer.next(&mut rec) {
        if rec.tracing() {
            let deps = table.deps(i);
            rec.record(EventKind::Commit {
                instance: i,
                seq: table.seq[i as usize].min(u32::MAX as u64) as u32,
                deps: deps.len() as u32,
            });
            for &d in deps {
                rec.record(EventKind::DepEdge {
                    from: table.first[i as usize],
                    to: table.first[d as usize],
                });
            }
        }
        inst.commit(i);
        out.delivered += 1;
    }
    inst.stop();
    out
}

/// Fill what the builder measured (its busy time and SCC count) into the
/// commit thread's output.
fn finish(out: &mut RunOutput, measured: &(AtomicU64, AtomicU64), commands: usize) {
    // Relaxed: the builder stored these before the host joined its thread.
    let busy_ns = measured.0.load(Ordering::Relaxed);
    let groups = measured.1.load(Ordering::Relaxed);
    out.scheduler_busy_ns = busy_ns;
    out.extra.push((
        EXTRA_GRAPH_NS.into(),
        busy_ns as f64 / commands.max(1) as f64,
    ));
    out.extra.push((EXTRA_SCCS.into(), groups as f64));
}

/// `epaxos`: Algorithm 2, the SCCs executed by the thread that finds them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Epaxos {
    /// The broken variant: each SCC in reverse seq order.
    ignore_seq: bool,
}

impl Epaxos {
    /// The correct scheduler.
    pub const fn new() -> Self {
        Epaxos { ignore_seq: false }
    }

    /// The broken variant (fault injection): the instances of each SCC run
    /// in reverse seq order, so two conflicting instances of one SCC run
    /// out of order on every run.
    #[cfg(any(test, feature = "fault-injection"))]
    pub const fn into_broken(self) -> Self {
        Epaxos { ignore_seq: true }
    }
}

/// Executes each SCC at once, instance by instance in seq order (Algorithm
/// 2 lines 20-25); in reverse with `ignore_seq` (the broken variant).
pub struct Inline<'a> {
    pub table: &'a CommitTable,
    pub inst: &'a Instances,
    pub class_of: &'a (dyn Fn(u32) -> u16 + Sync),
    pub ignore_seq: bool,
}

impl<P: Probe> Sink<P> for Inline<'_> {
    fn scc(&mut self, group: u32, _position: u32, members: &[u32], probe: &mut P) -> u64 {
        let t0 = probe.now_ns();
        probe.record(EventKind::SccStart {
            group,
            size: members.len() as u32,
        });
        let mut run = |m: u32| {
            for r in self.table.commands(m) {
                probe.execute(r, (self.class_of)(r));
            }
            self.inst.executed(m);
        };
        if self.ignore_seq {
            members.iter().rev().for_each(|&m| run(m));
        } else {
            members.iter().for_each(|&m| run(m));
        }
        probe.record(EventKind::SccEnd { group });
        probe.now_ns().saturating_sub(t0)
    }
}

impl Scheduler for Epaxos {
    fn id(&self) -> SchedulerId {
        SchedulerId::Epaxos
    }

    fn run(&self, ctx: &RunContext<'_>) -> Result<RunOutput, RunError> {
        let table = table(ctx, SchedulerId::Epaxos)?;
        let inst = Instances::new(table.instances());
        let measured = (AtomicU64::new(0), AtomicU64::new(0));
        let class_of = |r: u32| ctx.requests[r as usize].class;
        let driver = || commit_loop(ctx, table, &inst);
        let mut out = run_workers(ctx, 1, driver, |_, mut probe| {
            let mut builder = Builder::new(table);
            let mut sink = Inline {
                table,
                inst: &inst,
                class_of: &class_of,
                ignore_seq: self.ignore_seq,
            };
            builder_loop(&inst, &mut builder, &mut sink, &mut probe);
            // Relaxed: read after the host joined this thread.
            measured.0.store(builder.busy_ns, Ordering::Relaxed);
            measured.1.store(builder.groups() as u64, Ordering::Relaxed);
        })?;
        finish(&mut out, &measured, ctx.stream.len());
        Ok(out)
    }
}
