//! Optimistic work stealing (000 Algorithm 8): the aggressive variant whose
//! stealers first check the steal conditions on lock-free hints and take
//! the victim's lock only when that pre-validation passes; under the lock
//! the full validation runs again and alone decides (a stale hint can only
//! cost a wasted lock or a missed chance, never a wrong steal).
//!
//! The pre-validation is `Shared::prevalid`, called by `Worker::try_steal`
//! when [`POLICY`]'s `optimistic` is set.

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
