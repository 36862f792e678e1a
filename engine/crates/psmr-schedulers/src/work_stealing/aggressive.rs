//! Aggressive work stealing (000 section 4.2): the moderate variant without
//! the barrier after a sequential request. Threads leave a cycle as soon as
//! the executor releases it; two cycles per class (0 and 1) keep a fast
//! thread's next arrival from mixing with a slow thread still leaving the
//! previous cycle (as in the busy-wait Algorithm 4). Stealers also start
//! their victim search right after their own id, spreading the contention
//! that always starting at thread 0 puts on the low ids.

use super::worker::{Arrival, Policy};

/// The aggressive variant.
pub const POLICY: Policy = Policy {
    arrival: Arrival::Cycle,
    barrier_after: false,
    steal_while_syncing: true,
    victims_from_next: true,
    optimistic: false,
    broken: false,
    skip_single_thread_markers: false,
};
