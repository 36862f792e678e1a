//! Sequential SMR, the baseline: the delivering thread itself executes the
//! stream's canonical order. No queues, no hand-off; `threads` is ignored.
//!
//! * Total order: each delivered request, in delivery order.
//! * Commits: after each commit, whatever Algorithm 2 executes then, in the
//!   canonical order (precomputed with the stream: [`Stream::runnable`]).
//! * Events: a single-threaded event loop. Deliver a root, register it,
//!   then run the FIFO of registered events until it is empty (each
//!   handler's children are registered, in order, at its end), then the
//!   next root. Event ids are that order.
//!
//! So sequential executes exactly the canonical order for every stream
//! kind, and passes the oracle by construction.
//!
//! [`Stream::runnable`]: psmr_core::Stream::runnable

use std::collections::VecDeque;

use crate::registry::Registration;
use psmr_core::exec::{RunContext, RunOutput};
use psmr_core::trace::SCHEDULER;
use psmr_core::{Family, Needs, RunError, Scheduler, SchedulerId, StreamKind, NO_REQUEST};

/// The baseline scheduler.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sequential;

/// Sequential runs every stream kind on every cell space.
pub const NEEDS: Needs = Needs {
    family: Family::Sequential,
    streams: &[StreamKind::Total, StreamKind::Commits, StreamKind::Events],
    spaces: &[],
    covering_classes: false,
    roles: &[],
    params: None,
};

/// The baseline's registration: no parameters, faults or views of its own.
pub const REGISTRATION: Registration =
    Registration::new(&[(SchedulerId::Sequential, &NEEDS)], |_, _| {
        Ok(Box::new(Sequential))
    });

impl Scheduler for Sequential {
    fn id(&self) -> SchedulerId {
        SchedulerId::Sequential
    }

    fn needs(&self) -> &'static Needs {
        &NEEDS
    }

    fn run(&self, ctx: &RunContext<'_>) -> Result<RunOutput, RunError> {
        ctx.host
            .run(0, |_| {}, || run_canonical(ctx))
            .map_err(RunError::Threads)
    }
}

/// Deliver and execute the canonical order on the calling thread.
fn run_canonical(ctx: &RunContext<'_>) -> RunOutput {
    let mut rec = ctx.recorder(SCHEDULER);
    let stream = ctx.stream;
    let mut deliverer = ctx.deliverer();
    let mut executed = 0usize;
    let mut fifo: VecDeque<u32> = VecDeque::new();
    let events = stream.kind() == StreamKind::Events;
    let start_ns = rec.now();
    while let Some(d) = deliverer.next(&mut rec) {
        if events {
            let root = stream.delivery(d).start;
            ctx.register(&mut rec, NO_REQUEST, root, 0);
            fifo.push_back(root);
            while let Some(e) = fifo.pop_front() {
                for &child in ctx.execute(&mut rec, &stream.requests[e as usize]) {
                    ctx.register(&mut rec, e, child, 0);
                    fifo.push_back(child);
                }
            }
        } else {
            let upto = stream.runnable(d as usize + 1);
            for &r in &stream.canonical[executed..upto] {
                ctx.execute(&mut rec, &stream.requests[r as usize]);
            }
            executed = upto;
        }
    }
    RunOutput {
        delivered: deliverer.delivered(),
        scheduler_busy_ns: rec
            .now()
            .saturating_sub(start_ns)
            .saturating_sub(deliverer.waited_ns()),
        ..RunOutput::default()
    }
}

#[cfg(test)]
mod tests;
