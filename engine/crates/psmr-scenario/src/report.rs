//! The report of a scenario run: the CLI's `--json` contract and what the
//! web app reads (one [`RunReport`] per scheduler run).

use psmr_core::exec::Delivery;
use psmr_core::metrics::{LatencyUs, RunMetrics};
use psmr_core::oracle::Violation;
use psmr_core::run::{RoleLane, RunResult};
use psmr_core::scheduler::SchedulerInfo;
use psmr_core::trace::{TraceEvent, TraceWindow};
use psmr_core::virt::{CostSource, CostTable, Costs};
use psmr_core::{ClassTable, Family, SchedulerId, Stream};
use psmr_schedulers::SchedulerSpec;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The result of running a scenario: the CLI's `--json` contract.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
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
    /// Real threads (absent, the default) or virtual cores: then every
    /// number of the report is a model's, in virtual time.
    #[serde(default, skip_serializing_if = "RunMode::is_real")]
    pub mode: RunMode,
    pub runs: Vec<RunReport>,
}

/// How a report's runs ran. Serialized `"real"` or `{"virtual": {...}}`;
/// a real report omits it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RunMode {
    /// On this machine's threads: measured numbers.
    #[default]
    Real,
    /// On virtual cores under a conductor: a model's numbers.
    // Boxed: the cost table makes it far larger than `Real`.
    Virtual(Box<VirtualMode>),
}

/// A virtual run's cores, cost table and where the table came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VirtualMode {
    /// The modelled machine's cores: the workers (as many, unless the
    /// run set its threads), the auxiliary roles and the delivering thread
    /// time-share them.
    pub cores: usize,
    pub cost_table: CostTable,
    pub source: CostSource,
    /// What every row, chart and CSV line of the run says:
    /// `virtual N cores (model, reference cost table)` or
    /// `virtual N cores (model, calibrated on <where>, <when>)`.
    pub label: String,
}

impl RunMode {
    /// A run on `cores` virtual cores under `costs`.
    pub fn virtual_run(cores: usize, costs: &Costs) -> Self {
        RunMode::Virtual(Box::new(VirtualMode {
            cores,
            cost_table: costs.table,
            source: costs.source.clone(),
            label: costs.label(cores),
        }))
    }
    pub fn is_real(&self) -> bool {
        matches!(self, RunMode::Real)
    }
    /// The virtual run's label; `None` for real threads.
    pub fn label(&self) -> Option<&str> {
        match self {
            RunMode::Real => None,
            RunMode::Virtual(v) => Some(&v.label),
        }
    }
}

/// What the views need to know about the stream.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StreamInfo {
    /// `total`, `commits` or `events`.
    #[schemars(with = "psmr_core::StreamKind")]
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
    // Absent, never null, in what the engine writes.
    #[schemars(with = "psmr_core::commit_sim::SccHistogram")]
    pub scc: Option<psmr_core::commit_sim::SccHistogram>,
}

/// One request class, for the views (no more guessing from names).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ClassInfo {
    pub name: String,
    pub weight: f64,
    /// The shard of a local class (0-based), absent for a global one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    // Absent, never null, in what the engine writes.
    #[schemars(with = "u16")]
    pub shard: Option<u16>,
    pub write: bool,
    /// Ids of the classes it conflicts with (itself included when it has
    /// internal conflicts).
    pub conflicts: Vec<u16>,
}

/// The classes of a report.
pub fn class_infos(classes: &ClassTable) -> Vec<ClassInfo> {
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
            .filter(|_| psmr_core::COMMITS)
            .and_then(|t| psmr_core::commit_sim::scc_histogram(t).ok()),
    }
}

/// One scheduler's run.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct RunReport {
    /// Scheduler id.
    pub scheduler: String,
    /// The scheduler's family (`sequential`, `early`, `work-stealing`,
    /// `late`, `epaxos`, `repartitioning`, `coloring`).
    #[serde(default)]
    #[schemars(with = "psmr_core::scheduler::Family")]
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
    // Absent, never null, in what the engine writes.
    #[schemars(with = "Violation")]
    pub violation_detail: Option<Violation>,
    /// Digest of the final application state, hex.
    pub state_digest: String,
    /// The run was cancelled: only the delivered prefix was checked.
    pub cancelled: bool,
    pub metrics: RunMetrics,
    /// Throughput over the sequential run's on the same stream (present
    /// when the scenario ran `sequential`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    // Absent, never null, in what the engine writes.
    #[schemars(with = "f64")]
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
    /// On virtual cores, the run's label (the report's `mode` label), so a
    /// run taken out of its report still says its numbers are a model's;
    /// absent for real threads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    // Absent, never null, in what the engine writes.
    #[schemars(with = "String")]
    pub mode_label: Option<String>,
    /// The recorded events, sorted by seq (packed for the web app with
    /// `psmr_core::codec`).
    #[serde(skip)]
    pub trace: Vec<TraceEvent>,
}

impl RunReport {
    /// The report of `r`, a run of `spec` (whose family is `family`) on a
    /// stream of `requests` requests.
    pub fn from_result(spec: &SchedulerSpec, family: Family, requests: u32, r: RunResult) -> Self {
        RunReport {
            scheduler: r.scheduler.to_string(),
            family: family.as_str().into(),
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
            mode_label: None,
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

/// Speedup of every run over the (complete) sequential run, if any.
pub fn fill_speedups(runs: &mut [RunReport]) {
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
