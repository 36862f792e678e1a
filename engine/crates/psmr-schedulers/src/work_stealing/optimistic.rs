//! Optimistic work stealing (000 Algorithm 8): the aggressive variant whose
//! stealers first check the steal conditions on lock-free hints and take
//! the victim's lock only when that pre-validation passes; under the lock
//! the full validation runs again and alone decides (a stale hint can only
//! cost a wasted lock or a missed chance, never a wrong steal).

use psmr_core::ClassId;

use super::shared::Shared;
use super::worker::{Arrival, Policy};

/// The optimistic variant.
pub const POLICY: Policy = Policy {
    arrival: Arrival::Cycle,
    barrier_after: false,
    steal_while_syncing: true,
    victims_from_next: true,
    optimistic: true,
    broken: false,
    skip_single_thread_markers: false,
};

/// Algorithm 8 line 39: the validation on hints, without the lock.
pub fn prevalidate(shared: &Shared<'_>, victim: usize, sync: Option<ClassId>) -> bool {
    shared.prevalid(victim, sync)
}
