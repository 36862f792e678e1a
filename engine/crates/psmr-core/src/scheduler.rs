//! The one abstraction every scheduler implements.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cell::CellSpace;
use crate::exec::{RunContext, RunOutput};
use crate::stream::StreamKind;

/// Every scheduler id the project knows, fixed for all work (issue 2);
/// each is registered by exactly one family module of `psmr-schedulers`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum SchedulerId {
    /// One thread executes every request in delivery order (the baseline).
    Sequential,
    /// CBASE late scheduling: a dependency DAG shared by scheduler and workers.
    Late,
    /// Early scheduling with per-class barriers (paper 003).
    Early,
    /// Early scheduling with busy-wait cycles (paper 000 Algorithms 3-4).
    BusyWait,
    /// Conservative work stealing (000 Algorithms 5-7).
    WsConservative,
    /// Moderate work stealing (000 section 4.2).
    WsModerate,
    /// Aggressive work stealing (000 section 4.2).
    WsAggressive,
    /// Optimistic work stealing (000 Algorithm 8).
    WsOptimistic,
    /// ePaxos execution by SCCs (paper 004 Algorithm 2).
    Epaxos,
    /// PePaxos parallel SCC execution (paper 004 Algorithm 3).
    Pepaxos,
    /// Key-value repartitioning: round-robin baseline (paper 001).
    RepartRr,
    /// Key-value repartitioning: single worker baseline (paper 001).
    RepartSw,
    /// Key-value repartitioning: Base, stop every Δp (paper 001).
    RepartBase,
    /// Key-value repartitioning: Async, sliding window (paper 001).
    RepartAsync,
    /// Libasync-smp event coloring with work stealing (paper 002).
    Libasync,
    /// Mely work stealing (paper 002).
    Mely,
}

impl SchedulerId {
    pub const ALL: [SchedulerId; 16] = [
        SchedulerId::Sequential,
        SchedulerId::Late,
        SchedulerId::Early,
        SchedulerId::BusyWait,
        SchedulerId::WsConservative,
        SchedulerId::WsModerate,
        SchedulerId::WsAggressive,
        SchedulerId::WsOptimistic,
        SchedulerId::Epaxos,
        SchedulerId::Pepaxos,
        SchedulerId::RepartRr,
        SchedulerId::RepartSw,
        SchedulerId::RepartBase,
        SchedulerId::RepartAsync,
        SchedulerId::Libasync,
        SchedulerId::Mely,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            SchedulerId::Sequential => "sequential",
            SchedulerId::Late => "late",
            SchedulerId::Early => "early",
            SchedulerId::BusyWait => "busy-wait",
            SchedulerId::WsConservative => "ws-conservative",
            SchedulerId::WsModerate => "ws-moderate",
            SchedulerId::WsAggressive => "ws-aggressive",
            SchedulerId::WsOptimistic => "ws-optimistic",
            SchedulerId::Epaxos => "epaxos",
            SchedulerId::Pepaxos => "pepaxos",
            SchedulerId::RepartRr => "repart-rr",
            SchedulerId::RepartSw => "repart-sw",
            SchedulerId::RepartBase => "repart-base",
            SchedulerId::RepartAsync => "repart-async",
            SchedulerId::Libasync => "libasync",
            SchedulerId::Mely => "mely",
        }
    }
}

impl fmt::Display for SchedulerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for SchedulerId {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        SchedulerId::ALL
            .iter()
            .copied()
            .find(|id| id.as_str() == s)
            .ok_or_else(|| {
                let known: Vec<_> = SchedulerId::ALL.iter().map(|i| i.as_str()).collect();
                format!(
                    "unknown scheduler id `{s}`; expected one of: {}",
                    known.join(", ")
                )
            })
    }
}

/// Why a run could not happen or did not complete.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RunError {
    /// The scheduler's parameters are invalid for this run (e.g. a mapping
    /// that breaks rule R.4); the message names what is wrong.
    InvalidConfig(String),
    /// The thread host cannot give the run the threads it needs.
    Threads(String),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::InvalidConfig(m) => write!(f, "invalid scheduler configuration: {m}"),
            RunError::Threads(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for RunError {}

/// The families of schedulers, one per paper (and the baseline).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// One thread executes the canonical order.
    Sequential,
    /// Early scheduling with barriers or busy-wait cycles (papers 003, 000).
    Early,
    /// Early scheduling with work stealing (paper 000).
    WorkStealing,
    /// Late scheduling over a dependency graph (CBASE; papers 003, 000).
    Late,
    /// ePaxos execution by SCCs, sequential or parallel (paper 004).
    Epaxos,
    /// Partitioned key-value store with repartitioning (paper 001).
    Repartitioning,
    /// Event-driven runtimes with colors (paper 002).
    Coloring,
}

impl Family {
    /// Its name (reports, the catalog, and its cargo feature in
    /// psmr-schedulers); `const` so the gates can name it at compile time.
    pub const fn as_str(self) -> &'static str {
        match self {
            Family::Sequential => "sequential",
            Family::Early => "early",
            Family::WorkStealing => "work-stealing",
            Family::Late => "late",
            Family::Epaxos => "epaxos",
            Family::Repartitioning => "repartitioning",
            Family::Coloring => "coloring",
        }
    }
}

/// The kinds of cell space a scheduler can work with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpaceKind {
    Shards,
    Keys,
    Colors,
}

impl SpaceKind {
    pub fn of(space: CellSpace) -> SpaceKind {
        match space {
            CellSpace::Shards { .. } => SpaceKind::Shards,
            CellSpace::Keys => SpaceKind::Keys,
            CellSpace::Colors => SpaceKind::Colors,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            SpaceKind::Shards => "shards",
            SpaceKind::Keys => "keys",
            SpaceKind::Colors => "colors",
        }
    }
}

/// What a scheduler declares about itself, checked when a scenario is
/// validated (so a mismatch is a located error, not a run-time failure).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    pub family: Family,
    /// Stream kinds it can run.
    pub streams: &'static [StreamKind],
    /// Cell spaces it can run on (empty: any).
    pub spaces: &'static [SpaceKind],
    /// It routes by class, so the class table must cover the stream.
    pub covering_classes: bool,
    /// Auxiliary threads it runs beside its workers, by role name.
    pub roles: &'static [&'static str],
    /// The scenario key of its parameter object (e.g. `early`), if any, and
    /// the fields of that object that apply to this scheduler.
    pub params: Option<(&'static str, &'static [&'static str])>,
}

impl Needs {
    /// A scheduler of `family` that runs `streams` and needs nothing more:
    /// any cell space, no class table covering the stream, no auxiliary
    /// thread, no parameter object. A family's declaration starts from it
    /// and states only what differs (`Needs { .., ..Needs::new(..) }`).
    pub const fn new(family: Family, streams: &'static [StreamKind]) -> Self {
        Needs {
            family,
            streams,
            spaces: &[],
            covering_classes: false,
            roles: &[],
            params: None,
        }
    }
}

/// One class's place in a classes-to-threads mapping, for the views.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ClassAssignment {
    pub class: String,
    pub sequential: bool,
    pub threads: Vec<u16>,
}

/// What a scheduler tells the views about its configuration.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SchedulerInfo {
    /// The classes-to-threads mapping (early family), empty otherwise.
    pub mapping: Vec<ClassAssignment>,
    /// How the mapping was obtained (e.g. "optimizer, optimal, 3 ms").
    pub mapping_how: String,
}

/// A scheduler of parallel SMR: takes the stream's deliveries and executes
/// them on `ctx.threads` worker threads (plus its own delivering thread and
/// its auxiliary roles), calling [`RunContext::execute`] exactly once per
/// request that can run.
///
/// Contract (checked by the oracle after every run, not trusted):
/// * every request that can run executes exactly once (for event streams:
///   every registered child is passed to `RunContext::register`);
/// * requests that conflict never overlap and keep the stream's canonical
///   order (events of one color keep their registration order);
/// * the scheduler stops delivering when the deliverer says so (cancel)
///   and returns once what it delivered has executed.
pub trait Scheduler: Send + Sync {
    /// Its id; what it needs (family, roles...) is declared once, by its
    /// family module's registration for the id
    /// (`psmr_schedulers::needs(id)`), not by the scheduler.
    fn id(&self) -> SchedulerId;
    fn run(&self, ctx: &RunContext<'_>) -> Result<RunOutput, RunError>;
    /// Configuration shown by the views (the CtoT of early schedulers).
    fn info(&self) -> SchedulerInfo {
        SchedulerInfo::default()
    }
}
