//! # psmr-schedulers
//!
//! One module per scheduler family, all behind [`psmr_core::Scheduler`].
//! Each family module declares everything about itself in one
//! [`Registration`] ([`registry`]): its scheduler ids with what each needs
//! ([`psmr_core::Needs`]: family, stream kinds, cell spaces, covering
//! classes, auxiliary roles, parameter object and the fields that apply),
//! how to build them, its fault-injection variants, its views; its
//! parameter struct and value checks ([`params::Params`]) sit beside it.
//! [`FAMILIES`] lists the registrations; [`needs`] answers for an id before
//! anything is built (so a scenario that pairs a scheduler with a stream it
//! cannot run is refused at validation), [`build`] maps a [`SchedulerSpec`]
//! to a ready scheduler or says why its configuration cannot run, and
//! [`catalog`] describes every scheduler for the web app.
//!
//! Shared scaffolding, once: [`probe`] (execute and record, and the worker
//! team of a family without auxiliary roles), [`barrier`] (the generation
//! barrier), [`plan`] (the CtoT as the early family and work stealing read
//! it, Algorithm 1's router, and the needs of a class-routing scheduler),
//! [`cycle`] (the per-class arrival cycle marks of busy-wait and work
//! stealing), [`queue`] (bounded blocking FIFO, several producers and
//! consumers), [`roles`] (an auxiliary thread's work-or-stop signal),
//! [`spin`] (bounded backoff), [`sync`] (std / loom / shuttle facade).

use psmr_core::{Family, Needs, RunError, Scheduler, SchedulerId, Stream};

pub mod barrier;
pub mod busy_wait;
pub mod catalog;
pub mod coloring;
pub mod cycle;
pub mod early;
pub mod epaxos;
pub mod late;
#[cfg(all(test, loom))]
mod loom_model;
pub mod params;
pub mod plan;
pub mod probe;
pub mod queue;
pub mod registry;
pub mod repart;
pub mod roles;
pub mod sequential;
#[cfg(all(test, shuttle, not(loom)))]
mod shuttle_log;
pub mod spec;
pub mod spin;
pub mod sync;
pub mod testkit;
pub mod work_stealing;

pub use registry::{BuildArgs, BuildEnv, Fault, Registration, StreamView};
pub use spec::{ParamObjects, SpinPolicy};
pub use spin::{SpinPolicies, WaitKind};

#[cfg(all(test, not(loom), not(shuttle)))]
mod oracle_tests;

mod packages;
pub use packages::compiled_in;

/// A family's registration when [`compiled_in`] says its family is in;
/// otherwise the same ids, needs, faults and view names (so validation
/// still knows the ids and can say where they are) with a builder that
/// refuses ([`left_out`]) and no stream views: nothing reaches the family's
/// code, so the linker drops it (issue 30's engine packages of one family).
macro_rules! family {
    ($reg:expr) => {
        &if compiled_in($reg.family()) {
            $reg
        } else {
            Registration {
                build: left_out,
                stream_views: &[],
                ..$reg
            }
        }
    };
}

// A family registers here, in this file: `pub mod` above, its line in
// `FAMILIES`, its arm in `compiled_in` (and its feature, named as the
// family, in Cargo.toml) and, if it takes parameters, its object in
// `scheduler_spec!` and its `gate_fn!` (and its ids and family in
// `psmr_core::scheduler`).

/// Every family module's registration, one line each. Every id is
/// registered exactly once (tested).
pub const FAMILIES: &[&Registration] = &[
    &sequential::REGISTRATION,
    family!(early::REGISTRATION),
    family!(busy_wait::REGISTRATION),
    family!(work_stealing::REGISTRATION),
    family!(late::REGISTRATION),
    family!(epaxos::REGISTRATION),
    family!(epaxos::parallel::REGISTRATION),
    family!(repart::REGISTRATION),
    family!(coloring::REGISTRATION),
];

/// Every family of [`FAMILIES`] in their order, once each, with
/// sequential first: the families [`compiled_in`] answers for, and the
/// names of the cargo features of those but sequential.
pub fn families() -> Vec<Family> {
    let mut out: Vec<Family> = Vec::new();
    for r in FAMILIES {
        if !out.contains(&r.family()) {
            out.push(r.family());
        }
    }
    out
}

/// The builder of a family left out of this engine package.
fn left_out(args: &BuildArgs<'_>) -> Result<Box<dyn Scheduler>, RunError> {
    Err(RunError::InvalidConfig(left_out_message(args.id)))
}

/// Why `id` cannot run in this engine: its family's feature is off.
pub fn left_out_message(id: SchedulerId) -> String {
    format!(
        "scheduler '{id}' is not in this engine package (family {}); the app loads the full engine for it",
        needs(id).family.as_str()
    )
}

/// Whether `id`'s family is compiled into this engine.
pub fn included(id: SchedulerId) -> bool {
    compiled_in(needs(id).family)
}

/// `$name`: the deserializer of parameter object `$key` (of `$family`'s
/// schedulers), which refuses it, naming the family, when
/// [`compiled_in`] says the family is out.
macro_rules! gate_fn {
    ($name:ident, $family:expr, $key:literal, $ty:ty) => {
        psmr_core::gated_reader!(
            /// The parameter object read only when its family is compiled in.
            $name,
            compiled_in($family),
            concat!("the `", $key, "` parameter object"),
            $family,
            $ty
        );
    };
}
gate_fn!(de_early, Family::Early, "early", early::params::EarlyParams);
gate_fn!(
    de_stealing,
    Family::WorkStealing,
    "stealing",
    early::params::EarlyParams
);
gate_fn!(
    de_coloring,
    Family::Coloring,
    "coloring",
    coloring::params::ColoringParams
);
gate_fn!(
    de_repart,
    Family::Repartitioning,
    "repart",
    repart::params::RepartParams
);
gate_fn!(de_late, Family::Late, "late", late::params::LateParams);
gate_fn!(
    de_epaxos,
    Family::Epaxos,
    "epaxos",
    epaxos::params::EpaxosParams
);

pub use coloring::params::ColoringParams;
pub use early::params::EarlyParams;
pub use epaxos::params::EpaxosParams;
pub use late::params::LateParams;
pub use repart::params::RepartParams;

// A parameter object goes through its `gate_fn!` reader only in builds
// without its family (`cfg_attr`, which needs the feature's name as a
// literal: the one exception to `compiled_in` being the only place a
// family's feature is named; rustc's `unexpected_cfgs` check refuses a name
// that is not a feature). In every build would have serde wrap each field
// in a reader of its own, which the tenth pass measured at +1.6 KB gzipped
// in the full engine (docs/benchmarks/frontend.md).
spec::scheduler_spec! {
    /// Early scheduling and busy-wait parameters.
    #[cfg_attr(not(feature = "early"), serde(deserialize_with = "crate::de_early"))]
    early: early::params::EarlyParams,
    /// Work-stealing parameters.
    #[cfg_attr(not(feature = "work-stealing"), serde(deserialize_with = "crate::de_stealing"))]
    stealing: early::params::EarlyParams,
    /// Event-coloring runtime parameters (`libasync`, `mely`).
    #[cfg_attr(not(feature = "coloring"), serde(deserialize_with = "crate::de_coloring"))]
    coloring: coloring::params::ColoringParams,
    /// Repartitioning parameters.
    #[cfg_attr(not(feature = "repartitioning"), serde(deserialize_with = "crate::de_repart"))]
    repart: repart::params::RepartParams,
    /// Late scheduling (CBASE) parameters.
    #[cfg_attr(not(feature = "late"), serde(deserialize_with = "crate::de_late"))]
    late: late::params::LateParams,
    /// PePaxos parameters.
    #[cfg_attr(not(feature = "epaxos"), serde(deserialize_with = "crate::de_epaxos"))]
    epaxos: epaxos::params::EpaxosParams,
}

impl SchedulerSpec {
    /// The label, or the id.
    pub fn name(&self) -> String {
        self.label.clone().unwrap_or_else(|| self.id.to_string())
    }
}

/// The registration of the family that runs `id`, with what `id` needs
/// (one look-up for both).
pub fn family_of(id: SchedulerId) -> (&'static Registration, &'static Needs) {
    FAMILIES
        .iter()
        .find_map(|r| r.needs_of(id).map(|n| (*r, n)))
        .expect("every SchedulerId is registered by one family (tested)")
}

/// The registration of the family that runs `id`.
pub fn registration(id: SchedulerId) -> &'static Registration {
    family_of(id).0
}

/// What the scheduler `id` declares: stream kinds, cell spaces, covering
/// classes, roles, its parameter object.
pub fn needs(id: SchedulerId) -> &'static Needs {
    family_of(id).1
}

/// The scheduler for `spec`, or why it cannot run (its parameter objects
/// do not apply, or its family refuses the configuration).
pub fn build(spec: &SchedulerSpec, env: &BuildEnv<'_>) -> Result<Box<dyn Scheduler>, RunError> {
    let (family, needs) = family_of(spec.id);
    check_param_objects(spec, needs).map_err(RunError::InvalidConfig)?;
    // A fault its family does not declare for the id is refused here, for
    // every family (validation reports it located).
    let fault = family.selected_fault(spec.id, spec.fault_name())?;
    let params = needs.params.and_then(|(key, _)| spec.param_object(key));
    (family.build)(&BuildArgs::new(spec.id, env, params, fault))
}

/// The first of [`spec::misfits`] as a message (validation reports them
/// all with positions; this guards direct callers of [`build`]).
pub fn check_param_objects(spec: &SchedulerSpec, needs: &Needs) -> Result<(), String> {
    match spec::misfits(spec, needs).into_iter().next() {
        None => Ok(()),
        Some(spec::Misfit::Object { key, own }) => Err(format!(
            "`{key}` parameters do not apply to `{}`{}",
            spec.id,
            own.map_or(" (it takes none)".to_string(), |own| format!(
                " (its parameters go in `{own}`)"
            ))
        )),
        Some(spec::Misfit::Field { key, field, takes }) => Err(format!(
            "`{key}.{field}` does not apply to `{}` (it takes: {})",
            spec.id,
            takes.join(", ")
        )),
    }
}

/// The stream view `name` (e.g. `workload-graph`) of `stream` for `workers`
/// workers, as JSON, from the family that declares it; `None` when no
/// family does.
pub fn stream_view(name: &str, stream: &Stream, workers: u32) -> Option<Result<String, String>> {
    FAMILIES
        .iter()
        .flat_map(|r| r.stream_views)
        .find(|v| v.name == name)
        .map(|v| (v.make)(stream, workers))
}
