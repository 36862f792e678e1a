//! The parameter object of the repartitioning family: the scenario entry's
//! `repart` object.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::params::{check_capacity, ParamEnv, ParamIssue, Params};

/// How a scheduler of the family repartitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    RoundRobin,
    SingleWorker,
    Base { delta_p: u32 },
    Async { window: Option<u32> },
}

/// Parameters of the repartitioning family (`repart-rr`, `repart-sw`,
/// `repart-base`, `repart-async`; paper 001): the scenario entry's `repart`
/// object. `delta_p` applies to `repart-base`, `window` to `repart-async`,
/// `queue_bound` to all four.
#[serde_with_macros::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RepartParams {
    /// `repart-base`: repartition every `delta_p` scheduled requests (the
    /// paper's Δp). Default 10,000.
    pub delta_p: Option<u32>,
    /// `repart-async`: build the workload graph from the last `window`
    /// requests only (the paper's sliding window W). Default: every request.
    pub window: Option<u32>,
    /// Most requests in each worker queue (the paper's Q): the scheduler
    /// waits for room. Default 1,048,576 (the paper's queues are unbounded).
    pub queue_bound: Option<usize>,
}

impl Params for RepartParams {
    fn check(&self, _: &ParamEnv<'_>) -> Vec<ParamIssue> {
        // A family left out of this engine has no parameters to check (its
        // object is refused when read).
        if !const { crate::packages::compiled_in(psmr_core::Family::Repartitioning) } {
            return Vec::new();
        }
        let mut out = Vec::new();
        if self.delta_p == Some(0) {
            out.push(ParamIssue::new(
                "delta_p",
                "expected at least 1 request between repartitions, got 0",
            ));
        }
        if self.window == Some(0) {
            out.push(ParamIssue::new(
                "window",
                "expected a window of at least 1 request, got 0",
            ));
        }
        check_capacity(&mut out, "queue_bound", self.queue_bound, "requests");
        out
    }
}
