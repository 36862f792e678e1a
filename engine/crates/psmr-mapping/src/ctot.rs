//! The mapping's vocabulary: a class's synchronization [`Mode`], its
//! threads ([`ClassMapping`]), a whole classes-to-threads mapping
//! ([`CtoT`]), how a scenario asks for one ([`MappingSpec`]) and what it
//! resolved to ([`ResolvedMapping`]). A leaf: every other module of the
//! crate builds on these types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How the threads of a class treat its requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Every thread of the class receives the request; they synchronize and
    /// one of them executes it.
    Sequential,
    /// One thread of the class (round-robin) receives and executes it.
    Concurrent,
}

/// The mapping of one class.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClassMapping {
    pub mode: Mode,
    /// Worker thread ids (0-based), sorted, no duplicates.
    pub threads: Vec<usize>,
}

/// A complete classes-to-threads mapping: `classes[c]` maps class `c`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CtoT {
    /// Number of worker threads.
    pub threads: usize,
    pub classes: Vec<ClassMapping>,
}

impl CtoT {
    pub fn mode(&self, class: psmr_core::ClassId) -> Mode {
        self.classes[class as usize].mode
    }
    pub fn threads_of(&self, class: psmr_core::ClassId) -> &[usize] {
        &self.classes[class as usize].threads
    }
}

/// How a scenario chooses the mapping of an early-family scheduler.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum MappingSpec {
    /// Ask the optimizer (paper 003 section 5.1).
    Optimized {
        /// Give up proving optimality after this many seconds and return the
        /// best mapping found, with its gap.
        #[serde(default = "default_time_limit")]
        time_limit_s: f64,
    },
    /// The naive mapping of paper 003 section 6.5.
    Naive,
    /// A mapping written out by hand, by class name.
    Explicit {
        /// Class name (`R1`, `W1`, ..., `Rg`, `Wg`) to its mapping.
        classes: BTreeMap<String, ClassMapping>,
    },
}

fn default_time_limit() -> f64 {
    10.0
}

impl Default for MappingSpec {
    fn default() -> Self {
        MappingSpec::Optimized {
            time_limit_s: default_time_limit(),
        }
    }
}

/// A mapping chosen for a run, with how it was obtained.
#[derive(Clone, Debug, PartialEq)]
pub struct ResolvedMapping {
    pub ctot: CtoT,
    /// Human-readable origin, e.g. `optimizer (optimal, 12.0 ms)`,
    /// `naive`, `explicit`.
    pub how: String,
    /// Relative optimality gap of an optimizer result stopped by its time
    /// limit (`0.0` when proven optimal); `None` for naive and explicit.
    pub gap: Option<f64>,
    /// Time spent computing the mapping, in milliseconds.
    pub solve_ms: f64,
}
