//! One checked run: build a fresh application, hand the stream to a
//! scheduler, then compute metrics and the oracle's verdict. Every caller
//! (CLI, wasm, tests, benchmarks) goes through [`run_checked`], so no run
//! escapes the oracle.

use serde::{Deserialize, Serialize};

use crate::app::AppSpec;
use crate::cancel::CancelToken;
use crate::class::ClassTable;
use crate::exec::{ExecLog, Progress, RunContext, RunOutput};
use crate::metrics::RunMetrics;
use crate::oracle::{self, Reference, Verdict};
use crate::request::Request;
use crate::scheduler::{RunError, Scheduler, SchedulerId, SchedulerInfo};
use crate::threads::ThreadHost;
use crate::trace::{TraceConfig, TraceEvent, TraceHub};

/// Inputs shared by all runs of one scenario.
pub struct RunInput<'a> {
    pub app: &'a AppSpec,
    pub classes: &'a ClassTable,
    pub requests: &'a [Request],
    pub host: &'a ThreadHost,
    pub trace: TraceConfig,
    pub pace_ns: u64,
}

/// Result of one checked run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunResult {
    pub scheduler: SchedulerId,
    /// The scheduler's configuration (its CtoT, for the early family).
    pub info: SchedulerInfo,
    pub threads: usize,
    pub output: RunOutput,
    pub metrics: RunMetrics,
    pub verdict: Verdict,
    pub digest: u64,
    pub cancelled: bool,
    #[serde(skip)]
    pub trace: Vec<TraceEvent>,
    pub trace_truncated: bool,
}

/// Run `scheduler` with `threads` workers on `input`, checked against
/// `reference`. `progress` (sized `threads + 1`) may be polled meanwhile.
pub fn run_checked(
    scheduler: &dyn Scheduler,
    threads: usize,
    input: &RunInput<'_>,
    reference: &Reference,
    cancel: &CancelToken,
    progress: &Progress,
) -> Result<RunResult, RunError> {
    let app = input.app.build();
    let log = ExecLog::new(input.requests.len());
    let hub = TraceHub::new(input.trace);
    let ctx = RunContext {
        requests: input.requests,
        classes: input.classes,
        app: app.as_ref(),
        threads,
        host: input.host,
        cancel,
        log: &log,
        trace: &hub,
        progress,
        pace_ns: input.pace_ns,
    };
    let output = scheduler.run(&ctx)?;
    let (trace, stats, trace_truncated) = hub.finish();
    let delivered = output.delivered as usize;
    let digest = app.digest();
    let verdict = oracle::check(
        input.requests,
        input.classes,
        &log,
        reference,
        delivered,
        digest,
    );
    let metrics = RunMetrics::compute(&log, delivered, &stats, &output);
    Ok(RunResult {
        scheduler: scheduler.id(),
        info: scheduler.info(),
        threads,
        output,
        metrics,
        verdict,
        digest,
        cancelled: delivered < input.requests.len(),
        trace,
        trace_truncated,
    })
}
