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
    1_000
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

/// One scheduler entry of a scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SchedulerSpec {
    /// Scheduler id, e.g. `early` or `ws-optimistic`.
    pub id: SchedulerId,
    /// Name shown in reports; defaults to the id. Needed to compare two
    /// configurations of the same scheduler (e.g. optimizer vs naive mapping).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Early family: how classes map to threads (default: the optimizer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mapping: Option<MappingSpec>,
    /// Busy-wait and work stealing: the bounded spin policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spin: Option<SpinPolicy>,
    /// Capacity of each worker's queue (requests); the scheduler blocks when
    /// a queue is full. Default 1024.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_capacity: Option<usize>,
    /// Fault injection (feature `fault-injection` only): a deliberately
    /// broken variant, e.g. `ws-ignore-flags` for work stealing, so tests
    /// can check that the oracle catches it.
    #[cfg(feature = "fault-injection")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<String>,
}

impl SchedulerSpec {
    pub fn new(id: SchedulerId) -> Self {
        SchedulerSpec {
            id,
            label: None,
            mapping: None,
            spin: None,
            queue_capacity: None,
            #[cfg(feature = "fault-injection")]
            fault: None,
        }
    }
    /// The label, or the id.
    pub fn name(&self) -> String {
        self.label.clone().unwrap_or_else(|| self.id.to_string())
    }
}

/// Default per-worker queue capacity.
pub const DEFAULT_QUEUE_CAPACITY: usize = 1024;
/// Largest queue capacity a scenario may ask for.
pub const MAX_QUEUE_CAPACITY: usize = 1 << 20;
