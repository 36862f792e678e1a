//! The parameter object of the event-coloring runtimes: the scenario
//! entry's `coloring` object.

use psmr_core::threads::MAX_WORKERS;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::params::{check_capacity, check_spin, ParamEnv, ParamIssue, Params};
use crate::spin::SpinPolicy;

/// Most events of one color a Mely core runs in a row.
pub const MAX_BATCH: u32 = 1 << 20;
/// Largest assumed steal cost (10 ms, the longest busy time of a request).
pub const MAX_STEAL_COST_NS: u32 = 10_000_000;

/// Parameters of the event-coloring runtimes (`libasync`, `mely`): the
/// scenario entry's `coloring` object. `libasync` takes `stealing`,
/// `queue_capacity` and `spin`; `mely` takes every field.
#[serde_with_macros::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ColoringParams {
    /// Idle cores steal colors from others (default true).
    pub stealing: Option<bool>,
    /// `mely`: events of one color run in a row before the core moves to
    /// its next color-queue (default 10, as in the paper).
    pub batch: Option<u32>,
    /// `mely`: locality-aware stealing, nearest victims first (default true).
    pub locality: Option<bool>,
    /// `mely`: time-left stealing, only colors whose time left exceeds the
    /// cost of a steal (default true).
    pub time_left: Option<bool>,
    /// `mely`: penalty-aware stealing, a handler's penalty divides its
    /// events' weight (default true).
    pub penalty: Option<bool>,
    /// `mely`: cores per shared cache in the topology the locality
    /// heuristic uses (default 2: the paper's Xeon pairs).
    pub cores_per_cache: Option<u32>,
    /// `mely`: the steal cost assumed before any steal was measured, ns,
    /// and the unit of the stealing queue's time-left intervals (default
    /// 1000).
    pub steal_cost_ns: Option<u32>,
    /// Delivered root events a core may hold before the driver waits
    /// (default 1024); events registered by handlers never wait.
    pub queue_capacity: Option<usize>,
    /// How an idle core waits between steal attempts: spin, yield, then
    /// sleep `park_us` (woken at once by a registration).
    pub spin: Option<SpinPolicy>,
}

impl Params for ColoringParams {
    fn check(&self, env: &ParamEnv<'_>) -> Vec<ParamIssue> {
        // A family left out of this engine has no parameters to check (its
        // object is refused when read).
        if !const { crate::packages::compiled_in(psmr_core::Family::Coloring) } {
            return Vec::new();
        }
        let mut out = Vec::new();
        count(&mut out, "batch", self.batch, MAX_BATCH, "events per batch");
        let cores = MAX_WORKERS as u32;
        count(
            &mut out,
            "cores_per_cache",
            self.cores_per_cache,
            cores,
            "cores per cache",
        );
        if self.locality != Some(false) {
            flat_topology(&mut out, self.cores_per_cache, env.threads);
        }
        let cost = MAX_STEAL_COST_NS;
        count(
            &mut out,
            "steal_cost_ns",
            self.steal_cost_ns,
            cost,
            "ns of steal cost",
        );
        check_capacity(&mut out, "queue_capacity", self.queue_capacity, "events");
        check_spin(&mut out, "spin", self.spin);
        out
    }

    /// Mely's locality heuristic is told `cores_per_cache`: a virtual
    /// machine gives its cores that topology.
    fn cores_per_cache(&self) -> Option<u32> {
        self.cores_per_cache
    }
}

/// Locality-aware stealing orders victims by cache distance: a
/// `cores_per_cache` given explicitly must make at least two distances
/// among the run's `threads` cores (1 puts every core in a cache of its
/// own, `threads` or more puts them all in one: every victim is then
/// equally distant and the heuristic orders victims by load alone).
fn flat_topology(out: &mut Vec<ParamIssue>, g: Option<u32>, threads: usize) {
    let n = threads as u32;
    let Some(g) = g.filter(|g| *g >= 1 && n >= 2 && (*g == 1 || *g >= n)) else {
        return;
    };
    let why = if g == 1 {
        "gives every core its own cache".to_string()
    } else {
        format!("puts all {n} cores in one cache")
    };
    let expected = if n >= 3 {
        format!("2..={}", n - 1)
    } else {
        "a run of 4 or more threads with cores_per_cache 2 (the paper's pairs)".to_string()
    };
    out.push(ParamIssue::new(
        "cores_per_cache",
        format!(
            "cores_per_cache {g} {why}, so every victim is equally distant and locality-aware \
             stealing orders victims by load only; expected {expected}, or locality: false"
        ),
    ));
}

/// `n`, when given, within `1..=max`.
fn count(out: &mut Vec<ParamIssue>, field: &str, n: Option<u32>, max: u32, what: &str) {
    if let Some(n) = n.filter(|n| *n == 0 || *n > max) {
        out.push(ParamIssue::new(
            field,
            format!("expected 1..={max} {what}, got {n}"),
        ));
    }
}
