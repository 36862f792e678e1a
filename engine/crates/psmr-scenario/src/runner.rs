//! Running a scenario: one request stream, every scheduler, every run
//! checked by the oracle.
//!
//! The stream is generated once and the sequential reference computed once,
//! so every scheduler of a scenario sees the identical stream and is judged
//! against the same reference.

use psmr_core::scheduler::SchedulerInfo;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use psmr_core::cancel::CancelToken;
use psmr_core::exec::{Delivery, LiveSample, Progress};
use psmr_core::metrics::{LatencyUs, RunMetrics};
use psmr_core::oracle::{Reference, Violation};
use psmr_core::run::{run_checked, RoleLane, RunInput, RunResult};
use psmr_core::threads::ThreadHost;
use psmr_core::trace::{TraceConfig, TraceEvent, TraceWindow};
use psmr_core::workload::{class_weights_for, generate_stream};
use psmr_core::{ClassTable, RunError, SchedulerId, Stream};
use psmr_schedulers::{build, needs, BuildEnv, SchedulerSpec};
use serde::{Deserialize, Serialize};

use crate::locate::element;
use crate::parse::{validate, Limits};
use crate::scenario::Scenario;
use crate::Diagnostic;

/// Overrides of a scenario's settings for one invocation (CLI flags, the
/// lab's controls). `None` keeps the scenario's value.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunOptions {
    /// Scheduler labels or ids to run, in this order; empty = all of the
    /// scenario. An id the scenario does not list runs with its defaults.
    #[serde(default)]
    pub schedulers: Vec<String>,
    pub threads: Option<usize>,
    pub requests: Option<u32>,
    pub seed: Option<u64>,
    pub trace: Option<bool>,
    pub pace_ns: Option<u64>,
    /// Another delivery model than the scenario's.
    #[serde(default)]
    pub delivery: Option<Delivery>,
    /// Pace per worker thread (index = worker id), replacing `pace_ns` for
    /// those threads: slow one thread down (a classroom what-if).
    #[serde(default)]
    pub thread_pace_ns: Option<Vec<u64>>,
    /// Run on this many virtual cores (worker threads, replacing `threads`)
    /// under a conductor with the reference cost table, in virtual time
    /// (issue 25, docs/protocols/virtual-cores.md). Rust callers only yet:
    /// the report does not label such a run, so no front end offers it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub virtual_cores: Option<u32>,
}

/// What a poller sees of a scenario run in progress.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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
    pub fn is_paused(&self) -> bool {
        self.cancel.is_paused()
    }
    /// Clear a cancellation, to reuse the monitor for another run.
    pub fn reset(&self) {
        self.cancel.reset();
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

/// The result of running a scenario: the CLI's `--json` contract.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    pub scenario: String,
    /// Cores of the machine (natively `available_parallelism`; the browser
    /// side sets `navigator.hardwareConcurrency`).
    pub cores: usize,
    /// The stream every run received.
    #[serde(default)]
    pub stream: StreamInfo,
    /// The request classes (labels, shards, the conflict relation).
    #[serde(default)]
    pub classes: Vec<ClassInfo>,
    pub runs: Vec<RunReport>,
}

/// What the views need to know about the stream.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StreamInfo {
    /// `total`, `commits` or `events`.
    pub kind: String,
    pub requests: u32,
    /// Delivery units: requests, instances or root events.
    pub deliveries: u32,
    /// The cell space (`shards`, `keys`, `colors`) and its dense cells.
    pub cells: String,
    pub dense_cells: u32,
    /// Commit streams: how many SCCs of each size the instances' dependency
    /// graph has (paper 004's collisions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scc: Option<psmr_core::commit_sim::SccHistogram>,
}

/// One request class, for the views (no more guessing from names).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassInfo {
    pub name: String,
    pub weight: f64,
    /// The shard of a local class (0-based), absent for a global one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<u16>,
    pub write: bool,
    /// Ids of the classes it conflicts with (itself included when it has
    /// internal conflicts).
    pub conflicts: Vec<u16>,
}

fn class_infos(classes: &ClassTable) -> Vec<ClassInfo> {
    let n = classes.len() as u16;
    classes
        .classes()
        .iter()
        .enumerate()
        .map(|(i, c)| ClassInfo {
            name: c.name.clone(),
            weight: c.weight,
            shard: c.shard,
            write: c.write,
            conflicts: (0..n).filter(|j| classes.conflicts(i as u16, *j)).collect(),
        })
        .collect()
}

/// What the report says about `s`.
pub fn stream_info(s: &Stream) -> StreamInfo {
    StreamInfo {
        kind: s.kind().as_str().into(),
        requests: s.len() as u32,
        deliveries: s.deliveries() as u32,
        cells: psmr_core::SpaceKind::of(s.space).as_str().into(),
        dense_cells: s.dense.cells() as u32,
        scc: s
            .commits()
            .and_then(|t| psmr_core::commit_sim::scc_histogram(t).ok()),
    }
}

/// One scheduler's run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunReport {
    /// Scheduler id.
    pub scheduler: String,
    /// The scheduler's family (`sequential`, `early`, `work-stealing`,
    /// `late`, `epaxos`, `repartitioning`, `coloring`).
    #[serde(default)]
    pub family: String,
    /// Label (the id unless the scenario gives one).
    pub label: String,
    pub threads: usize,
    /// Requests in the stream.
    pub requests: u32,
    pub throughput_ops_s: f64,
    pub latency_us: LatencyUs,
    /// The oracle's verdict.
    pub correct: bool,
    /// What the oracle found wrong, in words naming the offending pair.
    pub violation: Option<String>,
    /// The same, structured (request ids, classes, shard) for the views.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub violation_detail: Option<Violation>,
    /// Digest of the final application state, hex.
    pub state_digest: String,
    /// The run was cancelled: only the delivered prefix was checked.
    pub cancelled: bool,
    pub metrics: RunMetrics,
    /// Throughput over the sequential run's on the same stream (present
    /// when the scenario ran `sequential`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speedup_vs_sequential: Option<f64>,
    /// The trace hit its event bound and was cut (see `trace_window`).
    #[serde(default)]
    pub trace_truncated: bool,
    /// Where the trace was cut, if it was.
    #[serde(default)]
    pub trace_window: TraceWindow,
    /// The delivery model of the run (defaults resolved).
    #[serde(default)]
    pub delivery: Delivery,
    /// Auxiliary threads and their trace lanes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roles: Vec<RoleLane>,
    /// The scheduler's configuration: its classes-to-threads mapping (early
    /// family) and how it was obtained.
    #[serde(default)]
    pub info: SchedulerInfo,
    /// The recorded events, sorted by seq (packed for the web app with
    /// `psmr_core::codec`).
    #[serde(skip)]
    pub trace: Vec<TraceEvent>,
}

impl RunReport {
    fn from_result(spec: &SchedulerSpec, requests: u32, r: RunResult) -> Self {
        RunReport {
            scheduler: r.scheduler.to_string(),
            family: needs(r.scheduler)
                .map(|n| n.family.as_str())
                .unwrap_or_default()
                .into(),
            label: spec.name(),
            threads: r.threads,
            requests,
            throughput_ops_s: r.metrics.throughput_ops_s,
            latency_us: r.metrics.latency_us.clone(),
            correct: r.verdict.correct,
            violation: r.verdict.violation.as_ref().map(|v| v.to_string()),
            violation_detail: r.verdict.violation,
            state_digest: format!("{:016x}", r.digest),
            cancelled: r.cancelled,
            metrics: r.metrics,
            speedup_vs_sequential: None,
            trace_truncated: r.trace_window.cut,
            trace_window: r.trace_window,
            delivery: r.delivery,
            roles: r.roles,
            info: r.info,
            trace: r.trace,
        }
    }
}

/// Cores of this machine (1 when unknown, e.g. in wasm).
pub fn available_cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// Index of the scheduler named `name` (a label first, else an id).
pub fn find_scheduler(sc: &Scenario, name: &str) -> Option<usize> {
    sc.schedulers
        .iter()
        .position(|s| s.label.as_deref() == Some(name))
        .or_else(|| sc.schedulers.iter().position(|s| s.id.as_str() == name))
}

/// One scheduler entry selected to run; `index` is its place in the file
/// (`None` for an id given only on the command line).
#[derive(Clone, Debug)]
pub struct Selected {
    pub index: Option<usize>,
    pub spec: SchedulerSpec,
}

impl Selected {
    /// Field path of the entry, for diagnostics.
    pub fn path(&self) -> String {
        match self.index {
            Some(i) => element("schedulers", i),
            None => "schedulers".into(),
        }
    }
}

/// The schedulers `opts` selects, in run order.
pub fn select(sc: &Scenario, opts: &RunOptions) -> Result<Vec<Selected>, Vec<Diagnostic>> {
    if opts.schedulers.is_empty() {
        return Ok(sc
            .schedulers
            .iter()
            .enumerate()
            .map(|(i, s)| Selected {
                index: Some(i),
                spec: s.clone(),
            })
            .collect());
    }
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for name in &opts.schedulers {
        if let Some(i) = find_scheduler(sc, name) {
            out.push(Selected {
                index: Some(i),
                spec: sc.schedulers[i].clone(),
            });
            continue;
        }
        match SchedulerId::from_str(name) {
            Ok(id) => out.push(Selected {
                index: None,
                spec: SchedulerSpec::new(id),
            }),
            Err(m) => errors.push(sc.diagnostic("schedulers", format!("--scheduler: {m}"))),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The scenario with `opts`' overrides applied (threads, requests, seed,
/// trace, pace), keeping the source for locating errors.
pub fn effective(sc: &Scenario, opts: &RunOptions) -> Scenario {
    let mut e = sc.clone();
    if let Some(t) = opts.threads {
        e.threads = t;
    }
    if let Some(r) = opts.requests {
        e.workload.requests = r;
    }
    if let Some(s) = opts.seed {
        e.workload.seed = s;
    }
    if let Some(t) = opts.trace {
        e.run.trace = Some(t);
    }
    if let Some(p) = opts.pace_ns {
        e.run.pace_ns = Some(p);
    }
    if let Some(d) = opts.delivery {
        e.delivery = Some(d);
    }
    e
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
    let mut classes = sc.app.classes();
    let weights = class_weights_for(Some(&sc.app), &classes, &sc.workload);
    classes.set_weights(&weights);
    let stream = generate_stream(&sc.app, &classes, &sc.workload)
        .map_err(|e| vec![sc.diagnostic(&e.path, e.message)])?;
    Ok((classes, stream))
}

/// Schedulers that route by class need classes that cover the stream;
/// check once per scenario and locate a failure at the scheduler entry.
fn check_covering(
    sc: &Scenario,
    selected: &[Selected],
    prepared: &Prepared,
) -> Result<(), Vec<Diagnostic>> {
    let routes = selected
        .iter()
        .filter(|s| needs(s.spec.id).is_some_and(|n| n.covering_classes))
        .collect::<Vec<_>>();
    if routes.is_empty() {
        return Ok(());
    }
    match prepared.classes.check_covers(&prepared.stream) {
        Ok(()) => Ok(()),
        Err(e) => Err(routes
            .iter()
            .map(|s| {
                sc.diagnostic(
                    &s.path(),
                    format!("scheduler `{}` routes by class, but {e}", s.spec.name()),
                )
            })
            .collect()),
    }
}

/// A run error as a diagnostic at the scheduler entry (or at `threads` when
/// the host lacks threads).
pub fn run_error_diagnostic(sc: &Scenario, sel: &Selected, e: &RunError) -> Diagnostic {
    let name = sel.spec.name();
    match e {
        RunError::Threads(m) => sc.diagnostic("threads", format!("scheduler `{name}`: {m}")),
        RunError::NotImplemented(_) => sc.diagnostic(
            &member_or(&sel.path(), "id"),
            format!("{e}; implemented schedulers run, this one cannot yet"),
        ),
        RunError::InvalidConfig(_) => {
            sc.diagnostic(&sel.path(), format!("scheduler `{name}`: {e}"))
        }
    }
}

fn member_or(path: &str, field: &str) -> String {
    if path.ends_with(']') {
        crate::locate::member(path, field)
    } else {
        path.to_string()
    }
}

/// The per-thread pace override names existing workers and stays under
/// the pace limit (located at `run.pace_ns`, the setting it refines).
fn check_thread_pace(sc: &Scenario, opts: &RunOptions) -> Vec<Diagnostic> {
    let Some(p) = &opts.thread_pace_ns else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if p.len() > sc.threads {
        out.push(sc.diagnostic(
            "run.pace_ns",
            format!(
                "thread_pace_ns lists {} threads; the run has {}",
                p.len(),
                sc.threads
            ),
        ));
    }
    if let Some((t, ns)) = p
        .iter()
        .enumerate()
        .find(|(_, ns)| **ns > crate::parse::MAX_PACE_NS)
    {
        out.push(sc.diagnostic(
            "run.pace_ns",
            format!(
                "thread_pace_ns[{t}]: expected at most {} ns, got {ns}",
                crate::parse::MAX_PACE_NS
            ),
        ));
    }
    out
}

/// A host running every team on virtual cores with the reference table:
/// `host`'s pool if it holds `need` threads, else (natively) a pool of its
/// own, so a virtual run may have more workers than the machine's pool.
fn virtual_cores_host(host: &ThreadHost, need: usize) -> Result<ThreadHost, String> {
    let pool = if need <= host.capacity() {
        host.clone()
    } else {
        ThreadHost::with_capacity(need - 1)?
    };
    Ok(pool.virtual_cores(psmr_core::virt::CostTable::reference()))
}

/// Run every selected scheduler of `sc` on one stream, each checked by the
/// oracle. Errors (invalid overrides, limits, a scheduler that cannot run)
/// come back as located diagnostics before any long run starts, except a
/// host refusing threads, which is found when that run starts.
pub fn run_scenario(
    sc: &Scenario,
    opts: &RunOptions,
    limits: &Limits,
    host: &ThreadHost,
    monitor: &RunMonitor,
) -> Result<Report, Vec<Diagnostic>> {
    let virtual_opts;
    let opts = match opts.virtual_cores {
        Some(n) => {
            virtual_opts = RunOptions {
                threads: Some(n as usize),
                ..opts.clone()
            };
            &virtual_opts
        }
        None => opts,
    };
    let eff = effective(sc, opts);
    let mut errors = validate(&eff, limits);
    errors.extend(check_thread_pace(&eff, opts));
    if !errors.is_empty() {
        return Err(errors);
    }
    let selected = select(&eff, opts)?;
    // Ids named only on the command line were not validated with the file.
    let extra: Vec<Diagnostic> = selected
        .iter()
        .filter(|s| s.index.is_none())
        .flat_map(|s| crate::parse::check_entry(&eff, limits, &s.path(), &s.spec))
        .collect();
    if !extra.is_empty() {
        return Err(extra);
    }
    let threads = eff.threads;
    let roles = selected
        .iter()
        .filter_map(|s| needs(s.spec.id))
        .map(|n| n.roles.len())
        .max()
        .unwrap_or(0);
    let virtual_host;
    let host = match opts.virtual_cores {
        Some(_) => {
            virtual_host = virtual_cores_host(host, threads + 1 + roles)
                .map_err(|e| vec![eff.diagnostic("threads", e)])?;
            &virtual_host
        }
        None => host,
    };
    if threads + 1 + roles > host.capacity() {
        let aux = if roles > 0 {
            format!(" (and {roles} auxiliary)")
        } else {
            String::new()
        };
        return Err(vec![eff.diagnostic(
            "threads",
            format!(
                "a run with {threads} worker threads{aux} needs {} pool threads, this engine has {}",
                threads + 1 + roles,
                host.capacity()
            ),
        )]);
    }
    let prepared = prepare(&eff)?;
    check_covering(&eff, &selected, &prepared)?;
    let env = BuildEnv {
        classes: &prepared.classes,
        threads,
    };
    let mut built = Vec::with_capacity(selected.len());
    let mut errors = Vec::new();
    for sel in &selected {
        match build(&sel.spec, &env) {
            Ok(s) => built.push(s),
            Err(e) => errors.push(run_error_diagnostic(&eff, sel, &e)),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let trace = TraceConfig {
        enabled: eff.run.trace(),
        max_events: eff
            .run
            .max_trace_events
            .unwrap_or(limits.max_trace_events)
            .min(limits.max_trace_events),
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
            threads,
            &input,
            &prepared.reference,
            monitor.cancel_token(),
            &progress,
        )
        .map_err(|e| vec![run_error_diagnostic(&eff, sel, &e)])?;
        runs.push(RunReport::from_result(
            &sel.spec,
            eff.workload.requests,
            result,
        ));
    }
    fill_speedups(&mut runs);
    Ok(Report {
        scenario: eff.name.clone(),
        cores: available_cores(),
        stream: stream_info(&prepared.stream),
        classes: class_infos(&prepared.classes),
        runs,
    })
}

/// Speedup of every run over the (complete) sequential run, if any.
fn fill_speedups(runs: &mut [RunReport]) {
    let base = runs
        .iter()
        .find(|r| r.scheduler == SchedulerId::Sequential.as_str() && !r.cancelled)
        .map(|r| r.throughput_ops_s);
    if let Some(base) = base.filter(|b| *b > 0.0) {
        for r in runs.iter_mut() {
            r.speedup_vs_sequential = Some(r.throughput_ops_s / base);
        }
    }
}

/// Reports of every repetition and the expectations judged on them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CheckOutcome {
    pub scenario: String,
    pub reports: Vec<Report>,
    pub results: Vec<crate::expect::ExpectationResult>,
}

/// Run `sc` as many times as its expectations ask ([`crate::expect::repetitions`])
/// and judge them: the one implementation behind `psmr check` and the lab.
pub fn check_scenario(
    sc: &Scenario,
    opts: &RunOptions,
    limits: &Limits,
    host: &ThreadHost,
    monitor: &RunMonitor,
) -> Result<CheckOutcome, Vec<Diagnostic>> {
    let n = crate::expect::repetitions(sc);
    let mut reports = Vec::with_capacity(n as usize);
    for _ in 0..n {
        if monitor.is_cancelled() {
            break;
        }
        reports.push(run_scenario(sc, opts, limits, host, monitor)?);
    }
    let results = crate::expect::evaluate(sc, &reports);
    Ok(CheckOutcome {
        scenario: sc.name.clone(),
        reports,
        results,
    })
}
