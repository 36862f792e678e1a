//! The expectations a scenario file may state (issue 12): the `expect`
//! object's types. Judging them on reports is [`crate::expect`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What a scenario expects of its runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Expectations {
    /// Every run must pass the correctness oracle (default true). Set false
    /// for a scenario that demonstrates a broken configuration.
    #[serde(default = "yes")]
    pub correct: bool,
    /// Conditions on run counters, e.g. `steals > 0` for `ws-optimistic`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<CounterExpectation>,
    /// Throughput ratios between two schedulers, e.g. busy-wait at least
    /// 1.5 times early. Only failed on a machine with enough cores.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ratios: Vec<RatioExpectation>,
    /// Runs per scheduler; values compared are medians over them (default:
    /// `run.repetitions`, else 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 100))]
    pub repetitions: Option<u32>,
}

fn yes() -> bool {
    true
}

impl Default for Expectations {
    fn default() -> Self {
        Expectations {
            correct: true,
            counters: Vec::new(),
            ratios: Vec::new(),
            repetitions: None,
        }
    }
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum CmpOp {
    #[serde(rename = ">")]
    Gt,
    #[serde(rename = ">=")]
    Ge,
    #[serde(rename = "<")]
    Lt,
    #[serde(rename = "<=")]
    Le,
    #[serde(rename = "==")]
    Eq,
    #[serde(rename = "!=")]
    Ne,
}

impl CmpOp {
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
        }
    }
    pub fn holds(self, x: f64, y: f64) -> bool {
        match self {
            CmpOp::Gt => x > y,
            CmpOp::Ge => x >= y,
            CmpOp::Lt => x < y,
            CmpOp::Le => x <= y,
            CmpOp::Eq => x == y,
            CmpOp::Ne => x != y,
        }
    }
}

/// `counter` of `scheduler`'s run compared with `value`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterExpectation {
    /// Scheduler label or id, as listed in `schedulers`.
    pub scheduler: String,
    /// A run counter (`steals`, `barrier_waits`, `cycle_waits`, `spins`,
    /// `yields`, `parks`, `stolen_requests`, `stolen_executed`,
    /// `marker_waits`, `failed_steals`, `dependency_waits`, `full_graph_waits`) or a per-thread
    /// figure (`executed_min`, `executed_max`, `threads_used`).
    pub counter: String,
    /// Comparison: `>`, `>=`, `<`, `<=`, `==`, `!=`.
    pub op: CmpOp,
    pub value: f64,
}

/// Throughput of `of` divided by throughput of `over` must be at least
/// `at_least × (1 − tolerance)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RatioExpectation {
    /// Scheduler label or id of the numerator.
    pub of: String,
    /// Scheduler label or id of the denominator.
    pub over: String,
    /// Smallest acceptable ratio.
    pub at_least: f64,
    /// Relative slack (0..1) granted against measurement noise (default 0).
    #[serde(default)]
    pub tolerance: f64,
    /// Cores the machine needs for the ratio to be judged (default: the
    /// scenario's `threads`). With fewer, the result is "skipped".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_cores: Option<usize>,
}

/// Per-thread figures a counter expectation may name besides the counters.
pub const THREAD_FIGURES: [&str; 3] = ["executed_min", "executed_max", "threads_used"];

/// Is `name` a counter an expectation can check?
pub fn known_counter(name: &str) -> bool {
    THREAD_FIGURES.contains(&name)
        || psmr_core::trace::Counter::ALL
            .iter()
            .any(|c| c.name() == name)
}
