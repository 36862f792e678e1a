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
//! Its broken variant ([`FAULT_NAME`], fault injection only) executes each
//! two consecutive requests (or events) of that order in reverse, so any
//! such pair that conflicts is caught by the oracle, on every run.
//!
//! [`Stream::runnable`]: psmr_core::Stream::runnable

use std::collections::VecDeque;

use crate::probe::run_workers;
use crate::registry::{boxed_or_broken, BuildArgs, Fault, Registration};
use psmr_core::exec::{RunContext, RunOutput};
use psmr_core::trace::SCHEDULER;
use psmr_core::{Family, Needs, RunError, Scheduler, SchedulerId, StreamKind, NO_REQUEST};

/// The baseline scheduler.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sequential {
    /// The broken variant: each two consecutive requests swapped.
    swap_pairs: bool,
}

/// Name of the fault-injection variant (pairs executed in reverse).
pub const FAULT_NAME: &str = "seq-swap-pairs";

impl Sequential {
    /// The correct baseline.
    pub const fn new() -> Self {
        Sequential { swap_pairs: false }
    }

    /// The broken variant (fault injection): each two consecutive requests
    /// of the canonical order executed in reverse.
    #[cfg(any(test, feature = "fault-injection"))]
    pub const fn into_broken(self) -> Self {
        Sequential { swap_pairs: true }
    }
}

/// Sequential runs every stream kind on every cell space.
pub const NEEDS: Needs = Needs::new(
    Family::Sequential,
    &[StreamKind::Total, StreamKind::Commits, StreamKind::Events],
);

/// The baseline's registration: no parameters or views of its own, one
/// fault.
pub const REGISTRATION: Registration = Registration {
    faults: &[Fault {
        name: FAULT_NAME,
        rule: "each two consecutive requests execute in reverse delivery order",
        guard: &["execute r"],
        only: &[],
    }],
    ..Registration::new(&[(SchedulerId::Sequential, &NEEDS)], build)
};

/// `build` for `sequential`.
fn build(args: &BuildArgs<'_>) -> Result<Box<dyn Scheduler>, RunError> {
    let s = Sequential::new();
    boxed_or_broken!(args, s, |_| s.into_broken())
}

impl Scheduler for Sequential {
    fn id(&self) -> SchedulerId {
        SchedulerId::Sequential
    }

    fn run(&self, ctx: &RunContext<'_>) -> Result<RunOutput, RunError> {
        run_workers(ctx, 0, || run_canonical(ctx, self.swap_pairs), |_, _| {})
    }
}

/// Deliver and execute the canonical order on the calling thread (with
/// `swap`, the broken variant: each two consecutive requests in reverse).
fn run_canonical(ctx: &RunContext<'_>, swap: bool) -> RunOutput {
    let mut rec = ctx.recorder(SCHEDULER);
    let stream = ctx.stream;
    let mut deliverer = ctx.deliverer();
    let mut executed = 0usize;
    let mut fifo: VecDeque<u32> = VecDeque::new();
    let mut held: Option<u32> = None;
    let events = stream.kind() == StreamKind::Events;
    let start_ns = rec.now();
    while let Some(d) = deliverer.next(&mut rec) {
        if events {
            let root = stream.delivery(d).start;
            ctx.register(&mut rec, NO_REQUEST, root, 0);
            fifo.push_back(root);
            while let Some(first) = fifo.pop_front() {
                let second = if swap { fifo.pop_front() } else { None };
                for e in second.into_iter().chain([first]) {
                    for &child in ctx.execute(&mut rec, &stream.requests[e as usize]) {
                        ctx.register(&mut rec, e, child, 0);
                        fifo.push_back(child);
                    }
                }
            }
        } else {
            let upto = stream.runnable(d as usize + 1);
            for &r in &stream.canonical[executed..upto] {
                match held.take() {
                    Some(h) => {
                        ctx.execute(&mut rec, &stream.requests[r as usize]);
                        ctx.execute(&mut rec, &stream.requests[h as usize]);
                    }
                    None if swap => held = Some(r),
                    None => {
                        ctx.execute(&mut rec, &stream.requests[r as usize]);
                    }
                }
            }
            executed = upto;
        }
    }
    if let Some(h) = held {
        ctx.execute(&mut rec, &stream.requests[h as usize]);
    }
    RunOutput {
        delivered: deliverer.delivered(),
        scheduler_busy_ns: deliverer.busy_ns(start_ns, rec.now(), 0),
        ..RunOutput::default()
    }
}

#[cfg(test)]
mod tests;
