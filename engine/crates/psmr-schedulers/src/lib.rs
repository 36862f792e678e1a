//! # psmr-schedulers
//!
//! One module per scheduler, all behind [`psmr_core::Scheduler`]. The
//! [`build`] function maps a [`SchedulerId`] and its parameters to a
//! scheduler, or says it is not implemented yet.

use psmr_core::{RunError, Scheduler, SchedulerId};

pub mod sequential;

/// The scheduler for `id`, or [`RunError::NotImplemented`].
pub fn build(id: SchedulerId) -> Result<Box<dyn Scheduler>, RunError> {
    match id {
        SchedulerId::Sequential => Ok(Box::new(sequential::Sequential)),
        other => Err(RunError::NotImplemented(other)),
    }
}
