//! Running a scenario: one request stream, every scheduler, every run
//! checked by the oracle.
//!
//! The stream is generated once and the sequential reference computed once,
//! so every scheduler of a scenario sees the identical stream and is judged
//! against the same reference.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use psmr_core::app::AppSpec;
use psmr_core::cancel::CancelToken;
use psmr_core::exec::{LiveSample, Progress};
use psmr_core::oracle::Reference;
use psmr_core::run::{run_checked, RunInput};
use psmr_core::threads::{ThreadHost, MAX_WORKERS};
use psmr_core::trace::TraceConfig;
use psmr_core::virt::Costs;
use psmr_core::workload::{class_weights_for, generate_stream, WorkloadSpec};
use psmr_core::{ClassTable, RunError, Scheduler, Stream};
use psmr_schedulers::{build, BuildEnv};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::diag::Diagnostic;
use crate::expect::{evaluate, repetitions, ExpectationResult};
pub use crate::options::{effective, select, RunOptions, Selected};
use crate::parse::{check_pool, check_run, Limits};
pub use crate::report::{
    available_cores, class_infos, fill_speedups, stream_info, ClassInfo, Report, RunMode,
    RunReport, StreamInfo, VirtualMode,
};
use crate::scenario::Scenario;

/// What a poller sees of a scenario run in progress.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MonitorSnapshot {
    /// Label of the scheduler running now (empty before the first).
    pub scheduler: String,
    /// 0-based index of the current run among `runs_total`.
    pub run_index: usize,
    pub runs_total: usize,
    /// Requests executed and delivered so far by the current run.
    pub executed: u64,
    pub delivered: u64,
    /// Time since the scenario run started.
    pub elapsed_ms: f64,
    /// Delivery is held back (see [`RunMonitor::pause`]).
    #[serde(default)]
    pub paused: bool,
    /// Each worker thread of the current run: executed count, sampled queue
    /// length and what it is doing.
    #[serde(default)]
    pub workers: Vec<LiveSample>,
}

struct Current {
    scheduler: String,
    index: usize,
    workers: usize,
    progress: Arc<Progress>,
}

/// Lets another thread follow and cancel a scenario run. Use one monitor
/// per run: [`run_scenario`] does not reset a cancellation made earlier.
#[derive(Default)]
pub struct RunMonitor {
    cancel: CancelToken,
    current: Mutex<Option<Current>>,
    total: AtomicUsize,
    start_ns: AtomicU64,
}

impl std::fmt::Debug for RunMonitor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunMonitor")
            .field("snapshot", &self.snapshot())
            .finish()
    }
}

impl RunMonitor {
    pub fn new() -> Self {
        Self::default()
    }
    /// Ask the run to stop: the current scheduler stops delivering, its
    /// delivered prefix is still checked, and later schedulers do not run.
    pub fn cancel(&self) {
        self.cancel.cancel();
    }
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }
    /// Hold delivery back until [`RunMonitor::resume`] (see
    /// `psmr_core::cancel::CancelToken`).
    pub fn pause(&self) {
        self.cancel.pause();
    }
    pub fn resume(&self) {
        self.cancel.resume();
    }
    pub fn cancel_token(&self) -> &CancelToken {
        &self.cancel
    }

    pub fn snapshot(&self) -> MonitorSnapshot {
        // Relaxed: display values only, no data is published through them.
        let start = self.start_ns.load(Ordering::Relaxed);
        let elapsed_ms = if start == 0 {
            0.0
        } else {
            psmr_core::clock::now_ns().saturating_sub(start) as f64 / 1e6
        };
        let guard = self.current.lock().unwrap_or_else(|p| p.into_inner());
        let mut s = MonitorSnapshot {
            runs_total: self.total.load(Ordering::Relaxed),
            elapsed_ms,
            paused: self.cancel.is_paused(),
            ..MonitorSnapshot::default()
        };
        if let Some(c) = guard.as_ref() {
            s.scheduler = c.scheduler.clone();
            s.run_index = c.index;
            s.executed = c.progress.executed();
            s.delivered = c.progress.delivered();
            s.workers = c.progress.sample(c.workers);
        }
        s
    }

    fn begin(&self, total: usize) {
        // Relaxed: read only by `snapshot` for display; a stale value for
        // one poll is harmless.
        self.total.store(total, Ordering::Relaxed);
        self.start_ns
            .store(psmr_core::clock::now_ns().max(1), Ordering::Relaxed);
    }

    fn set_current(
        &self,
        scheduler: String,
        index: usize,
        workers: usize,
        progress: Arc<Progress>,
    ) {
        *self.current.lock().unwrap_or_else(|p| p.into_inner()) = Some(Current {
            scheduler,
            index,
            workers,
            progress,
        });
    }
}

/// A scenario's stream, classes (with workload weights) and reference,
/// computed once and shared by all its runs.
pub struct Prepared {
    pub classes: ClassTable,
    pub stream: Stream,
    pub reference: Reference,
}

/// Generate the stream and compute the sequential reference (the stream's
/// canonical order executed on a fresh application). A stream the engine
/// cannot make (a commit simulation over its limits) is a diagnostic at
/// the workload field at fault.
pub fn prepare(sc: &Scenario) -> Result<Prepared, Vec<Diagnostic>> {
    let (classes, stream) = stream_of(sc)?;
    let reference = Reference::compute(sc.app.build().as_ref(), &stream);
    Ok(Prepared {
        classes,
        stream,
        reference,
    })
}

/// The scenario's classes (with workload weights) and stream, without the
/// reference.
pub fn stream_of(sc: &Scenario) -> Result<(ClassTable, Stream), Vec<Diagnostic>> {
    let classes = weighted_classes(&sc.app, &sc.workload);
    let stream = generate_stream(&sc.app, &classes, &sc.workload)
        .map_err(|e| vec![sc.diagnostic(&e.path, e.message)])?;
    Ok((classes, stream))
}

/// `app`'s classes, weighted by the shares `workload` draws them with.
pub fn weighted_classes(app: &AppSpec, workload: &WorkloadSpec) -> ClassTable {
    let mut classes = app.classes();
    let weights = class_weights_for(Some(app), &classes, workload);
    classes.set_weights(&weights);
    classes
}

/// Build every selected scheduler for the prepared stream: first the check
/// that needs the stream (a scheduler that routes by class needs classes
/// that cover it, located at its entry), then each family's own refusals
/// (e.g. a mapping that breaks a rule), also located at the entry.
pub fn build_selected(
    sc: &Scenario,
    selected: &[Selected],
    prepared: &Prepared,
) -> Result<Vec<Box<dyn Scheduler>>, Vec<Diagnostic>> {
    let routes: Vec<&Selected> = selected
        .iter()
        .filter(|s| s.needs.covering_classes)
        .collect();
    if !routes.is_empty() {
        if let Err(e) = prepared.classes.check_covers(&prepared.stream) {
            return Err(routes
                .iter()
                .map(|s| {
                    sc.diagnostic(
                        &s.path(),
                        format!("scheduler `{}` routes by class, but {e}", s.spec.name()),
                    )
                })
                .collect());
        }
    }
    let env = BuildEnv {
        classes: &prepared.classes,
        threads: sc.threads,
    };
    let mut built = Vec::with_capacity(selected.len());
    let mut errors = Vec::new();
    for sel in selected {
        match build(&sel.spec, &env) {
            Ok(s) => built.push(s),
            Err(e) => errors.push(run_error_diagnostic(sc, sel, &e)),
        }
    }
    if errors.is_empty() {
        Ok(built)
    } else {
        Err(errors)
    }
}

/// A run error as a diagnostic at the scheduler entry (or at `threads` when
/// the host lacks threads).
pub fn run_error_diagnostic(sc: &Scenario, sel: &Selected, e: &RunError) -> Diagnostic {
    let name = sel.spec.name();
    match e {
        RunError::Threads(m) => sc.diagnostic("threads", format!("scheduler `{name}`: {m}")),
        RunError::InvalidConfig(_) => {
            sc.diagnostic(&sel.path(), format!("scheduler `{name}`: {e}"))
        }
    }
}

/// A host running every team on virtual cores with `costs`, cache domains
/// of `cores_per_cache` threads: `host`'s pool if it holds `need` threads,
/// else (natively) a pool of its own with `host`'s stall watchdog, so a
/// virtual run may have more workers than the machine's pool.
fn virtual_cores_host(
    host: &ThreadHost,
    need: usize,
    costs: &Costs,
    cores_per_cache: usize,
) -> Result<ThreadHost, String> {
    let pool = if need <= host.capacity() {
        host.clone()
    } else {
        host.with_pool_of(need - 1)?
    };
    Ok(pool
        .virtual_cores(costs.table)
        .cores_per_cache(cores_per_cache))
}

/// The options a run of `sc` takes: `opts` with a replay schedule's seed
/// and cores (`options::with_schedule`), and on N virtual cores N workers
/// unless `threads` is given. An out-of-range core count is reported at
/// `run.virtual_cores` alone: the workers it implies get a valid stand-in
/// meanwhile. A `threads` the caller gives is kept as given, so one out of
/// range is an error at `threads` ([`check_run`]), never changed.
pub fn run_options(
    sc: &Scenario,
    opts: &RunOptions,
    limits: &Limits,
) -> Result<(RunOptions, psmr_core::virt::Schedule), Vec<Diagnostic>> {
    let (mut o, schedule) = crate::options::with_schedule(sc, opts)?;
    if let Some(n) = virtual_cores(sc, &o) {
        let stand_in = (n as usize).clamp(1, limits.max_threads.min(MAX_WORKERS));
        o.threads = Some(o.threads.unwrap_or(stand_in));
        o.virtual_cores = Some(n);
    }
    Ok((o, schedule))
}

/// The virtual cores a run of `sc` with `opts` uses, if any: the option,
/// else the scenario's `run.virtual_cores`.
pub fn virtual_cores(sc: &Scenario, opts: &RunOptions) -> Option<u32> {
    opts.virtual_cores.or(sc.run.virtual_cores)
}
/// The cache domains of a scenario's virtual machine: the smallest
/// cores per cache any of its entries' parameter objects states (the
/// topology a family's heuristics are told about, declared by the family's
/// `Params::cores_per_cache`), else 0 (every core shares one cache). One
/// value for the whole file, so every scheduler of a scenario runs on the
/// same modelled machine.
pub fn virtual_cores_per_cache(sc: &Scenario) -> usize {
    sc.schedulers
        .iter()
        .filter_map(|s| s.cores_per_cache())
        .min()
        .map_or(0, |c| c as usize)
}

/// A run checked before it starts: the scenario with the run's overrides
/// applied, the options it runs with and the entries it runs. Only
/// [`plan_run`] makes one, in the run's one validation pass; [`run_plan`]
/// runs it without judging the scenario again, so a caller that must know
/// the run's shape first (its worker count, to size a thread host) does
/// not validate twice.
#[derive(Clone, Debug)]
pub struct RunPlan {
    scenario: Scenario,
    options: RunOptions,
    schedule: psmr_core::virt::Schedule,
    selected: Vec<Selected>,
    limits: Limits,
}

impl RunPlan {
    /// The scenario with the run's overrides applied.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }
    /// Worker threads of each run (on virtual cores, the cores unless
    /// `threads` was given).
    pub fn threads(&self) -> usize {
        self.scenario.threads
    }
    /// The same checked run under another conductor schedule: what
    /// exploring varies from one run to the next (the replay token's seed
    /// and cores, which the plan was checked with, stay).
    pub fn set_schedule(&mut self, schedule: psmr_core::virt::Schedule) {
        self.schedule = schedule;
    }
    /// The entries the run runs, in order.
    pub fn selected(&self) -> &[Selected] {
        &self.selected
    }
    /// The virtual cores of the run, if it runs on them.
    pub fn virtual_cores(&self) -> Option<u32> {
        virtual_cores(&self.scenario, &self.options)
    }
}

/// Validate `sc` (read by `parse::parse_unvalidated`, or already valid)
/// for a run with `opts`, in one pass over the scenario with the overrides
/// applied ([`check_run`]): a file's value that an override replaces is not
/// judged, and an override out of range is located at the field it
/// replaces. A replay token the options name that does not parse is a
/// diagnostic at `run.schedule`.
pub fn plan_run(
    sc: &Scenario,
    opts: &RunOptions,
    limits: &Limits,
) -> Result<RunPlan, Vec<Diagnostic>> {
    let (options, schedule) = run_options(sc, opts, limits)?;
    let scenario = effective(sc, &options);
    let selected = check_run(&scenario, &options, limits)?;
    Ok(RunPlan {
        scenario,
        options,
        schedule,
        selected,
        limits: *limits,
    })
}

/// Parse `text` (named `file` in diagnostics) without validating it, then
/// judge it once with `plan` ([`plan_run`], `bench::plan_bench` or
/// `explore::plan_explore`, each of which validates the scenario with the
/// overrides of what will run applied): the one validation pass of a run,
/// a sweep or an exploration. The scenario as written comes back beside
/// the plan.
pub fn parse_and_plan<P>(
    text: &str,
    file: &str,
    plan: impl FnOnce(&Scenario) -> Result<P, Vec<Diagnostic>>,
) -> Result<(Scenario, P), Vec<Diagnostic>> {
    let sc = crate::parse::parse_unvalidated(text, file)?;
    let planned = plan(&sc)?;
    Ok((sc, planned))
}

/// Run every selected scheduler of `sc` on one stream, each checked by the
/// oracle: [`plan_run`], then [`run_plan`].
pub fn run_scenario(
    sc: &Scenario,
    opts: &RunOptions,
    limits: &Limits,
    host: &ThreadHost,
    monitor: &RunMonitor,
) -> Result<Report, Vec<Diagnostic>> {
    run_plan(&plan_run(sc, opts, limits)?, host, monitor)
}

/// Run a checked plan: every selected scheduler on one stream, each
/// checked by the oracle. Errors that need the host or the stream come
/// back as located diagnostics before any long run starts (a real run's
/// pool too small, [`check_pool`]; then [`build_selected`] once the stream
/// exists), except a host refusing threads, which is found when that run
/// starts. On virtual cores (`opts.virtual_cores` or the scenario's
/// `run.virtual_cores`, N) the modelled machine has N cores, shared by the
/// workers (N of them, or `opts.threads`), the roles and the driver
/// (docs/protocols/virtual-cores.md, "Cores and time-sharing"); the report
/// says so in its `mode` and every run's `mode_label`.
pub fn run_plan(
    plan: &RunPlan,
    host: &ThreadHost,
    monitor: &RunMonitor,
) -> Result<Report, Vec<Diagnostic>> {
    let (opts, eff, selected) = (&plan.options, &plan.scenario, &plan.selected);
    let schedule = plan.schedule;
    let cores = plan.virtual_cores();
    // A virtual run gets a pool of its own when the caller's is too small.
    if cores.is_none() {
        check_pool(eff, selected, host.capacity())?;
    }
    let costs = opts.costs.clone().unwrap_or_else(Costs::reference);
    let mode = match cores {
        Some(n) => RunMode::virtual_run(n as usize, &costs),
        None => RunMode::Real,
    };
    let virtual_host;
    let host = match cores {
        Some(_) => {
            let roles = selected
                .iter()
                .map(|s| s.needs.roles.len())
                .max()
                .unwrap_or(0);
            virtual_host = virtual_cores_host(
                host,
                eff.threads + 1 + roles,
                &costs,
                virtual_cores_per_cache(eff),
            )
            .map_err(|e| vec![eff.diagnostic("run.virtual_cores", e)])?
            .machine_cores(cores.map_or(0, |n| n as usize))
            .with_schedule(schedule);
            &virtual_host
        }
        None => host,
    };
    let prepared = prepare(eff)?;
    let built = build_selected(eff, selected, &prepared)?;
    let threads = eff.threads;
    let trace = TraceConfig {
        enabled: eff.run.trace(),
        max_events: eff
            .run
            .max_trace_events
            .unwrap_or(plan.limits.max_trace_events)
            .min(plan.limits.max_trace_events),
    };
    let input = RunInput {
        app: &eff.app,
        classes: &prepared.classes,
        stream: &prepared.stream,
        host,
        trace,
        pace_ns: eff.run.pace_ns(),
        thread_pace_ns: opts.thread_pace_ns.as_deref().unwrap_or(&[]),
        delivery: eff.delivery(),
    };
    monitor.begin(selected.len());
    let mut runs = Vec::with_capacity(selected.len());
    for (k, (sel, scheduler)) in selected.iter().zip(&built).enumerate() {
        if monitor.is_cancelled() {
            break;
        }
        let progress = Arc::new(Progress::new(threads + 1));
        monitor.set_current(sel.spec.name(), k, threads, progress.clone());
        let result = run_checked(
            scheduler.as_ref(),
            sel.needs.roles,
            threads,
            &input,
            &prepared.reference,
            monitor.cancel_token(),
            &progress,
        )
        .map_err(|e| vec![run_error_diagnostic(eff, sel, &e)])?;
        let mut run =
            RunReport::from_result(&sel.spec, sel.needs.family, eff.workload.requests, result);
        run.mode_label = mode.label().map(str::to_string);
        runs.push(run);
    }
    fill_speedups(&mut runs);
    Ok(Report {
        scenario: eff.name.clone(),
        cores: available_cores(),
        mode,
        stream: stream_info(&prepared.stream),
        classes: class_infos(&prepared.classes),
        runs,
    })
}

/// Reports of every repetition and the expectations judged on them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CheckOutcome {
    pub scenario: String,
    pub reports: Vec<Report>,
    pub results: Vec<ExpectationResult>,
}

/// Run `sc` as many times as its expectations ask ([`repetitions`])
/// and judge them: the one implementation behind `psmr check` and the lab.
/// The scenario is validated once ([`plan_run`]) for all repetitions.
pub fn check_scenario(
    sc: &Scenario,
    opts: &RunOptions,
    limits: &Limits,
    host: &ThreadHost,
    monitor: &RunMonitor,
) -> Result<CheckOutcome, Vec<Diagnostic>> {
    check_plan(sc, &plan_run(sc, opts, limits)?, host, monitor)
}

/// [`check_scenario`] with `sc` already planned ([`plan_run`]), for a
/// caller that sizes its host by the plan.
pub fn check_plan(
    sc: &Scenario,
    plan: &RunPlan,
    host: &ThreadHost,
    monitor: &RunMonitor,
) -> Result<CheckOutcome, Vec<Diagnostic>> {
    let n = repetitions(sc);
    let mut reports = Vec::with_capacity(n as usize);
    for _ in 0..n {
        if monitor.is_cancelled() {
            break;
        }
        reports.push(run_plan(plan, host, monitor)?);
    }
    let results = evaluate(sc, &reports);
    Ok(CheckOutcome {
        scenario: sc.name.clone(),
        reports,
        results,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{plan_bench, BenchOptions};
    use crate::explore::{plan_explore, ExploreOptions};
    use crate::parse::FILE_PASSES;

    const QUICKSTART: &str = include_str!("../../../../scenarios/quickstart.json");

    /// What `f` returns, and the passes over a scenario's fields it made.
    fn counted<T>(f: impl FnOnce() -> T) -> (T, u32) {
        FILE_PASSES.with(|n| n.set(0));
        let out = f();
        (out, FILE_PASSES.with(|n| n.get()))
    }

    /// Issue 29: a run, a sweep and an exploration parse their scenario
    /// without validating it and judge it in their plan, once per run that
    /// will be made (`psmr run`, `psmr bench`, `psmr explore` and the
    /// browser's starts all take this path); the file validated first and
    /// then planned was judged twice.
    #[test]
    fn a_run_a_sweep_and_an_exploration_judge_the_scenario_once_per_run() {
        let limits = Limits::native();
        let run = |sc: &Scenario| plan_run(sc, &RunOptions::default(), &limits);
        let (planned, n) = counted(|| parse_and_plan(QUICKSTART, "q.json", run));
        assert!(planned.is_ok(), "{planned:?}");
        assert_eq!(n, 1, "a run is judged once");
        // One write share, two thread counts: the sequential baseline's run
        // and one run of the parallel schedulers per thread count.
        let host = ThreadHost::with_capacity(4).unwrap();
        let sweep = BenchOptions {
            threads: vec![1, 2],
            ..BenchOptions::default()
        };
        let bench = |sc: &Scenario| plan_bench(sc, &sweep, &limits, &host);
        let (planned, n) = counted(|| parse_and_plan(QUICKSTART, "q.json", bench).map(|_| ()));
        assert!(planned.is_ok(), "{planned:?}");
        assert_eq!(n, 3, "each of the sweep's 3 runs is judged once");
        let o = ExploreOptions::new("early");
        let explore = |sc: &Scenario| plan_explore(sc, &o, &limits);
        let (planned, n) = counted(|| parse_and_plan(QUICKSTART, "q.json", explore).map(|_| ()));
        assert!(planned.is_ok(), "{planned:?}");
        assert_eq!(n, 1, "an exploration's one run is judged once");
        // The counter sees a second pass: a file validated on its own
        // before it is planned.
        let (planned, n) = counted(|| {
            crate::parse_scenario(QUICKSTART, "q.json").and_then(|sc| explore(&sc).map(|_| ()))
        });
        assert!(planned.is_ok(), "{planned:?}");
        assert_eq!(n, 2);
    }
}
