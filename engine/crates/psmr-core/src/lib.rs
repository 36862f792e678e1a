//! # psmr-core
//!
//! The shared vocabulary of P-SMR Lab. Every scheduler, the CLI, the wasm
//! bindings and the web views speak in the types defined here:
//!
//! * [`cell`]: the cells requests conflict on (shards, keys, colors) and
//!   footprints over them;
//! * [`request`]: a [`request::Request`] with its class and operation;
//! * [`stream`]: a request stream with its order source (a total order,
//!   committed ePaxos instances, an event forest), canonical order and
//!   footprints;
//! * [`class`]: request classes and the conflict relation between them
//!   (paper 003, Definitions 2-3: internal and external conflicts);
//! * [`app`]: the replicated applications that do real work;
//! * [`rng`]: the SplitMix64 generator behind every seeded choice;
//! * [`workload`]: the seeded request-stream generator ([`workload_events`]:
//!   event forests for the event-coloring runtimes; [`workload_ycsb`] over
//!   [`ycsb`]: YCSB A, D, E streams for the key-value store;
//!   [`workload_commits`]: the same commands as an ePaxos commit stream);
//! * [`commit_sim`]: commit streams, the ePaxos ordering simulator that makes
//!   them, their JSON shape and SCC histogram;
//! * [`scheduler`]: the one [`scheduler::Scheduler`] trait every scheduler
//!   implements, and the fixed list of scheduler ids;
//! * [`exec`]: the run context handed to a scheduler, and the single
//!   function through which every request is executed ([`exec::RunContext::execute`]);
//! * [`trace`]: the compact event vocabulary, its packed form ([`codec`]),
//!   and the per-thread recorders a run records it with;
//! * [`metrics`]: throughput, latency and per-thread time accounting;
//! * [`oracle`]: the correctness check run after every run;
//! * [`scc`]: strongly connected components (iterative Tarjan);
//! * [`virt`]: virtual cores (a conductor running a run's real threads one
//!   at a time in virtual time) and the `Mutex`/`Condvar` aware of it;
//! * [`calibrate`]: the virtual cores' cost table measured on this machine.
//!
//! No module imports one that imports it back. From the bottom up: `virt`
//! (virtual cores) imports nothing of the crate; `cell`, `clock`, `rng`,
//! `scc`, `cancel` import nothing of the crate but `virt`; then
//! `class`, `request`, `stream`; the trace and `threads`; the
//! applications; `exec` and what runs on it (`scheduler`, `metrics`,
//! `oracle`, `run`). The generators (`ycsb`, `commit_sim`, `workload_*`,
//! `workload`) sit on `rng`, `stream` and the applications; `calibrate` on
//! `virt`, `threads` and the applications.

pub mod app;
pub mod calibrate;
pub mod cancel;
pub mod cell;
pub mod class;
pub mod clock;
pub mod commit_sim;
pub mod exec;
pub mod metrics;
pub mod oracle;
pub mod pin;
pub mod request;
pub mod rng;
pub mod run;
pub mod scc;
pub mod scheduler;
pub mod stream;
pub mod threads;
pub mod trace;
pub mod virt;
pub mod workload;
pub mod workload_commits;
pub mod workload_events;
pub mod workload_ycsb;
pub mod ycsb;

pub use trace::codec;

pub use cell::{CellSpace, Span};
pub use class::{ClassDef, ClassId, ClassTable};
pub use exec::{RunContext, RunOutput};
pub use request::{EventOp, Home, Op, Request, RequestId, ShardSet, NO_REQUEST};
pub use scheduler::{Family, Needs, RunError, Scheduler, SchedulerId, SpaceKind};
pub use stream::{Stream, StreamKind};
pub use trace::{EventKind, ThreadRef, TraceEvent, WaitReason};

/// Whether this engine has the YCSB core workloads (feature `ycsb`, which
/// the repartitioning family turns on). Without it a scenario's `ycsb`
/// field is refused when read ([`workload::de_ycsb`]), so no code path
/// below reaches the generator and the linker leaves it out.
pub const YCSB: bool = cfg!(feature = "ycsb");
/// Whether this engine has the event workloads (feature `events`, which
/// the coloring family turns on); see [`YCSB`].
pub const EVENTS: bool = cfg!(feature = "events");
/// Whether this engine has the ePaxos commit streams (feature `commits`,
/// which the ePaxos family turns on); see [`YCSB`].
pub const COMMITS: bool = cfg!(feature = "commits");

/// A workload field that only one scheduler family's engine package reads:
/// the field of `workload`, which is also this crate's feature that compiles
/// its generator in, and the family whose feature (in psmr-schedulers,
/// named as the family) turns that feature on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkloadGate {
    /// The field of `workload` and this crate's feature of the same name.
    pub field: &'static str,
    /// Whether this engine has it.
    pub on: bool,
    /// The family that needs it.
    pub family: Family,
}

/// `workload.ycsb` needs the repartitioning family.
pub const YCSB_GATE: WorkloadGate = WorkloadGate {
    field: "ycsb",
    on: YCSB,
    family: Family::Repartitioning,
};
/// `workload.events` needs the coloring family.
pub const EVENTS_GATE: WorkloadGate = WorkloadGate {
    field: "events",
    on: EVENTS,
    family: Family::Coloring,
};
/// `workload.commits` needs the ePaxos family.
pub const COMMITS_GATE: WorkloadGate = WorkloadGate {
    field: "commits",
    on: COMMITS,
    family: Family::Epaxos,
};

/// Every [`WorkloadGate`]: the one table of which workload fields need
/// which family. psmr-schedulers' catalog publishes it (the web app picks
/// an engine package by it) and a test there checks that each family's
/// feature in its Cargo.toml turns on exactly the fields listed here for it.
pub const WORKLOAD_GATES: [WorkloadGate; 3] = [YCSB_GATE, EVENTS_GATE, COMMITS_GATE];

/// `$name`: a serde `deserialize_with` reader of an optional field that
/// only the engine packages with `$family` compiled in can read (`$on`);
/// in the others reading it is a located error naming the family
/// ([`gated_de`]). The one shape of every gated reader: the workload
/// fields here and psmr-schedulers' parameter objects.
///
/// `$on` and the family's name are `const` blocks, as literals would be:
/// the reader is generic, instantiated where serde's code is (which
/// build-wasm.sh optimizes for size), and with `false` known there the
/// field's deserializer is never linked (a run-time `bool` kept it: the
/// early package grew by 13 KB gzipped, issue 30).
#[macro_export]
macro_rules! gated_reader {
    ($(#[$doc:meta])* $name:ident, $on:expr, $what:expr, $family:expr, $ty:ty) => {
        $(#[$doc])*
        pub fn $name<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<$ty>, D::Error> {
            $crate::gated_de(const { $on }, $what, const { $family.as_str() }, d)
        }
    };
}

/// An optional field read only when `on` (its feature is compiled in);
/// otherwise reading it is an error saying which family's engine package
/// has it, `what` naming the field.
pub fn gated_de<'de, D, T>(on: bool, what: &str, family: &str, d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    if !on {
        return Err(<D::Error as serde::de::Error>::custom(format!(
            "{what} is not in this engine package (family {family}); the app loads the full engine for it"
        )));
    }
    <Option<T> as serde::Deserialize>::deserialize(d)
}
