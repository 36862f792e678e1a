//! # psmr-schedulers
//!
//! One module per scheduler, all behind [`psmr_core::Scheduler`]. [`build`]
//! maps a [`SchedulerSpec`] to a ready scheduler for a run, or says why not
//! (not implemented yet, or an invalid configuration such as a mapping
//! that breaks a rule).

use psmr_core::{ClassTable, RunError, Scheduler, SchedulerId};

pub mod busy_wait;
pub mod early;
pub mod queue;
pub mod sequential;
pub mod spec;
pub mod spin;
pub mod sync;
pub mod testkit;
pub mod work_stealing;

pub use spec::{SchedulerSpec, SpinPolicy};

/// What `build` needs to know about the run.
#[derive(Clone, Copy, Debug)]
pub struct BuildEnv<'a> {
    /// Classes with their workload weights filled in.
    pub classes: &'a ClassTable,
    /// Worker threads of the run.
    pub threads: usize,
}

/// The scheduler for `spec`, or why it cannot run.
pub fn build(spec: &SchedulerSpec, env: &BuildEnv<'_>) -> Result<Box<dyn Scheduler>, RunError> {
    match spec.id {
        SchedulerId::Sequential => Ok(Box::new(sequential::Sequential)),
        SchedulerId::Early => Ok(Box::new(early::Early::from_spec(spec, env)?)),
        SchedulerId::BusyWait => Ok(Box::new(busy_wait::BusyWait::from_spec(spec, env)?)),
        SchedulerId::WsConservative
        | SchedulerId::WsModerate
        | SchedulerId::WsAggressive
        | SchedulerId::WsOptimistic => work_stealing::build(spec, env),
        other => Err(RunError::NotImplemented(other)),
    }
}
