//! Bounded spinning: spin, then yield, then park.
//!
//! The papers' busy-wait and stealing protocols spin on atomics, which is
//! right when every thread has its own core. On a machine with fewer cores
//! than runnable threads (a 2-core laptop, CI) a spinner can steal the CPU
//! from the very thread it waits for. [`Backoff`] keeps the protocol but
//! bounds the damage: `spins` busy iterations, then `yields` calls to the
//! OS scheduler, then short sleeps of `park_us`. Each phase is counted so
//! the run report shows how much waiting fell into each.

use crate::spec::SpinPolicy;
use crate::sync;

/// One wait's backoff state. Create one per wait; call [`Backoff::snooze`]
/// each time the awaited condition is still false.
#[derive(Debug)]
pub struct Backoff {
    policy: SpinPolicy,
    /// Times `snooze` was called (the wait's spin count).
    pub spins: u32,
    /// Of those, how many yielded and how many parked.
    pub yields: u32,
    pub parks: u32,
}

impl Backoff {
    pub fn new(policy: SpinPolicy) -> Self {
        Backoff {
            policy,
            spins: 0,
            yields: 0,
            parks: 0,
        }
    }

    /// Wait a little, escalating from spinning to yielding to parking.
    pub fn snooze(&mut self) {
        self.spins = self.spins.saturating_add(1);
        if cfg!(any(loom, shuttle)) {
            // Under loom and shuttle every wait must yield, or the model
            // never ends (both schedule threads cooperatively).
            sync::yield_now();
        } else if self.spins <= self.policy.spins {
            std::hint::spin_loop();
        } else if self.spins <= self.policy.spins.saturating_add(self.policy.yields) {
            self.yields += 1;
            sync::yield_now();
        } else {
            self.parks += 1;
            sync::park_for_us(self.policy.park_us);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(not(loom))]
    fn escalates_through_the_three_phases() {
        let mut b = Backoff::new(SpinPolicy {
            spins: 3,
            yields: 2,
            park_us: 1,
        });
        for _ in 0..8 {
            b.snooze();
        }
        assert_eq!((b.spins, b.yields, b.parks), (8, 2, 3));
    }
}
