//! Bench mode: sweep threads × write rate for each scheduler of a scenario,
//! trace off, each point checked by the oracle and compared with
//! sequential execution of the same stream (and, on commit streams, with
//! `epaxos` when the scenario lists it: PePaxos's speedup as paper 004
//! reports it).
//!
//! Pure over its inputs: the caller passes the thread host and the number of
//! cores (natively `available_parallelism`, in the browser
//! `navigator.hardwareConcurrency`), so the CLI and the wasm engine share it.

use psmr_core::SchedulerId;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::diag::Diagnostic;
use crate::expect::median;
use crate::parse::{threads_error, Limits};
use crate::runner::{plan_run, run_plan, select, Report, RunMode, RunMonitor, RunOptions, RunPlan};
use crate::scenario::Scenario;
use psmr_core::threads::{ThreadHost, MAX_WORKERS};
use psmr_core::virt::Costs;

/// What to sweep. Empty lists take the scenario's value.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BenchOptions {
    /// Worker thread counts.
    #[serde(default)]
    pub threads: Vec<usize>,
    /// Write shares (0..=1).
    #[serde(default)]
    pub writes: Vec<f64>,
    /// Scheduler labels or ids (empty: all of the scenario).
    #[serde(default)]
    pub schedulers: Vec<String>,
    /// Requests per stream (default: the scenario's).
    #[serde(default)]
    pub requests: Option<u32>,
    /// Sweep virtual cores instead of threads, up to this many (default
    /// list: powers of two up to it); overrides the scenario's
    /// `run.virtual_cores`. Every point, the sequential baseline included,
    /// then runs on virtual cores: one series of a model's numbers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub virtual_cores: Option<u32>,
    /// The cost table of virtual points (default: the reference table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub costs: Option<Costs>,
}

/// One measured point of the sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BenchPoint {
    pub scheduler: String,
    pub label: String,
    pub threads: usize,
    pub writes: f64,
    /// Median over the scenario's `run.repetitions`.
    pub throughput_ops_s: f64,
    /// Over sequential execution of the same stream.
    pub speedup_vs_sequential: f64,
    /// Over `epaxos` on the same stream (commit streams whose scenario
    /// lists `epaxos`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    // Absent, never null, in what the engine writes.
    #[schemars(with = "f64")]
    pub speedup_vs_epaxos: Option<f64>,
    /// Delivering thread's busy time per request.
    pub scheduler_ns_per_request: f64,
    /// The workers' execution time per request they executed, in µs (their
    /// execution intervals summed over the workers, over the requests).
    /// Against the 1-thread point it says whether workers ran slower side
    /// by side (shared cores or memory), apart from waiting. 0 for
    /// sequential execution, which runs on the delivering thread (its time
    /// is `scheduler_ns_per_request`).
    #[serde(default)]
    pub exec_us_per_request: f64,
    /// Share of the workers' measured time spent waiting (for a request to
    /// run, or for another thread), not executing: `(wait + idle) / (exec +
    /// wait + idle)` over the workers.
    #[serde(default)]
    pub worker_wait_share: f64,
    pub latency_p99_us: f64,
    /// Every repetition passed the oracle.
    pub correct: bool,
    pub violation: Option<String>,
    /// The run's threads (workers, the delivering thread and auxiliary
    /// threads such as PePaxos's graph builder) exceed the cores: threads
    /// time-share and the numbers say little about the scheduler. Never
    /// on virtual cores (each thread has its own).
    pub oversubscribed: bool,
    /// On virtual cores, the point's label (`virtual N cores (model, ...)`);
    /// absent for real threads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    // Absent, never null, in what the engine writes.
    #[schemars(with = "String")]
    pub mode_label: Option<String>,
}

/// The stream of one write share (its kind, size and, for commit streams,
/// SCC sizes).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BenchStream {
    pub writes: f64,
    pub stream: crate::runner::StreamInfo,
}

/// The sweep's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BenchReport {
    pub scenario: String,
    pub cores: usize,
    pub repetitions: u32,
    /// Real threads (absent) or virtual cores (`cores`: the sweep's
    /// largest count): then every point is a model's number.
    #[serde(default, skip_serializing_if = "RunMode::is_real")]
    pub mode: RunMode,
    pub points: Vec<BenchPoint>,
    /// One entry per write share swept.
    #[serde(default)]
    pub streams: Vec<BenchStream>,
}

/// Thread counts swept by default: powers of two up to the scenario's
/// threads, and the scenario's threads.
pub fn default_threads(sc: &Scenario) -> Vec<usize> {
    powers_up_to(sc.threads)
}

/// Powers of two below `n`, then `n`.
fn powers_up_to(n: usize) -> Vec<usize> {
    let mut t: Vec<usize> = std::iter::successors(Some(1usize), |x| Some(x * 2))
        .take_while(|x| *x < n)
        .collect();
    t.push(n);
    t
}

/// Run the sweep: [`plan_bench`], then [`run_bench`]. Invalid values
/// (threads over the limit or the host, a write share out of range, a
/// scenario with an explicit class mix asked to sweep writes, a point the
/// run checks refuse) come back as diagnostics before anything runs.
pub fn bench(
    sc: &Scenario,
    opts: &BenchOptions,
    limits: &Limits,
    host: &ThreadHost,
    cores: usize,
    monitor: &RunMonitor,
) -> Result<BenchReport, Vec<Diagnostic>> {
    run_bench(&plan_bench(sc, opts, limits, host)?, host, cores, monitor)
}

/// A checked sweep: every point's run planned ([`plan_run`]) once, with
/// that point's overrides applied, before anything runs. Invariant: each
/// write share has its baseline plan (sequential, then `epaxos` when it
/// is a baseline) and one plan per thread count of the parallel
/// schedulers, in sweep order; a repetition runs the same plan again.
pub struct BenchPlan {
    name: String,
    repetitions: u32,
    threads: Vec<usize>,
    model: Option<Costs>,
    /// Whether `epaxos` is a baseline (the second run of each baseline).
    epaxos: bool,
    /// The parallel schedulers' auxiliary threads, in their runs' order.
    parallel_roles: Vec<usize>,
    shares: Vec<SharePlan>,
}

/// The plans of one write share.
struct SharePlan {
    writes: f64,
    baseline: RunPlan,
    /// One per thread count (none without parallel schedulers).
    points: Vec<RunPlan>,
}

/// Check a sweep of `sc` and plan each of its points (see [`BenchPlan`]):
/// the sweep's own values first (threads against the limits and `host`,
/// write shares), then every point's run as it will run.
pub fn plan_bench(
    sc: &Scenario,
    opts: &BenchOptions,
    limits: &Limits,
    host: &ThreadHost,
) -> Result<BenchPlan, Vec<Diagnostic>> {
    let vcores = opts.virtual_cores.or(sc.run.virtual_cores);
    let threads = match (opts.threads.is_empty(), vcores) {
        (false, _) => opts.threads.clone(),
        (true, Some(n)) => powers_up_to(n as usize),
        (true, None) => default_threads(sc),
    };
    let model = vcores.map(|_| opts.costs.clone().unwrap_or_else(Costs::reference));
    let writes = if opts.writes.is_empty() {
        vec![sc.workload.writes]
    } else {
        opts.writes.clone()
    };
    // No list given: the file's worker count tops the sweep, and a count
    // out of range is the file's error, worded as validation words it.
    if opts.threads.is_empty() && vcores.is_none() {
        if let Some(d) = threads_error(sc, limits, false) {
            return Err(vec![d]);
        }
    }
    let pool = model.as_ref().map(|_| usize::MAX);
    preflight(sc, opts, &threads, &writes, limits, pool, host)?;
    let base = RunOptions {
        requests: opts.requests,
        trace: Some(false),
        costs: model.clone(),
        ..RunOptions::default()
    };
    // On virtual cores every point's workers are its virtual cores.
    let on = |t: usize| RunOptions {
        threads: Some(t),
        virtual_cores: model.as_ref().map(|_| t as u32),
        ..base.clone()
    };
    let selected = select(
        sc,
        &RunOptions {
            schedulers: opts.schedulers.clone(),
            ..RunOptions::default()
        },
    )?;
    let name = |s: &crate::runner::Selected| {
        s.spec
            .label
            .clone()
            .unwrap_or_else(|| s.spec.id.to_string())
    };
    // epaxos uses one executor whatever the thread count: like sequential,
    // one baseline per write share (on commit streams).
    let epaxos = selected
        .iter()
        .find(|s| {
            s.spec.id == SchedulerId::Epaxos && sc.stream_kind() == psmr_core::StreamKind::Commits
        })
        .map(name);
    let parallel: Vec<String> = selected
        .iter()
        .filter(|s| s.spec.id != SchedulerId::Sequential && Some(name(s)) != epaxos)
        .map(name)
        .collect();
    let roles = |label: &String| {
        sc.find_scheduler(label)
            .map(|i| sc.schedulers[i].id)
            .or_else(|| label.parse().ok())
            .map_or(0, |id| psmr_schedulers::needs(id).roles.len())
    };
    let mut shares = Vec::new();
    for &w in &writes {
        let mut swept = sc.clone();
        swept.workload.writes = w;
        // Sequential does not depend on the thread count: one baseline per
        // write share.
        let mut baselines = vec![SchedulerId::Sequential.to_string()];
        baselines.extend(epaxos.clone());
        let seq_opts = RunOptions {
            schedulers: baselines,
            ..on(1)
        };
        let baseline = plan_run(&swept, &seq_opts, limits)?;
        let mut points = Vec::new();
        for &t in threads.iter().filter(|_| !parallel.is_empty()) {
            let o = RunOptions {
                schedulers: parallel.clone(),
                ..on(t)
            };
            points.push(plan_run(&swept, &o, limits)?);
        }
        shares.push(SharePlan {
            writes: w,
            baseline,
            points,
        });
    }
    Ok(BenchPlan {
        name: sc.name.clone(),
        repetitions: sc.run.repetitions().max(1),
        threads,
        model,
        epaxos: epaxos.is_some(),
        parallel_roles: parallel.iter().map(roles).collect(),
        shares,
    })
}

/// Run a checked sweep, point after point, on `host` (`cores`: the
/// machine's, for the oversubscription flag). A cancelled `monitor` stops
/// it after the run under way: the points measured so far come back.
pub fn run_bench(
    plan: &BenchPlan,
    host: &ThreadHost,
    cores: usize,
    monitor: &RunMonitor,
) -> Result<BenchReport, Vec<Diagnostic>> {
    let reps = plan.repetitions;
    let model = plan.model.as_ref();
    let mut points = Vec::new();
    let mut streams = Vec::new();
    for share in &plan.shares {
        let seq = repeat(&share.baseline, host, monitor, reps)?;
        let at = Where {
            writes: share.writes,
            cores,
            model,
        };
        let Some(seq_point) = point(&seq, 0, 1, &at, 0, None, None) else {
            break; // cancelled
        };
        if let Some(first) = seq.first() {
            streams.push(BenchStream {
                writes: share.writes,
                stream: first.stream.clone(),
            });
        }
        let seq_ops = seq_point.throughput_ops_s;
        points.push(seq_point);
        let mut epaxos_ops = None;
        if plan.epaxos {
            let Some(p) = point(&seq, 1, 1, &at, 0, Some(seq_ops), None) else {
                break;
            };
            epaxos_ops = Some(p.throughput_ops_s);
            points.push(BenchPoint {
                speedup_vs_epaxos: Some(1.0),
                ..p
            });
        }
        for (&t, run) in plan.threads.iter().zip(&share.points) {
            if monitor.is_cancelled() {
                break;
            }
            let reports = repeat(run, host, monitor, reps)?;
            for (i, &aux) in plan.parallel_roles.iter().enumerate() {
                if let Some(p) = point(&reports, i, t, &at, aux, Some(seq_ops), epaxos_ops) {
                    points.push(p);
                }
            }
        }
    }
    let mode = match model {
        Some(c) => RunMode::virtual_run(plan.threads.iter().copied().max().unwrap_or(1), c),
        None => RunMode::Real,
    };
    Ok(BenchReport {
        scenario: plan.name.clone(),
        cores,
        repetitions: reps,
        mode,
        points,
        streams,
    })
}

/// `pool`: the threads a point may have (a virtual point gets a pool of
/// its own: `usize::MAX`), else the host's.
fn preflight(
    sc: &Scenario,
    opts: &BenchOptions,
    threads: &[usize],
    writes: &[f64],
    limits: &Limits,
    pool: Option<usize>,
    host: &ThreadHost,
) -> Result<(), Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let roles = sc
        .schedulers
        .iter()
        .map(|s| psmr_schedulers::needs(s.id).roles.len())
        .max()
        .unwrap_or(0);
    for &t in threads {
        let pool_max = match pool {
            Some(_) => MAX_WORKERS,
            None => host.max_workers(roles),
        };
        let max = limits.max_threads.min(pool_max);
        if t == 0 || t > max {
            errors.push(sc.diagnostic(
                "threads",
                format!(
                    "--threads {t}: expected 1..={max} (limit of this engine and its thread pool)"
                ),
            ));
        }
    }
    for &w in writes {
        if !(0.0..=1.0).contains(&w) {
            errors.push(sc.diagnostic(
                "workload.writes",
                format!("--writes {w}: expected a share between 0 and 1"),
            ));
        }
    }
    if !opts.writes.is_empty() && sc.workload.mix.is_some() {
        errors.push(sc.diagnostic(
            "workload.mix",
            "this scenario gives an explicit class mix; its write share cannot be swept".into(),
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// `reps` runs of one checked point (fewer once `monitor` is cancelled).
fn repeat(
    plan: &RunPlan,
    host: &ThreadHost,
    monitor: &RunMonitor,
    reps: u32,
) -> Result<Vec<Report>, Vec<Diagnostic>> {
    let mut out = Vec::new();
    for _ in 0..reps {
        if monitor.is_cancelled() {
            break;
        }
        out.push(run_plan(plan, host, monitor)?);
    }
    Ok(out)
}

/// The workers' execution time per executed request, in µs (0 without any).
fn exec_us_per_request(m: &psmr_core::metrics::RunMetrics) -> f64 {
    let executed: u64 = m.threads.iter().map(|t| t.executed).sum();
    let exec_ms: f64 = m.threads.iter().map(|t| t.exec_ms).sum();
    if executed == 0 {
        0.0
    } else {
        exec_ms * 1e3 / executed as f64
    }
}

/// The workers' waiting and idle time over all their measured time.
fn worker_wait_share(m: &psmr_core::metrics::RunMetrics) -> f64 {
    let exec: f64 = m.threads.iter().map(|t| t.exec_ms).sum();
    let waits: f64 = m.threads.iter().map(|t| t.wait_ms + t.idle_ms).sum();
    if exec + waits <= 0.0 {
        0.0
    } else {
        waits / (exec + waits)
    }
}

/// What the points of one write share have in common.
struct Where<'c> {
    writes: f64,
    /// Cores of the machine.
    cores: usize,
    /// The cost model of virtual points; `None` on real threads.
    model: Option<&'c Costs>,
}

/// The point of run `i` over `reports` (its repetitions); `None` when a
/// repetition lacks it or it was cancelled. `aux`: the scheduler's
/// auxiliary threads.
fn point(
    reports: &[Report],
    i: usize,
    threads: usize,
    at: &Where<'_>,
    aux: usize,
    seq_ops: Option<f64>,
    epaxos_ops: Option<f64>,
) -> Option<BenchPoint> {
    let Where {
        writes,
        cores,
        model,
    } = *at;
    let runs: Vec<_> = reports
        .iter()
        .map(|r| r.runs.get(i))
        .collect::<Option<_>>()?;
    let first = *runs.first()?;
    if runs.iter().any(|r| r.cancelled) {
        return None;
    }
    let med = |f: &dyn Fn(&crate::runner::RunReport) -> f64| {
        let mut v: Vec<f64> = runs.iter().map(|r| f(r)).collect();
        median(&mut v).unwrap_or(0.0)
    };
    let throughput = med(&|r| r.throughput_ops_s);
    let bad = runs.iter().find(|r| !r.correct);
    Some(BenchPoint {
        scheduler: first.scheduler.clone(),
        label: first.label.clone(),
        threads,
        writes,
        throughput_ops_s: throughput,
        speedup_vs_sequential: match seq_ops {
            Some(s) if s > 0.0 => throughput / s,
            _ => 1.0,
        },
        speedup_vs_epaxos: epaxos_ops.filter(|e| *e > 0.0).map(|e| throughput / e),
        scheduler_ns_per_request: med(&|r| r.metrics.scheduler_ns_per_request),
        exec_us_per_request: med(&|r| exec_us_per_request(&r.metrics)),
        worker_wait_share: med(&|r| worker_wait_share(&r.metrics)),
        latency_p99_us: med(&|r| r.latency_us.p99),
        correct: bad.is_none(),
        violation: bad.and_then(|r| r.violation.clone()),
        oversubscribed: model.is_none() && threads + 1 + aux > cores,
        mode_label: model.map(|c| c.label(threads)),
    })
}
