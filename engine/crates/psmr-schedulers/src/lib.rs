//! # psmr-schedulers
//!
//! One module per scheduler, all behind [`psmr_core::Scheduler`]. Each
//! module declares what it needs ([`psmr_core::Needs`]: family, stream
//! kinds, cell spaces, covering classes, auxiliary roles, parameter object);
//! [`needs`] answers for an id before anything is built, so a scenario that
//! pairs a scheduler with a stream it cannot run is refused at validation.
//! [`build`] maps a [`SchedulerSpec`] to a ready scheduler for a run, or says
//! why not (not implemented yet, or an invalid configuration such as a
//! mapping that breaks a rule).
//!
//! Shared scaffolding, once: [`probe`] (execute and record), [`barrier`]
//! (the generation barrier), [`plan`] (the CtoT as the early family and
//! work stealing read it, and Algorithm 1's router), [`cycle`] (the
//! per-class arrival cycle marks of busy-wait and work stealing),
//! [`queue`] (bounded blocking FIFO, several producers and consumers),
//! [`roles`] (an auxiliary thread's work-or-stop signal), [`spin`] (bounded
//! backoff), [`sync`] (std / loom / shuttle facade).

use psmr_core::{ClassTable, Needs, RunError, Scheduler, SchedulerId};

pub mod barrier;
pub mod busy_wait;
pub mod coloring;
pub mod cycle;
pub mod early;
pub mod epaxos;
pub mod late;
#[cfg(all(test, loom))]
mod loom_model;
pub mod plan;
pub mod probe;
pub mod queue;
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

pub use spec::{
    ColoringParams, EarlyParams, EpaxosParams, LateParams, RepartParams, SchedulerSpec, SpinPolicy,
    StealingParams,
};
pub use spin::{SpinPolicies, WaitKind};

#[cfg(all(test, not(loom), not(shuttle)))]
mod oracle_tests;

/// What `build` needs to know about the run.
#[derive(Clone, Copy, Debug)]
pub struct BuildEnv<'a> {
    /// Classes with their workload weights filled in.
    pub classes: &'a ClassTable,
    /// Worker threads of the run.
    pub threads: usize,
}

/// What the scheduler `id` declares, or `None` when it is not built yet
/// (every id is built today; a new id gets its arm with its module).
pub fn needs(id: SchedulerId) -> Option<&'static Needs> {
    Some(match id {
        SchedulerId::Sequential => &sequential::NEEDS,
        SchedulerId::Early => &early::NEEDS,
        SchedulerId::BusyWait => &busy_wait::NEEDS,
        SchedulerId::WsConservative
        | SchedulerId::WsModerate
        | SchedulerId::WsAggressive
        | SchedulerId::WsOptimistic => &work_stealing::NEEDS,
        SchedulerId::Libasync => &coloring::NEEDS_LIBASYNC,
        SchedulerId::Mely => &coloring::NEEDS_MELY,
        SchedulerId::RepartRr => &repart::NEEDS_RR,
        SchedulerId::RepartSw => &repart::NEEDS_SW,
        SchedulerId::RepartBase => &repart::NEEDS_BASE,
        SchedulerId::RepartAsync => &repart::NEEDS_ASYNC,
        SchedulerId::Late => &late::NEEDS,
        SchedulerId::Epaxos => &epaxos::NEEDS,
        SchedulerId::Pepaxos => &epaxos::parallel::NEEDS,
    })
}

/// The scheduler for `spec`, or why it cannot run.
pub fn build(spec: &SchedulerSpec, env: &BuildEnv<'_>) -> Result<Box<dyn Scheduler>, RunError> {
    let Some(needs) = needs(spec.id) else {
        return Err(RunError::NotImplemented(spec.id));
    };
    check_param_objects(spec, needs).map_err(RunError::InvalidConfig)?;
    match spec.id {
        SchedulerId::Sequential => Ok(Box::new(sequential::Sequential)),
        SchedulerId::Early => Ok(Box::new(early::Early::from_params(
            &spec.early.clone().unwrap_or_default(),
            env,
        )?)),
        SchedulerId::BusyWait => Ok(Box::new(busy_wait::BusyWait::from_params(
            &spec.early.clone().unwrap_or_default(),
            env,
        )?)),
        SchedulerId::Libasync | SchedulerId::Mely => coloring::build(spec),
        SchedulerId::RepartRr
        | SchedulerId::RepartSw
        | SchedulerId::RepartBase
        | SchedulerId::RepartAsync => repart::build(spec),
        SchedulerId::Late => late::build(spec),
        SchedulerId::Epaxos => Ok(Box::new(epaxos::Epaxos)),
        SchedulerId::Pepaxos => epaxos::parallel::build(spec),
        _ => work_stealing::build(spec, env),
    }
}

/// The parameter objects of `spec` fit its scheduler: at most the one its
/// family reads, with only the fields that apply to the id. (Validation
/// reports the same with positions; this guards direct callers.)
pub fn check_param_objects(spec: &SchedulerSpec, needs: &Needs) -> Result<(), String> {
    for key in spec.param_objects() {
        let Some((own, fields)) = needs.params.filter(|(own, _)| *own == key) else {
            return Err(format!(
                "`{key}` parameters do not apply to `{}`{}",
                spec.id,
                needs
                    .params
                    .map_or(" (it takes none)".to_string(), |(own, _)| format!(
                        " (its parameters go in `{own}`)"
                    ))
            ));
        };
        if let Some(f) = spec.param_fields(own).iter().find(|f| !fields.contains(f)) {
            return Err(format!(
                "`{own}.{f}` does not apply to `{}` (it takes: {})",
                spec.id,
                fields.join(", ")
            ));
        }
    }
    Ok(())
}
