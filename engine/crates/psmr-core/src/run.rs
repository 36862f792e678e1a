//! One checked run: build a fresh application, hand the stream to a
//! scheduler, then compute metrics and the oracle's verdict. Every caller
//! (CLI, wasm, tests, benchmarks) goes through [`run_checked`], so no run
//! escapes the oracle.

use serde::{Deserialize, Serialize};

use crate::app::AppSpec;
use crate::cancel::CancelToken;
use crate::class::ClassTable;
use crate::exec::{Delivery, ExecLog, Progress, RunContext, RunOutput};
use crate::metrics::RunMetrics;
use crate::oracle::{self, Reference, Verdict};
use crate::scheduler::{RunError, Scheduler, SchedulerId, SchedulerInfo};
use crate::stream::Stream;
use crate::threads::ThreadHost;
use crate::trace::{TraceConfig, TraceEvent, TraceHub, TraceWindow, AUX_BASE};

/// Inputs shared by all runs of one scenario.
pub struct RunInput<'a> {
    pub app: &'a AppSpec,
    pub classes: &'a ClassTable,
    pub stream: &'a Stream,
    pub host: &'a ThreadHost,
    pub trace: TraceConfig,
    pub pace_ns: u64,
    /// Per-worker pace overriding `pace_ns` (see `RunContext::thread_pace_ns`).
    pub thread_pace_ns: &'a [u64],
    pub delivery: Delivery,
}

/// An auxiliary thread of a run, as the views name its lane.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RoleLane {
    pub thread: u16,
    pub name: String,
}

/// Result of one checked run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunResult {
    pub scheduler: SchedulerId,
    /// The scheduler's configuration (its CtoT, for the early family).
    pub info: SchedulerInfo,
    pub threads: usize,
    /// Auxiliary threads, with their trace thread ids.
    pub roles: Vec<RoleLane>,
    /// The delivery model, defaults resolved.
    pub delivery: Delivery,
    pub output: RunOutput,
    pub metrics: RunMetrics,
    pub verdict: Verdict,
    pub digest: u64,
    pub cancelled: bool,
    #[serde(skip)]
    pub trace: Vec<TraceEvent>,
    pub trace_window: TraceWindow,
}

/// Run `scheduler` with `threads` workers and its auxiliary threads
/// `role_names` (its `Needs::roles`: trace lanes `AUX_BASE + k`) on
/// `input`, checked against `reference`. `progress` (sized `threads + 1`)
/// may be polled meanwhile.
#[allow(clippy::too_many_arguments)]
pub fn run_checked(
    scheduler: &dyn Scheduler,
    role_names: &[&str],
    threads: usize,
    input: &RunInput<'_>,
    reference: &Reference,
    cancel: &CancelToken,
    progress: &Progress,
) -> Result<RunResult, RunError> {
    let app = input.app.build();
    let log = ExecLog::new(input.stream);
    let hub = TraceHub::new(input.trace, threads + 1 + role_names.len());
    let delivery = input.delivery.resolved(threads);
    let ctx = RunContext {
        stream: input.stream,
        requests: &input.stream.requests,
        classes: input.classes,
        app: app.as_ref(),
        threads,
        host: input.host,
        cancel,
        log: &log,
        trace: &hub,
        progress,
        pace_ns: input.pace_ns,
        thread_pace_ns: input.thread_pace_ns,
        delivery,
    };
    let output = scheduler.run(&ctx)?;
    let (trace, stats, trace_window) = hub.finish();
    let delivered = output.delivered as usize;
    let digest = app.digest();
    let fresh = || input.app.build();
    let verdict = oracle::check(
        input.stream,
        input.classes,
        &log,
        reference,
        delivered,
        digest,
        &fresh,
    );
    let metrics = RunMetrics::compute(input.stream, &log, delivered, &stats, &output);
    Ok(RunResult {
        scheduler: scheduler.id(),
        info: scheduler.info(),
        threads,
        roles: role_names
            .iter()
            .enumerate()
            .map(|(k, n)| RoleLane {
                thread: AUX_BASE + k as u16,
                name: n.to_string(),
            })
            .collect(),
        delivery,
        output,
        metrics,
        verdict,
        digest,
        cancelled: delivered < input.stream.deliveries(),
        trace,
        trace_window,
    })
}
