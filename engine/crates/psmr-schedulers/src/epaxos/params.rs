//! The parameter object of PePaxos: the scenario entry's `epaxos` object.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::params::{check_spin, ParamEnv, ParamIssue, Params};
use crate::spin::SpinPolicy;

/// Parameters of PePaxos (`pepaxos`): the scenario entry's `epaxos`
/// object. (`epaxos` itself takes none.)
#[serde_with_macros::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EpaxosParams {
    /// The bounded spin policy of a worker waiting for an instance of
    /// another SCC to be executed (paper 004 Algorithm 3 line 30 busy-waits).
    pub spin: Option<SpinPolicy>,
}

impl Params for EpaxosParams {
    fn check(&self, _: &ParamEnv<'_>) -> Vec<ParamIssue> {
        // A family left out of this engine has no parameters to check (its
        // object is refused when read).
        if !const { crate::packages::compiled_in(psmr_core::Family::Epaxos) } {
            return Vec::new();
        }
        let mut out = Vec::new();
        check_spin(&mut out, "spin", self.spin);
        out
    }
}
