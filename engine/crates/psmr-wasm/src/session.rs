//! The engine's state between calls from the web worker: at most one
//! scenario run in progress, and the last finished report (kept for its
//! traces).
//!
//! Protocol, as the worker uses it:
//! 1. [`Engine::start_run`] parses and validates the text against the
//!    engine's limits, once, with the run's overrides applied
//!    (`runner::plan_run`; the job runs that plan), then hands the run to `spawn` and returns at once;
//!    refused scenarios come back as located diagnostics, no run starts.
//! 2. [`Engine::poll`] (every ~100 ms) reads the run's monitor; it never
//!    blocks on the run (the monitor is lock-light, the outcome slot is only
//!    locked for a store or a take).
//! 3. Once `poll` says `done`, [`Engine::take_report`] moves the outcome
//!    out and frees the engine for the next run.
//!
//! An exploration ([`Engine::start_explore`], the classroom's break-it
//! mode) is a job like a run: polled the same way, with the schedules tried
//! so far in its snapshot, cancelled the same way, its outcome taken the
//! same way.
//!
//! Invariant: `current` is `Some` from a successful `start_run` (or
//! `start_bench`, `start_explore`) until the matching `take_report`; a
//! second start in between is refused.
//!
//! Every report `take_report` hands out is also kept here (without its
//! traces) under a `report_id`, the last [`KEPT_REPORTS`] of them: the Check
//! button judges its runs by these ids ([`Engine::kept_reports`]), so the
//! reports never travel back from JS as JSON (and the wasm needs no report
//! deserializer, issue 30).

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use psmr_core::codec;
use psmr_core::threads::ThreadHost;
use psmr_core::trace::TraceEvent;
use psmr_scenario::bench::{plan_bench, run_bench, BenchOptions, BenchReport};
use psmr_scenario::explore::{plan_explore, run_explore, ExploreOptions, Explored};
use psmr_scenario::runner::{parse_and_plan, plan_run, run_plan};
use psmr_scenario::{
    parse_scenario_with, Diagnostic, Limits, MonitorSnapshot, Report, RunMonitor, RunOptions,
    Scenario,
};
use serde::{Deserialize, Serialize};

/// Options as the web app sends them: the engine's own (`O`, a run's
/// [`RunOptions`] or a sweep's [`BenchOptions`]) plus what only the
/// browser knows.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebOptions<O> {
    /// File name used in diagnostics (default `scenario.json`).
    #[serde(default)]
    pub file: Option<String>,
    /// `navigator.hardwareConcurrency`: a run reports it as the report's
    /// `cores`, a sweep flags oversubscribed points with it.
    #[serde(default)]
    pub cores: Option<usize>,
    #[serde(flatten)]
    pub options: O,
}

impl<O> WebOptions<O> {
    /// The file name diagnostics use.
    fn file(&self) -> String {
        self.file.clone().unwrap_or_else(|| DEFAULT_FILE.into())
    }
}

/// Options of one run as the web app sends them.
pub type WebRunOptions = WebOptions<RunOptions>;

/// Options of a bench sweep as the web app sends them.
pub type WebBenchOptions = WebOptions<BenchOptions>;

/// What a poll returns (JSON for the worker).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Poll {
    /// A run was started and its report not yet taken.
    pub running: bool,
    /// That run has finished; `take_report` will not wait.
    pub done: bool,
    pub snapshot: Option<LiveSnapshot>,
}

/// The monitor's snapshot plus the run's fixed shape.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LiveSnapshot {
    #[serde(flatten)]
    pub monitor: MonitorSnapshot,
    /// Worker threads of each run.
    pub threads: usize,
    /// Requests in the stream.
    pub requests: u32,
    /// An exploration's schedules tried so far and its budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explore: Option<ExploreSnapshot>,
}

/// How far an exploration has gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ExploreSnapshot {
    /// Schedules run to their end and found correct.
    pub tried: u32,
    /// Most schedules it will try.
    pub budget: u32,
}

/// An exploration's counter, shared by its job (writer) and the poller.
#[derive(Debug)]
struct ExploreProgress {
    tried: AtomicU32,
    budget: u32,
}

/// What the page must say about a run on virtual cores (issue 25): its
/// numbers are a model's (virtual time under a cost table), and its traces
/// are deterministic, so each run's trace digest is given to compare with
/// `psmr run --virtual-cores N --digest` natively.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VirtualRun {
    /// Virtual cores (worker threads) of every run of the report.
    pub cores: u32,
    /// The cost table the conductor charged (`reference`: the committed one).
    pub cost_table: &'static str,
    /// [`codec::digest`] of each run's trace, 16 hex digits, in run order.
    pub trace_digests: Vec<String>,
}

/// Outcome of a finished run (JSON for the worker).
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Outcome {
    Report {
        ok: bool,
        report: Report,
        /// Set for a run on virtual cores only (a real run's JSON is unchanged).
        #[serde(skip_serializing_if = "Option::is_none")]
        virtual_run: Option<VirtualRun>,
        /// The id this report is kept under for [`Engine::kept_reports`].
        report_id: u32,
    },
    Bench {
        ok: bool,
        bench: BenchReport,
    },
    /// An exploration's outcome: the violating schedule's replay token,
    /// or how many schedules ran clean. The page replays a find by its token
    /// ([`Engine::start_run`] with `schedule`) to get the exact run.
    Explore {
        ok: bool,
        explore: Explored,
    },
    Refused {
        ok: bool,
        diagnostics: Vec<Diagnostic>,
    },
}

/// Why a run did not start.
#[derive(Debug, PartialEq)]
pub enum StartError {
    /// A run is in progress (or its report was not taken yet).
    Busy,
    /// The options JSON is malformed.
    Options(String),
    /// The scenario is invalid; located diagnostics.
    Invalid(Vec<Diagnostic>),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Busy => write!(f, "a run is already in progress; cancel it first"),
            StartError::Options(m) => write!(f, "bad run options: {m}"),
            StartError::Invalid(d) => write!(f, "the scenario has {} problem(s)", d.len()),
        }
    }
}

/// One run in progress, shared by the run's thread and the poller.
struct Active {
    monitor: RunMonitor,
    threads: usize,
    requests: u32,
    explore: Option<Arc<ExploreProgress>>,
    /// Set (Release) after `outcome` is stored; read (Acquire) by `poll`, so
    /// a poll that sees `true` finds the outcome in the slot.
    finished: AtomicBool,
    outcome: Mutex<Option<Result<Finished, Vec<Diagnostic>>>>,
}

/// The engine: its thread host, limits, the run in progress and the last
/// report.
pub struct Engine {
    host: ThreadHost,
    limits: Limits,
    current: Mutex<Option<Arc<Active>>>,
    /// The traces of the last report's runs, moved out of it (not copied).
    last: Mutex<Option<Vec<Vec<TraceEvent>>>>,
    /// The scenario of the last report, as it ran (for the workload graph).
    last_scenario: Mutex<Option<Scenario>>,
    /// The last reports handed out, by id, for judging (Check).
    kept: Mutex<KeptReports>,
}

/// How many reports the engine keeps for judging by id: the most runs one
/// check asks for (`expect.repetitions` is at most this).
pub const KEPT_REPORTS: usize = psmr_scenario::parse::MAX_REPETITIONS as usize;

/// The last [`KEPT_REPORTS`] reports handed out, oldest first, each under
/// its id. Invariant: ids increase from front to back, one per report ever
/// kept (so an id names one report, and a dropped id is never reused
/// within 2^32 runs).
#[derive(Debug, Default)]
struct KeptReports {
    next_id: u32,
    reports: VecDeque<(u32, Report)>,
}

impl KeptReports {
    /// Keep `report` under a new id, dropping the oldest beyond the bound.
    fn keep(&mut self, report: Report) -> u32 {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        if self.reports.len() == KEPT_REPORTS {
            self.reports.pop_front();
        }
        self.reports.push_back((id, report));
        id
    }

    /// The reports of `ids`, in that order; the first id not kept (never
    /// handed out, or dropped since) is the error.
    fn get(&self, ids: &[u32]) -> Result<Vec<Report>, u32> {
        ids.iter()
            .map(|&id| {
                self.reports
                    .iter()
                    .find(|(k, _)| *k == id)
                    .map(|(_, r)| r.clone())
                    .ok_or(id)
            })
            .collect()
    }
}

/// Lock, ignoring poisoning: every critical section below leaves the data
/// consistent (single assignments), so a panic elsewhere cannot corrupt it.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Options JSON (empty text = defaults).
fn parse_options<T: Default + serde::de::DeserializeOwned>(json: &str) -> Result<T, StartError> {
    if json.trim().is_empty() {
        return Ok(T::default());
    }
    serde_json::from_str(json).map_err(|e| StartError::Options(e.to_string()))
}

/// What a job hands back when it finishes.
#[derive(Debug)]
enum Finished {
    /// The report, the scenario it ran (overrides applied) and its virtual
    /// cores (`None`: real threads).
    Run(Report, Box<Scenario>, Option<u32>),
    Bench(BenchReport),
    Explore(Explored),
}

/// The work of one job, run on a pool thread.
type Job =
    Box<dyn FnOnce(Limits, ThreadHost, &RunMonitor) -> Result<Finished, Vec<Diagnostic>> + Send>;

/// Default file name in diagnostics when the caller gives none.
pub const DEFAULT_FILE: &str = "scenario.json";

impl Engine {
    pub fn new(host: ThreadHost, limits: Limits) -> Self {
        Engine {
            host,
            limits,
            current: Mutex::new(None),
            last: Mutex::new(None),
            last_scenario: Mutex::new(None),
            kept: Mutex::new(KeptReports::default()),
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Located problems of `text` under this engine's limits (empty: valid).
    pub fn validate(&self, text: &str, file: &str) -> Vec<Diagnostic> {
        match parse_scenario_with(text, file, &self.limits) {
            Ok(_) => Vec::new(),
            Err(d) => d,
        }
    }

    /// Validate and start a run; `spawn` must run its closure on a thread
    /// that may block (a pool thread), and return at once.
    pub fn start_run(
        &self,
        text: &str,
        options_json: &str,
        spawn: impl FnOnce(Box<dyn FnOnce() + Send>),
    ) -> Result<(), StartError> {
        let opts: WebRunOptions = parse_options(options_json)?;
        if let Some(n) = opts.options.virtual_cores {
            self.check_virtual_cores(n)?;
        }
        // One validation pass, as the native runner does: `plan_run`
        // judges the scenario with the run's overrides applied; the job
        // runs the plan without judging again.
        let (limits, run_opts) = (self.limits, opts.options.clone());
        let plan = |sc: &Scenario| plan_run(sc, &run_opts, &limits);
        self.start(text, &opts.file(), plan, spawn, |sc, plan| {
            let shape = (
                opts.options
                    .virtual_cores
                    .map(|n| n as usize)
                    .or(opts.options.threads)
                    .unwrap_or(sc.threads),
                opts.options.requests.unwrap_or(sc.workload.requests),
            );
            let job = move |_: Limits, host: ThreadHost, monitor: &RunMonitor| {
                let mut report = run_plan(&plan, &host, monitor)?;
                if let Some(cores) = opts.cores {
                    report.cores = cores;
                }
                let ran = psmr_scenario::runner::effective(&sc, &opts.options);
                // A replay token (option or file) runs on its virtual
                // cores too: the page must say so as for any virtual run.
                let cores = plan.virtual_cores();
                Ok(Finished::Run(report, Box::new(ran), cores))
            };
            (shape, Box::new(job) as Job, None)
        })
    }

    /// Most virtual cores a run may ask for: each is a pool thread of its
    /// own (one at a time runs, but all are alive and blocked at once), so
    /// the pool must hold them, the most auxiliary roles a scheduler has
    /// and the driver; and no more than the limits' worker threads.
    pub fn max_virtual_cores(&self) -> usize {
        let pool = self.host.capacity();
        let room = pool.saturating_sub(1 + self.limits.max_roles);
        room.min(self.limits.max_threads)
    }

    /// Refuse a virtual core count this engine cannot host, saying why.
    fn check_virtual_cores(&self, n: u32) -> Result<(), StartError> {
        let max = self.max_virtual_cores();
        if n == 0 || n as usize > max {
            return Err(StartError::Options(format!(
                "virtual_cores: expected 1 to {max} virtual cores, got {n}: every virtual core is a thread of the \
                 engine's pool of {} (one runs at a time, but all wait at once beside up to {} auxiliary \
                 threads and the delivering thread)",
                self.host.capacity(),
                self.limits.max_roles
            )));
        }
        Ok(())
    }

    /// Validate and start a bench sweep (threads x write share, traces
    /// off; see `psmr_scenario::bench`), like [`Engine::start_run`]: every
    /// point is checked once, at start (`plan_bench`), so a sweep beyond
    /// the pool or a point the run checks refuse spawns nothing.
    pub fn start_bench(
        &self,
        text: &str,
        options_json: &str,
        spawn: impl FnOnce(Box<dyn FnOnce() + Send>),
    ) -> Result<(), StartError> {
        let opts: WebBenchOptions = parse_options(options_json)?;
        // One validation pass, as a run's: `plan_bench` judges each point
        // with its overrides applied; the job runs those plans without
        // judging again.
        let (limits, host) = (self.limits, &self.host);
        let plan = |sc: &Scenario| plan_bench(sc, &opts.options, &limits, host);
        self.start(text, &opts.file(), plan, spawn, |sc, plan| {
            let shape = (
                opts.options
                    .threads
                    .iter()
                    .copied()
                    .max()
                    .unwrap_or(sc.threads),
                opts.options.requests.unwrap_or(sc.workload.requests),
            );
            let job = move |_: Limits, host: ThreadHost, monitor: &RunMonitor| {
                let cores = opts.cores.unwrap_or(1);
                let report = run_bench(&plan, &host, cores, monitor)?;
                Ok(Finished::Bench(report))
            };
            (shape, Box::new(job) as Job, None)
        })
    }

    /// Validate and start an exploration of one scheduler (its fault
    /// selected) on virtual cores, schedule after schedule up to the budget
    /// (`psmr_scenario::explore`), like [`Engine::start_run`]: checked
    /// once, at start (`plan_explore`: a fault this build lacks, or the
    /// scheduler does not declare, is refused there, as diagnostics). The
    /// virtual cores (default: the scenario's threads) must fit the pool.
    /// Cancel stops it after the schedule under way.
    pub fn start_explore(
        &self,
        text: &str,
        options_json: &str,
        spawn: impl FnOnce(Box<dyn FnOnce() + Send>),
    ) -> Result<(), StartError> {
        // No defaults for the whole object: `scheduler` is required.
        let opts: ExploreOptions =
            serde_json::from_str(options_json).map_err(|e| StartError::Options(e.to_string()))?;
        if let Some(n) = opts.cores {
            self.check_virtual_cores(n)?;
        }
        let max = self.max_virtual_cores();
        // One validation pass, as a run's: `plan_explore` judges the
        // scenario with the exploration's overrides and fault; every
        // schedule runs that plan.
        let limits = self.limits;
        let plan = |sc: &Scenario| plan_explore(sc, &opts, &limits);
        self.start(text, DEFAULT_FILE, plan, spawn, |sc, plan| {
            let cores = opts.cores.map_or(sc.threads, |n| n as usize);
            let shape = (cores, opts.requests.unwrap_or(sc.workload.requests));
            let progress = Arc::new(ExploreProgress {
                tried: AtomicU32::new(0),
                budget: opts.schedules.max(1),
            });
            let counter = progress.clone();
            let job = move |_: Limits, host: ThreadHost, monitor: &RunMonitor| {
                if cores == 0 || cores > max {
                    return Err(vec![sc.diagnostic(
                        "threads",
                        format!(
                            "exploring needs 1 to {max} virtual cores in this browser, \
                                 the scenario has {cores} threads"
                        ),
                    )]);
                }
                let done = run_explore(plan, &host, monitor, |tried, _| {
                    // Relaxed: a display counter, nothing is published
                    // through it.
                    counter.tried.store(tried, Ordering::Relaxed);
                    ControlFlow::Continue(())
                })?;
                Ok(Finished::Explore(done))
            };
            (shape, Box::new(job) as Job, Some(progress))
        })
    }

    /// Claim the engine, parse `text` (named `file`) and judge it once
    /// with `plan` ([`parse_and_plan`]), and spawn the job `make` builds
    /// from the scenario and its plan (the job owns them).
    fn start<P>(
        &self,
        text: &str,
        file: &str,
        plan: impl FnOnce(&Scenario) -> Result<P, Vec<Diagnostic>>,
        spawn: impl FnOnce(Box<dyn FnOnce() + Send>),
        make: impl FnOnce(Scenario, P) -> ((usize, u32), Job, Option<Arc<ExploreProgress>>),
    ) -> Result<(), StartError> {
        let mut current = lock(&self.current);
        if current.is_some() {
            return Err(StartError::Busy);
        }
        let (sc, planned) = parse_and_plan(text, file, plan).map_err(StartError::Invalid)?;
        let ((threads, requests), job, explore) = make(sc, planned);
        let active = Arc::new(Active {
            monitor: RunMonitor::new(),
            threads,
            requests,
            explore,
            finished: AtomicBool::new(false),
            outcome: Mutex::new(None),
        });
        *current = Some(active.clone());
        drop(current);
        let host = self.host.clone();
        let limits = self.limits;
        spawn(Box::new(move || {
            let result = job(limits, host, &active.monitor);
            *lock(&active.outcome) = Some(result);
            // Release: publishes the outcome stored just above to the
            // poller's Acquire load.
            active.finished.store(true, Ordering::Release);
        }));
        Ok(())
    }

    /// The state of the current run (never blocks on the run itself).
    pub fn poll(&self) -> Poll {
        let current = lock(&self.current).clone();
        match current {
            None => Poll {
                running: false,
                done: false,
                snapshot: None,
            },
            Some(a) => Poll {
                running: true,
                // Acquire: pairs with the Release store after the outcome.
                done: a.finished.load(Ordering::Acquire),
                snapshot: Some(LiveSnapshot {
                    monitor: a.monitor.snapshot(),
                    threads: a.threads,
                    requests: a.requests,
                    explore: a.explore.as_ref().map(|p| ExploreSnapshot {
                        // Relaxed: see the store in `start_explore`.
                        tried: p.tried.load(Ordering::Relaxed),
                        budget: p.budget,
                    }),
                }),
            },
        }
    }

    /// Ask the current run to stop (no-op when none).
    pub fn cancel(&self) {
        if let Some(a) = lock(&self.current).as_ref() {
            a.monitor.cancel();
        }
    }

    /// Hold the current run's delivery back, or let it go on (no-op when
    /// no run is going on).
    pub fn set_paused(&self, paused: bool) {
        if let Some(a) = lock(&self.current).as_ref() {
            if paused {
                a.monitor.pause();
            } else {
                a.monitor.resume();
            }
        }
    }

    /// The finished run's outcome; frees the engine for the next run and
    /// keeps the report for [`Engine::trace_bytes`]. `None` when no run has
    /// finished.
    pub fn take_report(&self) -> Option<Outcome> {
        let mut current = lock(&self.current);
        let active = current.as_ref()?;
        // Acquire: pairs with the Release store after the outcome.
        if !active.finished.load(Ordering::Acquire) {
            return None;
        }
        let outcome = lock(&active.outcome).take()?;
        *current = None;
        drop(current);
        Some(match outcome {
            Ok(Finished::Bench(bench)) => Outcome::Bench { ok: true, bench },
            Ok(Finished::Explore(explore)) => Outcome::Explore { ok: true, explore },
            Ok(Finished::Run(mut report, ran, virtual_cores)) => {
                *lock(&self.last_scenario) = Some(*ran);
                // The report crosses to JS as JSON without its traces; they
                // are moved out and stay here until the next report.
                let traces: Vec<_> = report
                    .runs
                    .iter_mut()
                    .map(|r| std::mem::take(&mut r.trace))
                    .collect();
                let virtual_run = virtual_cores.map(|cores| VirtualRun {
                    cores,
                    cost_table: "reference",
                    trace_digests: traces
                        .iter()
                        .map(|t| format!("{:016x}", codec::digest(t)))
                        .collect(),
                });
                *lock(&self.last) = Some(traces);
                let report_id = lock(&self.kept).keep(report.clone());
                Outcome::Report {
                    ok: true,
                    report,
                    virtual_run,
                    report_id,
                }
            }
            Err(diagnostics) => Outcome::Refused {
                ok: false,
                diagnostics,
            },
        })
    }

    /// The workload graph of the last report's stream (JSON of the
    /// `workload-graph` stream view the repartitioning family registers,
    /// for its Partitions view): the stream is generated again from the scenario as it ran
    /// (same seed, same stream). Errors when there is no report, the app is
    /// not the kv-store, or the graph is too large to draw.
    pub fn workload_graph(&self) -> Result<String, String> {
        let sc = lock(&self.last_scenario)
            .clone()
            .ok_or("no report yet: run a scenario first")?;
        if !matches!(sc.app, psmr_core::app::AppSpec::KvStore { .. }) {
            return Err("the workload graph is drawn for the kv-store application".into());
        }
        let classes = sc.app.classes();
        let stream = psmr_core::workload::generate(&sc.app, &classes, &sc.workload);
        let workers = sc.threads.clamp(1, 64) as u32;
        psmr_schedulers::stream_view("workload-graph", &stream, workers)
            .ok_or("no family draws a workload graph")?
    }

    /// The kept reports of `report_ids` (as `take_report` numbered them),
    /// in that order, without traces; the error names the first id that is
    /// not kept (the engine keeps the last [`KEPT_REPORTS`]).
    pub fn kept_reports(&self, report_ids: &[u32]) -> Result<Vec<Report>, String> {
        lock(&self.kept).get(report_ids).map_err(|id| {
            format!("report #{id} is no longer kept (the engine keeps the last {KEPT_REPORTS}): run the check again")
        })
    }

    /// The packed trace (see `psmr_core::codec`) of run `run_index` of the
    /// last report; `None` when there is no such run.
    pub fn trace_bytes(&self, run_index: usize) -> Option<Vec<u8>> {
        let last = lock(&self.last);
        let trace = last.as_ref()?.get(run_index)?;
        Some(codec::encode_bytes(trace))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::SMALL;
    use std::time::{Duration, Instant};

    fn engine() -> Engine {
        Engine::new(ThreadHost::with_capacity(4).unwrap(), Limits::browser())
    }

    fn spawn_thread(job: Box<dyn FnOnce() + Send>) {
        std::thread::spawn(job);
    }

    /// For a start that must be refused: spawning fails the test.
    fn no_spawn(_: Box<dyn FnOnce() + Send>) {
        panic!("a refused start must not spawn its job")
    }

    /// The diagnostics of a start refused as invalid.
    fn invalid(started: Result<(), StartError>) -> Vec<Diagnostic> {
        match started {
            Err(StartError::Invalid(d)) => d,
            other => panic!("expected diagnostics, got {other:?}"),
        }
    }

    /// Poll until done (bounded: 60 s), like the worker does.
    fn wait_done(e: &Engine) -> Poll {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let p = e.poll();
            if p.done {
                return p;
            }
            assert!(Instant::now() < deadline, "run did not finish: {p:?}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn a_run_goes_from_start_to_report_and_frees_the_engine() {
        let e = engine();
        assert!(!e.poll().running);
        e.start_run(SMALL, "", spawn_thread).unwrap();
        let p = wait_done(&e);
        let snap = p.snapshot.unwrap();
        assert_eq!((snap.threads, snap.requests), (2, 2000));
        match e.take_report().unwrap() {
            Outcome::Report {
                ok,
                report,
                virtual_run,
                report_id,
            } => {
                assert!(ok);
                assert_eq!(virtual_run, None, "a real run says nothing of a model");
                assert_eq!(report.runs.len(), 1);
                assert!(report.runs[0].correct, "{:?}", report.runs[0].violation);
                // The report handed out is the one kept under its id.
                let kept = e.kept_reports(&[report_id]).unwrap();
                assert_eq!(
                    serde_json::to_value(&kept[0]).unwrap(),
                    serde_json::to_value(&report).unwrap()
                );
            }
            other => panic!("expected a report: {other:?}"),
        }
        assert_eq!(
            e.poll(),
            Poll {
                running: false,
                done: false,
                snapshot: None
            }
        );
        // The traces stay available after the report was taken.
        let bytes = e.trace_bytes(0).unwrap();
        assert!(!bytes.is_empty());
        assert_eq!(bytes.len() % (codec::WORDS * 4), 0);
        assert_eq!(e.trace_bytes(1), None);
    }

    /// The repartitioning view's graph comes from the last report's stream,
    /// with the requests override applied; other apps get a reason.
    #[test]
    fn the_workload_graph_of_the_last_kv_run() {
        let e = engine();
        assert!(e.workload_graph().unwrap_err().contains("no report"));
        let kv = r#"{
  "name": "kv", "description": "d",
  "app": { "kind": "kv-store", "shards": 2, "keys": 200 },
  "workload": { "requests": 5000, "ycsb": { "workload": "e-paper-001" } },
  "threads": 2,
  "schedulers": [ { "id": "repart-base", "repart": { "delta_p": 100 } } ]
}"#;
        e.start_run(kv, r#"{"requests": 300}"#, spawn_thread)
            .unwrap();
        wait_done(&e);
        assert!(matches!(
            e.take_report(),
            Some(Outcome::Report { ok: true, .. })
        ));
        let v: serde_json::Value = serde_json::from_str(&e.workload_graph().unwrap()).unwrap();
        assert_eq!(v["workers"], 2);
        let keys = v["keys"].as_array().unwrap().len();
        assert!(keys > 10 && keys <= 200 + 8, "{keys}");
        let first = v["first_request"].as_array().unwrap();
        assert!(
            first.iter().all(|r| r.as_u64().unwrap() < 300),
            "the override ran"
        );
        assert!(
            !v["edges"].as_array().unwrap().is_empty(),
            "scans co-access keys"
        );
        e.start_run(SMALL, "", spawn_thread).unwrap();
        wait_done(&e);
        e.take_report();
        assert!(e.workload_graph().unwrap_err().contains("kv-store"));
    }

    /// [`SMALL`] with early beside sequential.
    fn with_early() -> String {
        SMALL.replace(
            r#"[ { "id": "sequential" } ]"#,
            r#"[ { "id": "sequential" }, { "id": "early" } ]"#,
        )
    }

    /// Run `text` on `options`, return the report's virtual part.
    fn virtual_part(e: &Engine, text: &str, options: &str) -> VirtualRun {
        e.start_run(text, options, spawn_thread).unwrap();
        wait_done(e);
        match e.take_report() {
            Some(Outcome::Report {
                report,
                virtual_run: Some(v),
                ..
            }) => {
                assert!(report
                    .runs
                    .iter()
                    .all(|r| r.correct && r.threads == v.cores as usize));
                v
            }
            other => panic!("expected a virtual report: {other:?}"),
        }
    }

    /// A virtual run says so, and its trace is the same on every run: the
    /// digest repeats, and is the digest of the trace the page fetches.
    #[test]
    fn a_virtual_run_is_labelled_and_its_trace_digest_repeats() {
        let e = engine();
        let text = with_early();
        let opts = r#"{"virtual_cores": 2, "requests": 500}"#;
        let first = virtual_part(&e, &text, opts);
        assert_eq!((first.cores, first.cost_table), (2, "reference"));
        assert_eq!(first.trace_digests.len(), 2);
        let bytes = e.trace_bytes(1).unwrap();
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        let trace = codec::decode(&words).unwrap();
        assert_eq!(
            first.trace_digests[1],
            format!("{:016x}", codec::digest(&trace))
        );
        assert_eq!(virtual_part(&e, &text, opts), first);
    }

    #[test]
    fn virtual_cores_beyond_the_pool_are_refused_with_the_reason() {
        // Pool of 4 + 1 threads, browser limits (2 roles): 2 virtual cores.
        let e = engine();
        assert_eq!(e.max_virtual_cores(), 2);
        for n in [0, 3] {
            let opts = format!(r#"{{"virtual_cores": {n}}}"#);
            let err = e
                .start_run(SMALL, &opts, |_| panic!("spawned"))
                .unwrap_err();
            assert!(
                matches!(err, StartError::Options(ref m)
                    if m.contains("expected 1 to 2 virtual cores") && m.contains("pool of 5")),
                "{err:?}"
            );
        }
        virtual_part(&e, SMALL, r#"{"virtual_cores": 2}"#);
    }

    #[test]
    fn a_second_start_is_refused_until_the_report_is_taken() {
        let e = engine();
        // Hold the job instead of running it, so the run stays in progress.
        let mut held = None;
        e.start_run(SMALL, "", |job| held = Some(job)).unwrap();
        assert_eq!(e.start_run(SMALL, "", spawn_thread), Err(StartError::Busy));
        assert!(e.take_report().is_none(), "not finished yet");
        held.take().unwrap()();
        assert!(e.poll().done);
        assert!(e.take_report().is_some());
        e.start_run(SMALL, "", spawn_thread).unwrap();
        wait_done(&e);
    }

    #[test]
    fn an_invalid_scenario_is_refused_with_located_diagnostics() {
        let e = engine();
        let text = SMALL.replace("\"threads\": 2", "\"threads\": 0");
        let d = invalid(e.start_run(&text, r#"{"file":"broken.json"}"#, no_spawn));
        assert_eq!(d[0].file, "broken.json");
        assert_eq!(d[0].path, "threads");
        assert_eq!(d[0].line, 6, "{:?}", d[0]);
        // The engine stays free.
        assert!(!e.poll().running);
        assert_eq!(e.validate(&text, "broken.json"), d);
        assert!(e.validate(SMALL, "x.json").is_empty());
    }

    /// Issue 29: a run is judged in one pass, before it starts, on the
    /// scenario with the run's overrides applied (`plan_run`, as the native
    /// runner): an override out of range is refused at start, located at
    /// the field it replaces, and nothing is spawned (judged again in the
    /// job, it used to come back only as the run's outcome).
    #[test]
    fn a_run_is_judged_once_before_it_starts_with_its_overrides() {
        let e = engine();
        let d = invalid(e.start_run(SMALL, r#"{"threads":0}"#, no_spawn));
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!((d[0].path.as_str(), d[0].line), ("threads", 6), "{d:?}");
        assert!(!e.poll().running);
        // A file's value the override replaces is not judged (one pass over
        // the scenario as it runs): the run starts and runs 2 threads.
        let text = SMALL.replace("\"threads\": 2", "\"threads\": 0");
        e.start_run(&text, r#"{"threads":2}"#, spawn_thread)
            .unwrap();
        let snap = wait_done(&e).snapshot.unwrap();
        assert_eq!(snap.threads, 2);
        let Some(Outcome::Report { report, .. }) = e.take_report() else {
            panic!("expected a report")
        };
        assert!(report.runs[0].correct, "{:?}", report.runs[0].violation);
    }

    #[test]
    fn browser_limits_refuse_more_threads_than_the_pool_is_sized_for() {
        let e = engine();
        let text = SMALL.replace("\"threads\": 2", "\"threads\": 17");
        let d = e.validate(&text, DEFAULT_FILE);
        assert!(d.iter().any(|d| d.path == "threads"), "{d:?}");
    }

    #[test]
    fn malformed_options_are_an_error_not_a_run() {
        let e = engine();
        let err = e
            .start_run(SMALL, "{\"colour\": 1}", |_| panic!("spawned"))
            .unwrap_err();
        assert!(
            matches!(err, StartError::Options(ref m) if m.contains("colour")),
            "{err:?}"
        );
    }

    /// Start [`SMALL`] on `requests`, traces off, on 3 cores, paced at
    /// `pace_ns` a request; return once it has executed something (bounded:
    /// 60 s).
    fn start_paced(e: &Engine, requests: u32, pace_ns: u64) {
        let long = SMALL
            .replace("\"requests\": 2000", &format!("\"requests\": {requests}"))
            .replace("\"trace\": true", "\"trace\": false");
        let opts = format!(r#"{{"cores": 3, "pace_ns": {pace_ns}}}"#);
        e.start_run(&long, &opts, spawn_thread).unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        while e.poll().snapshot.map_or(0, |s| s.monitor.executed) == 0 {
            assert!(Instant::now() < deadline);
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Wait for the run under way and take its report.
    fn finished_report(e: &Engine) -> Report {
        wait_done(e);
        match e.take_report() {
            Some(Outcome::Report { report, .. }) => report,
            other => panic!("expected a report: {other:?}"),
        }
    }

    #[test]
    fn cancel_stops_a_long_run_and_reports_the_checked_prefix() {
        let e = engine();
        // Paced at 100 µs a request: about 2 s if nobody cancels.
        start_paced(&e, 20000, 100_000);
        e.cancel();
        let report = finished_report(&e);
        assert_eq!(report.cores, 3);
        let run = &report.runs[0];
        assert!(run.cancelled);
        assert!(run.metrics.requests < 20000, "{}", run.metrics.requests);
        assert!(run.correct, "{:?}", run.violation);
    }

    #[test]
    fn a_paused_run_delivers_nothing_until_resumed() {
        let e = engine();
        // Paced at 50 µs a request: about 0.5 s of delivery to pause in.
        start_paced(&e, 10000, 50_000);
        e.set_paused(true);
        // Let what was already delivered drain, then nothing may move.
        std::thread::sleep(Duration::from_millis(100));
        let held = e.poll().snapshot.unwrap().monitor;
        assert!(held.paused);
        std::thread::sleep(Duration::from_millis(200));
        let later = e.poll().snapshot.unwrap().monitor;
        assert_eq!(later.delivered, held.delivered, "no delivery while paused");
        assert!(later.delivered < 10000, "paused before the end");
        e.set_paused(false);
        let report = finished_report(&e);
        let run = &report.runs[0];
        assert!(!run.cancelled);
        assert_eq!(run.metrics.requests, 10000);
        assert!(run.correct, "{:?}", run.violation);
    }

    #[test]
    fn a_bench_sweeps_threads_against_the_sequential_baseline() {
        let e = engine();
        let text = with_early();
        e.start_bench(&text, r#"{"threads": [1, 2], "cores": 2}"#, spawn_thread)
            .unwrap();
        let p = wait_done(&e);
        assert_eq!(p.snapshot.unwrap().threads, 2);
        let Some(Outcome::Bench { ok: true, bench }) = e.take_report() else {
            panic!("expected a bench report")
        };
        assert_eq!(bench.cores, 2);
        // One sequential baseline, then early at 1 and 2 threads.
        let got: Vec<_> = bench
            .points
            .iter()
            .map(|p| (p.scheduler.as_str(), p.threads))
            .collect();
        assert_eq!(got, [("sequential", 1), ("early", 1), ("early", 2)]);
        assert!(bench.points.iter().all(|p| p.correct));
        // A bench leaves no traces behind for a run report.
        assert_eq!(e.trace_bytes(0), None);
    }

    /// Issue 29: a bench and an exploration are judged in one pass before
    /// they start, as a run is (`plan_bench`, `plan_explore`: each point's
    /// run with its overrides applied): a sweep beyond the pool and a
    /// fault the scheduler does not declare are refused at start and
    /// nothing is spawned (judged again in the job, both used to come back
    /// only as the outcome), and a file value every point replaces is not
    /// judged.
    #[test]
    fn a_bench_and_an_exploration_are_judged_once_before_they_start() {
        let e = engine();
        let d = invalid(e.start_bench(SMALL, r#"{"threads": [8]}"#, no_spawn));
        assert!(d[0].message.contains("--threads 8"), "{d:?}");
        assert!(!e.poll().running);
        let opts = r#"{"scheduler": "early", "fault": "no-such-fault", "cores": 2}"#;
        let d = invalid(e.start_explore(&with_early(), opts, no_spawn));
        assert!(
            d.iter().any(|d| d.message.contains("no-such-fault")),
            "{d:?}"
        );
        assert!(!e.poll().running);
        // The file's threads (0, out of range) are replaced at every point
        // of the sweep: the bench starts and runs 1 and 2 threads.
        let text = with_early().replace("\"threads\": 2", "\"threads\": 0");
        assert!(!e.validate(&text, DEFAULT_FILE).is_empty());
        e.start_bench(
            &text,
            r#"{"threads": [1, 2], "requests": 300}"#,
            spawn_thread,
        )
        .unwrap();
        wait_done(&e);
        let Some(Outcome::Bench { ok: true, bench }) = e.take_report() else {
            panic!("expected a bench report")
        };
        let got: Vec<_> = bench
            .points
            .iter()
            .map(|p| (p.scheduler.as_str(), p.threads, p.correct))
            .collect();
        assert_eq!(
            got,
            [
                ("sequential", 1, true),
                ("early", 1, true),
                ("early", 2, true)
            ]
        );
    }

    /// Start an exploration of `text` and wait for its outcome.
    fn explored(e: &Engine, text: &str, options: &str) -> Explored {
        e.start_explore(text, options, spawn_thread).unwrap();
        let p = wait_done(e);
        assert!(
            p.snapshot.unwrap().explore.is_some(),
            "an exploration says so"
        );
        match e.take_report() {
            Some(Outcome::Explore { ok: true, explore }) => explore,
            other => panic!("expected an exploration: {other:?}"),
        }
    }

    /// A correct scheduler explored within a small budget: every schedule
    /// ran, none violated, and the engine is free again.
    #[test]
    fn exploring_a_correct_scheduler_runs_the_whole_budget_and_finds_nothing() {
        let e = engine();
        let text = with_early();
        let done = explored(
            &e,
            &text,
            r#"{"scheduler": "early", "schedules": 3, "cores": 2, "requests": 200}"#,
        );
        assert_eq!((done.schedules, done.cores), (3, 2));
        assert!(done.found.is_none() && !done.stopped, "{done:?}");
        assert!(done.horizon > 1, "the earliest-clock run had sync points");
        assert!(!e.poll().running);
    }

    /// Cancel stops an exploration after the schedule under way; it says
    /// it stopped, and the engine takes the next job.
    #[test]
    fn cancel_stops_an_exploration_and_the_engine_stays_usable() {
        let e = engine();
        let text = with_early();
        let opts = r#"{"scheduler": "early", "schedules": 100000, "cores": 2, "requests": 300}"#;
        e.start_explore(&text, opts, spawn_thread).unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        let tried = |e: &Engine| {
            e.poll()
                .snapshot
                .and_then(|s| s.explore)
                .map_or(0, |x| x.tried)
        };
        while tried(&e) < 2 {
            assert!(Instant::now() < deadline, "no progress reported");
            std::thread::sleep(Duration::from_millis(2));
        }
        assert_eq!(e.poll().snapshot.unwrap().explore.unwrap().budget, 100000);
        e.cancel();
        wait_done(&e);
        let Some(Outcome::Explore { explore, .. }) = e.take_report() else {
            panic!("expected an exploration")
        };
        assert!(explore.stopped && explore.found.is_none(), "{explore:?}");
        assert!(explore.schedules >= 2 && explore.schedules < 100000);
        virtual_part(&e, &text, r#"{"virtual_cores": 2, "requests": 100}"#);
    }

    #[test]
    fn an_exploration_beyond_the_pool_is_refused() {
        let e = engine();
        let err = e
            .start_explore(SMALL, r#"{"scheduler": "early", "cores": 3}"#, |_| {
                panic!("spawned")
            })
            .unwrap_err();
        assert!(matches!(err, StartError::Options(ref m) if m.contains("virtual cores")));
    }

    /// With the broken variants compiled in: exploring early without its
    /// barrier finds the violation, and replaying the token (the fault set
    /// in the text, as the page does) gives the same run, digest and pair.
    #[cfg(feature = "fault-injection")]
    #[test]
    fn a_broken_variant_is_found_and_its_token_replays_the_same_run() {
        let e = engine();
        let text = include_str!("../../../../scenarios/classroom-spin.json");
        let done = explored(
            &e,
            text,
            r#"{"scheduler": "early", "fault": "early-no-barrier", "schedules": 200}"#,
        );
        let found = done.found.expect("the barrier-less early is caught");
        let broken = text.replace(
            r#"{ "id": "early", "early""#,
            r#"{ "id": "early", "fault": "early-no-barrier", "early""#,
        );
        assert_ne!(broken, text);
        let opts = format!(
            r#"{{"schedulers": ["early"], "schedule": "{}"}}"#,
            found.token
        );
        e.start_run(&broken, &opts, spawn_thread).unwrap();
        wait_done(&e);
        let Some(Outcome::Report {
            report,
            virtual_run: Some(v),
            ..
        }) = e.take_report()
        else {
            panic!("expected a virtual report")
        };
        assert_eq!(report.runs[0].violation.as_ref(), Some(&found.violation));
        assert_eq!(report.runs[0].violation_detail, found.detail);
        assert_eq!(v.trace_digests, [found.trace_digest]);
    }

    /// Run [`SMALL`] on `requests` and return its report and id.
    fn run_small(e: &Engine, requests: u32) -> (Report, u32) {
        let opts = format!(r#"{{"requests": {requests}, "trace": false}}"#);
        e.start_run(SMALL, &opts, spawn_thread).unwrap();
        wait_done(e);
        match e.take_report() {
            Some(Outcome::Report {
                report, report_id, ..
            }) => (report, report_id),
            other => panic!("expected a report: {other:?}"),
        }
    }

    /// Reports come back by id in the order asked, each the one that run
    /// produced; an id never handed out is refused with its number.
    #[test]
    fn kept_reports_come_back_by_id() {
        let e = engine();
        let (a, id_a) = run_small(&e, 100);
        let (b, id_b) = run_small(&e, 200);
        assert_ne!(id_a, id_b);
        let kept = e.kept_reports(&[id_b, id_a, id_b]).unwrap();
        let requests: Vec<_> = kept.iter().map(|r| r.stream.requests).collect();
        assert_eq!(
            requests,
            [b.stream.requests, a.stream.requests, b.stream.requests]
        );
        assert_eq!((a.stream.requests, b.stream.requests), (100, 200));
        let unknown = id_b.wrapping_add(1);
        let err = e.kept_reports(&[id_a, unknown]).unwrap_err();
        assert!(err.contains(&format!("#{unknown}")), "{err}");
        assert_eq!(e.kept_reports(&[]).unwrap().len(), 0);
    }

    /// The store holds the last [`KEPT_REPORTS`]: the oldest id goes first.
    #[test]
    fn kept_reports_are_bounded_oldest_first() {
        let (report, _) = run_small(&engine(), 100);
        let mut kept = KeptReports::default();
        let ids: Vec<u32> = (0..=KEPT_REPORTS)
            .map(|_| kept.keep(report.clone()))
            .collect();
        assert_eq!(kept.reports.len(), KEPT_REPORTS);
        assert_eq!(kept.get(&ids[..1]).unwrap_err(), ids[0]);
        assert_eq!(kept.get(&ids[1..]).unwrap().len(), KEPT_REPORTS);
    }

    #[test]
    fn outcome_json_matches_what_the_worker_expects() {
        let refused = Outcome::Refused {
            ok: false,
            diagnostics: vec![],
        };
        let v = serde_json::to_value(&refused).unwrap();
        assert_eq!(v, serde_json::json!({"ok": false, "diagnostics": []}));
        let p = Poll {
            running: true,
            done: false,
            snapshot: Some(LiveSnapshot {
                monitor: MonitorSnapshot {
                    scheduler: "early".into(),
                    run_index: 1,
                    runs_total: 2,
                    executed: 5,
                    delivered: 6,
                    elapsed_ms: 1.5,
                    paused: false,
                    workers: vec![psmr_core::exec::LiveSample {
                        executed: 3,
                        queue_len: 1,
                        state: psmr_core::exec::LiveState::Waiting,
                    }],
                },
                threads: 2,
                requests: 10,
                explore: None,
            }),
        };
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(v["snapshot"]["scheduler"], "early");
        assert_eq!(v["snapshot"]["threads"], 2);
        assert_eq!(v["snapshot"]["executed"], 5);
        assert_eq!(v["snapshot"]["workers"][0]["state"], "waiting");
    }
}
