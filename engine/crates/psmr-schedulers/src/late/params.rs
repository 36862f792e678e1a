//! The parameter object of late scheduling: the scenario entry's `late`
//! object.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::params::{ParamEnv, ParamIssue, Params};

/// Largest graph bound a scenario may ask for (an insert scans the whole
/// graph, so a larger one is all cost).
pub const MAX_GRAPH_BOUND: usize = 65_536;

/// Parameters of late scheduling (`late`): the scenario entry's `late`
/// object.
#[serde_with_macros::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LateParams {
    /// Most requests in the dependency graph (1..=65536); the scheduler
    /// blocks while it is full. Default: 50 when every request of the
    /// stream writes, 150 otherwise (paper 003 section 6.1).
    pub graph_bound: Option<usize>,
}

impl Params for LateParams {
    fn check(&self, _: &ParamEnv<'_>) -> Vec<ParamIssue> {
        // A family left out of this engine has no parameters to check (its
        // object is refused when read).
        if !const { crate::packages::compiled_in(psmr_core::Family::Late) } {
            return Vec::new();
        }
        let max = MAX_GRAPH_BOUND;
        match self.graph_bound {
            Some(b) if b == 0 || b > max => vec![ParamIssue::new(
                "graph_bound",
                format!("expected 1..={max} requests in the graph, got {b}"),
            )],
            _ => Vec::new(),
        }
    }
}
