//! # psmr-schedulers
//!
//! One module per scheduler, all behind [`psmr_core::Scheduler`]. [`build`]
//! maps a [`SchedulerSpec`] to a ready scheduler for a run, or says why not
//! (not implemented yet, or an invalid configuration such as a mapping
//! that breaks a rule).

use psmr_core::{ClassTable, RunError, Scheduler, SchedulerId};

pub mod sequential;
pub mod spec;
pub mod spin;
pub mod sync;

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
    let _ = env;
    match spec.id {
        SchedulerId::Sequential => Ok(Box::new(sequential::Sequential)),
        other => Err(RunError::NotImplemented(other)),
    }
}
