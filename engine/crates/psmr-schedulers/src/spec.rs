//! How a scenario names a scheduler and its parameters.

use psmr_core::SchedulerId;
use psmr_mapping::MappingSpec;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Bounded spinning, for threads that wait on each other (busy-wait cycles,
/// stealing flags and markers) on machines with fewer cores than threads:
/// spin `spins` times, then yield `yields` times, then sleep `park_us`
/// microseconds between checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpinPolicy {
    /// Busy iterations before the first yield.
    #[serde(default = "default_spins")]
    pub spins: u32,
    /// Yields before parking.
    #[serde(default = "default_yields")]
    pub yields: u32,
    /// Sleep between checks once parked, in microseconds.
    #[serde(default = "default_park_us")]
    pub park_us: u32,
}

fn default_spins() -> u32 {
    100
}
fn default_yields() -> u32 {
    100
}
fn default_park_us() -> u32 {
    50
}

impl Default for SpinPolicy {
    fn default() -> Self {
        SpinPolicy {
            spins: default_spins(),
            yields: default_yields(),
            park_us: default_park_us(),
        }
    }
}

/// Parameters of the early family (`early`, `busy-wait`): the scenario
/// entry's `early` object. `spin` applies to `busy-wait` only.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EarlyParams {
    /// How classes map to threads (default: the optimizer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mapping: Option<MappingSpec>,
    /// Capacity of each worker's queue (requests); the scheduler blocks when
    /// a queue is full. Default 1024.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_capacity: Option<usize>,
    /// `busy-wait` only: the bounded spin policy of its cycles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spin: Option<SpinPolicy>,
}

/// Parameters of work stealing (`ws-*`): the scenario entry's `stealing`
/// object.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StealingParams {
    /// How classes map to threads (default: the optimizer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mapping: Option<MappingSpec>,
    /// Capacity of each worker's ready queue (requests). Default 1024.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_capacity: Option<usize>,
    /// The bounded spin policy of cycles, flags and markers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spin: Option<SpinPolicy>,
}

/// Parameters of the event-coloring runtimes (`libasync`, `mely`): the
/// scenario entry's `coloring` object. `libasync` takes `stealing`,
/// `queue_capacity` and `spin`; `mely` takes every field.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ColoringParams {
    /// Idle cores steal colors from others (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stealing: Option<bool>,
    /// `mely`: events of one color run in a row before the core moves to
    /// its next color-queue (default 10, as in the paper).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<u32>,
    /// `mely`: locality-aware stealing, nearest victims first (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locality: Option<bool>,
    /// `mely`: time-left stealing, only colors whose time left exceeds the
    /// cost of a steal (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_left: Option<bool>,
    /// `mely`: penalty-aware stealing, a handler's penalty divides its
    /// events' weight (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalty: Option<bool>,
    /// `mely`: cores per shared cache in the topology the locality
    /// heuristic uses (default 2: the paper's Xeon pairs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cores_per_cache: Option<u32>,
    /// `mely`: the steal cost assumed before any steal was measured, ns,
    /// and the unit of the stealing queue's time-left intervals (default
    /// 1000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steal_cost_ns: Option<u32>,
    /// Delivered root events a core may hold before the driver waits
    /// (default 1024); events registered by handlers never wait.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_capacity: Option<usize>,
    /// How an idle core waits between steal attempts: spin, yield, then
    /// sleep `park_us` (woken at once by a registration).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spin: Option<SpinPolicy>,
}

/// Parameters of the repartitioning family (`repart-rr`, `repart-sw`,
/// `repart-base`, `repart-async`; paper 001): the scenario entry's `repart`
/// object. `delta_p` applies to `repart-base`, `window` to `repart-async`,
/// `queue_bound` to all four.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RepartParams {
    /// `repart-base`: repartition every `delta_p` scheduled requests (the
    /// paper's Δp). Default 10,000.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta_p: Option<u32>,
    /// `repart-async`: build the workload graph from the last `window`
    /// requests only (the paper's sliding window W). Default: every request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<u32>,
    /// Most requests in each worker queue (the paper's Q): the scheduler
    /// waits for room. Default 1,048,576 (the paper's queues are unbounded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_bound: Option<usize>,
}

/// Parameters of late scheduling (`late`): the scenario entry's `late`
/// object.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LateParams {
    /// Most requests in the dependency graph (1..=65536); the scheduler
    /// blocks while it is full. Default: 50 when every request of the
    /// stream writes, 150 otherwise (paper 003 section 6.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph_bound: Option<usize>,
}

/// Parameters of PePaxos (`pepaxos`): the scenario entry's `epaxos`
/// object. (`epaxos` itself takes none.)
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EpaxosParams {
    /// The bounded spin policy of a worker waiting for an instance of
    /// another SCC to be executed (paper 004 Algorithm 3 line 30 busy-waits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spin: Option<SpinPolicy>,
}

/// One scheduler entry of a scenario: an id, an optional label, and at
/// most one parameter object, named after the scheduler's family (`early`
/// for `early` and `busy-wait`, `stealing` for `ws-*`, `late` for `late`,
/// `epaxos` for `pepaxos`, `repart` for `repart-*`, `coloring` for
/// `libasync` and `mely`). A parameter object
/// of another family, or a field that does not apply to the id, is a
/// located error at validation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SchedulerSpec {
    /// Scheduler id, e.g. `early` or `ws-optimistic`.
    pub id: SchedulerId,
    /// Name shown in reports; defaults to the id. Needed to compare two
    /// configurations of the same scheduler (e.g. optimizer vs naive mapping).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Early scheduling and busy-wait parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub early: Option<EarlyParams>,
    /// Work-stealing parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stealing: Option<StealingParams>,
    /// Event-coloring runtime parameters (`libasync`, `mely`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coloring: Option<ColoringParams>,
    /// Repartitioning parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repart: Option<RepartParams>,
    /// Late scheduling (CBASE) parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub late: Option<LateParams>,
    /// PePaxos parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epaxos: Option<EpaxosParams>,
    /// Fault injection (feature `fault-injection` only): a deliberately
    /// broken variant, e.g. `ws-ignore-flags` for work stealing or
    /// `steal-running` for `libasync` and `mely`, so tests can check that
    /// the oracle catches it.
    #[cfg(feature = "fault-injection")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<String>,
}

impl SchedulerSpec {
    pub fn new(id: SchedulerId) -> Self {
        SchedulerSpec {
            id,
            label: None,
            early: None,
            stealing: None,
            coloring: None,
            repart: None,
            late: None,
            epaxos: None,
            #[cfg(feature = "fault-injection")]
            fault: None,
        }
    }
    /// The label, or the id.
    pub fn name(&self) -> String {
        self.label.clone().unwrap_or_else(|| self.id.to_string())
    }
    /// The keys of the parameter objects present (e.g. `["early"]`).
    pub fn param_objects(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.early.is_some() {
            v.push("early");
        }
        if self.stealing.is_some() {
            v.push("stealing");
        }
        if self.coloring.is_some() {
            v.push("coloring");
        }
        if self.repart.is_some() {
            v.push("repart");
        }
        if self.late.is_some() {
            v.push("late");
        }
        if self.epaxos.is_some() {
            v.push("epaxos");
        }
        v
    }
    /// The fields set in the parameter object named `key`.
    pub fn param_fields(&self, key: &str) -> Vec<&'static str> {
        let present = |pairs: &[(&'static str, bool)]| -> Vec<&'static str> {
            pairs.iter().filter(|p| p.1).map(|p| p.0).collect()
        };
        match key {
            "early" => self.early.as_ref().map_or(Vec::new(), |p| {
                present(&[
                    ("mapping", p.mapping.is_some()),
                    ("queue_capacity", p.queue_capacity.is_some()),
                    ("spin", p.spin.is_some()),
                ])
            }),
            "stealing" => self.stealing.as_ref().map_or(Vec::new(), |p| {
                present(&[
                    ("mapping", p.mapping.is_some()),
                    ("queue_capacity", p.queue_capacity.is_some()),
                    ("spin", p.spin.is_some()),
                ])
            }),
            "coloring" => self.coloring.as_ref().map_or(Vec::new(), |p| {
                present(&[
                    ("stealing", p.stealing.is_some()),
                    ("batch", p.batch.is_some()),
                    ("locality", p.locality.is_some()),
                    ("time_left", p.time_left.is_some()),
                    ("penalty", p.penalty.is_some()),
                    ("cores_per_cache", p.cores_per_cache.is_some()),
                    ("steal_cost_ns", p.steal_cost_ns.is_some()),
                    ("queue_capacity", p.queue_capacity.is_some()),
                    ("spin", p.spin.is_some()),
                ])
            }),
            "repart" => self.repart.as_ref().map_or(Vec::new(), |p| {
                present(&[
                    ("delta_p", p.delta_p.is_some()),
                    ("window", p.window.is_some()),
                    ("queue_bound", p.queue_bound.is_some()),
                ])
            }),
            "late" => self.late.as_ref().map_or(Vec::new(), |p| {
                present(&[("graph_bound", p.graph_bound.is_some())])
            }),
            "epaxos" => self
                .epaxos
                .as_ref()
                .map_or(Vec::new(), |p| present(&[("spin", p.spin.is_some())])),
            _ => Vec::new(),
        }
    }
}

/// Default per-worker queue capacity.
pub const DEFAULT_QUEUE_CAPACITY: usize = 1024;
/// Largest queue capacity a scenario may ask for.
pub const MAX_QUEUE_CAPACITY: usize = 1 << 20;
