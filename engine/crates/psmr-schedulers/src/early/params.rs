//! The parameter object of early scheduling: the scenario entry's `early`
//! object (`early`, `busy-wait`) and its `stealing` object (`ws-*`), one
//! struct for both keys.

use psmr_core::RunError;
use psmr_mapping::{MappingSpec, ResolvedMapping};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::params::{check_capacity, check_spin, ParamEnv, ParamIssue, Params};
use crate::spin::SpinPolicy;
use crate::BuildEnv;

/// The fields of [`EarlyParams`] that apply to `early` (`spin` is for
/// busy-wait cycles and work stealing).
pub const EARLY_FIELDS: &[&str] = &["mapping", "queue_capacity"];
/// The fields that apply to `busy-wait` and the `ws-*` variants: all.
pub const SPIN_FIELDS: &[&str] = &["mapping", "queue_capacity", "spin"];

/// Parameters of early scheduling: the `early` object of `early` and
/// `busy-wait` (`spin` applies to `busy-wait` only) and the `stealing`
/// object of work stealing (`ws-*`).
#[serde_with_macros::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EarlyParams {
    /// How classes map to threads (default: the optimizer).
    pub mapping: Option<MappingSpec>,
    /// Capacity of each worker's queue (requests; work stealing: its ready
    /// queue); the scheduler blocks when a queue is full. Default 1024.
    pub queue_capacity: Option<usize>,
    /// The bounded spin policy of busy-wait cycles (`busy-wait`) or of
    /// cycles, flags and markers (`ws-*`).
    pub spin: Option<SpinPolicy>,
}

impl EarlyParams {
    /// The CtoT `mapping` asks for on `env`'s classes and threads (default:
    /// the optimizer), with how it was made: the one mapping resolution of
    /// the class-routing families (`early`, `busy-wait`, `ws-*`). A mapping
    /// that cannot be resolved is an invalid configuration.
    pub fn resolve_mapping(&self, env: &BuildEnv<'_>) -> Result<ResolvedMapping, RunError> {
        let m = self.mapping.clone().unwrap_or_default();
        psmr_mapping::resolve(&m, env.classes, env.threads).map_err(RunError::InvalidConfig)
    }
}

impl Params for EarlyParams {
    fn check(&self, env: &ParamEnv<'_>) -> Vec<ParamIssue> {
        // Neither early nor work stealing in this engine: no parameters to
        // check (the objects are refused when read).
        if !const {
            crate::packages::compiled_in(psmr_core::Family::Early)
                || crate::packages::compiled_in(psmr_core::Family::WorkStealing)
        } {
            return Vec::new();
        }
        let mut out = Vec::new();
        check_capacity(&mut out, "queue_capacity", self.queue_capacity, "requests");
        if let Some(m) = &self.mapping {
            check_mapping(&mut out, m, env);
        }
        check_spin(&mut out, "spin", self.spin);
        out
    }
}

/// A mapping's shape (time limit, known classes, existing threads, every
/// class mapped), then rules R.1-R.5 once the shape is right.
fn check_mapping(out: &mut Vec<ParamIssue>, m: &MappingSpec, env: &ParamEnv<'_>) {
    match m {
        MappingSpec::Optimized { time_limit_s } => {
            if !(time_limit_s.is_finite() && *time_limit_s > 0.0) {
                out.push(ParamIssue::new(
                    "mapping.time_limit_s",
                    format!("expected a positive time limit in seconds, got {time_limit_s}"),
                ));
            }
        }
        MappingSpec::Naive => {}
        MappingSpec::Explicit { classes: map } => {
            let (classes, threads) = (&(env.classes)(), env.threads);
            let before = out.len();
            for (name, cm) in map {
                let path = format!("mapping.classes.{name}");
                if classes.by_name(name).is_none() {
                    out.push(ParamIssue::new(&path, format!("unknown class `{name}`")));
                }
                if cm.threads.is_empty() {
                    out.push(ParamIssue::new(
                        format!("{path}.threads"),
                        "expected at least one thread",
                    ));
                }
                if let Some(t) = cm.threads.iter().find(|t| **t >= threads) {
                    out.push(ParamIssue::new(
                        format!("{path}.threads"),
                        format!("thread {t} does not exist: the scenario has threads 0..{threads}"),
                    ));
                }
            }
            for c in classes.classes() {
                if !map.contains_key(&c.name) {
                    out.push(ParamIssue::new(
                        "mapping.classes",
                        format!("class `{}` has no mapping; every class needs one", c.name),
                    ));
                }
            }
            // Rules R.1-R.5, once the shape is right (resolving an explicit
            // mapping is cheap: no search).
            if out.len() == before {
                if let Err(e) = psmr_mapping::resolve(m, classes, threads) {
                    out.push(ParamIssue::new("mapping", e));
                }
            }
        }
    }
}
