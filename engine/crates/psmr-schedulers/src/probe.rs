//! The one execute-and-record hook every scheduler's protocol code calls.
//!
//! Protocol code (worker loops, synchronization, stealing) never touches
//! the run context directly: it calls a [`Probe`] to execute a request and
//! to report what is worth tracing. A real run uses [`CtxProbe`], which
//! executes through [`RunContext::execute`] (the only execution path) and
//! records into the thread's recorder; the model checkers (loom, shuttle)
//! implement `Probe` over their own logs, so they drive the very protocol
//! code a real run uses.

use psmr_core::exec::{LiveState, RunContext, RunOutput};
use psmr_core::trace::{Counter, Recorder};
use psmr_core::{ClassId, EventKind, RequestId, RunError, ThreadRef, WaitReason};

/// Execution and everything worth tracing, for protocol code.
pub trait Probe {
    /// Execute request `req` of class `class` (exactly once per request).
    fn execute(&mut self, req: RequestId, class: ClassId);
    /// Record an event of the trace vocabulary.
    fn record(&mut self, _kind: EventKind) {}
    /// A wait for `reason` while handling `req`, on `on` (a request, a
    /// thread, or `NO_REQUEST`), starts; returns its start time (ns).
    fn wait_begin(&mut self, _reason: WaitReason, _req: RequestId, _on: u32) -> u64 {
        0
    }
    /// The wait that began at `start_ns` ended after `spins` busy checks.
    fn wait_done(&mut self, _reason: WaitReason, _req: RequestId, _start_ns: u64, _spins: u32) {}
    fn count(&mut self, _c: Counter, _n: u64) {}
    /// Nanoseconds since the run started (0 where there is no clock, as
    /// under the model checkers); for busy-time accounting.
    fn now_ns(&self) -> u64 {
        0
    }
}

/// The real run's probe: executes through the run context, records into
/// the thread's recorder and keeps the thread's live state for the views.
pub struct CtxProbe<'c, 'a> {
    pub ctx: &'c RunContext<'a>,
    pub rec: Recorder<'a>,
}

impl<'c, 'a> CtxProbe<'c, 'a> {
    pub fn new(ctx: &'c RunContext<'a>, thread: ThreadRef) -> Self {
        CtxProbe {
            ctx,
            rec: ctx.recorder(thread),
        }
    }

    fn state(&self, s: LiveState) {
        self.ctx.progress.set_state(self.rec.thread, s);
    }

    /// Execute an event and return the children it registers; the caller
    /// must pass each to [`RunContext::register`] where its queue places it.
    pub fn execute_event(&mut self, req: RequestId) -> &'a [RequestId] {
        self.state(LiveState::Executing);
        self.ctx
            .execute(&mut self.rec, &self.ctx.requests[req as usize])
    }
}

/// Run a team on the run's host: `workers` worker threads, worker `i`
/// calling `worker(i, probe)` with its own [`CtxProbe`] (trace lane `i`,
/// made on that worker's thread), and `driver` (the delivering thread),
/// whose output is the run's. The team of every family without auxiliary
/// roles; a pool that cannot give the threads is [`RunError::Threads`].
pub fn run_workers<'c, 'a, D, W>(
    ctx: &'c RunContext<'a>,
    workers: usize,
    driver: D,
    worker: W,
) -> Result<RunOutput, RunError>
where
    D: FnOnce() -> RunOutput + Send,
    W: Fn(usize, CtxProbe<'c, 'a>) + Sync,
{
    ctx.host
        .run(
            workers,
            |i| worker(i, CtxProbe::new(ctx, i as ThreadRef)),
            driver,
        )
        .map_err(RunError::Threads)
}

impl Probe for CtxProbe<'_, '_> {
    fn execute(&mut self, req: RequestId, _class: ClassId) {
        self.state(LiveState::Executing);
        self.ctx
            .execute(&mut self.rec, &self.ctx.requests[req as usize]);
    }
    fn record(&mut self, kind: EventKind) {
        if matches!(kind, EventKind::Steal { .. } | EventKind::ColorSteal { .. }) {
            self.state(LiveState::Stealing);
        }
        self.rec.record(kind);
    }
    fn wait_begin(&mut self, reason: WaitReason, req: RequestId, on: u32) -> u64 {
        self.state(if reason == WaitReason::EmptyQueue {
            LiveState::Idle
        } else {
            LiveState::Waiting
        });
        self.rec.wait_begin(reason, req, on)
    }
    fn wait_done(&mut self, reason: WaitReason, req: RequestId, start_ns: u64, spins: u32) {
        self.state(LiveState::Executing);
        self.rec.wait_done(reason, req, start_ns, spins);
    }
    fn count(&mut self, c: Counter, n: u64) {
        self.rec.count(c, n);
    }
    fn now_ns(&self) -> u64 {
        self.rec.now()
    }
}
