//! Bounded spinning: spin, then yield, then park.
//!
//! The papers' busy-wait and stealing protocols spin on atomics, which is
//! right when every thread has its own core. On a machine with fewer cores
//! than runnable threads (a 2-core laptop, CI) a spinner can steal the CPU
//! from the very thread it waits for. [`Backoff`] keeps the protocol but
//! bounds the damage: `spins` busy iterations, then `yields` calls to the
//! OS scheduler, then short sleeps of `park_us`. Each phase is counted so
//! the run report shows how much waiting fell into each.
//!
//! The policy is chosen per wait kind ([`WaitKind`]: a cycle, a stealer
//! marker, an idle worker) and per platform ([`SpinPolicies::defaults`]);
//! docs/benchmarks/early.md ("Spin policy") has the measurements. A
//! scenario's `spin` object still overrides it, for every wait kind of its
//! scheduler at once (the field's meaning before the split).
//!
//! In the browser `std::thread::yield_now` does nothing (wasm32 has no
//! scheduler to yield to: std's `sys/thread/unsupported.rs`), so a yield
//! phase there is only more spinning; the wasm defaults have none and go
//! from spinning to parking, which is `memory.atomic.wait32` with a timeout.
//!
//! On virtual cores (issue 25) the modelled machine is the same whatever
//! hosts the simulation, so a scheduler on the platform's defaults waits
//! with the native ones there ([`SpinPolicies::of`]): a virtual run gives
//! the same trace natively and in wasm. A scenario's `spin` is kept as is.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::sync;

/// Bounded spinning, for threads that wait on each other (busy-wait cycles,
/// stealing flags and markers) on machines with fewer cores than threads:
/// spin `spins` times, then yield `yields` times, then sleep `park_us`
/// microseconds between checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpinPolicy {
    /// Busy iterations before the first yield.
    #[serde(default = "default_spins")]
    pub spins: u32,
    /// Yields before parking.
    #[serde(default = "default_yields")]
    pub yields: u32,
    /// Sleep between checks once parked, in microseconds.
    #[serde(default = "default_park_us")]
    pub park_us: u32,
}

fn default_spins() -> u32 {
    100
}
fn default_yields() -> u32 {
    100
}
fn default_park_us() -> u32 {
    50
}

impl Default for SpinPolicy {
    fn default() -> Self {
        SpinPolicy {
            spins: default_spins(),
            yields: default_yields(),
            park_us: default_park_us(),
        }
    }
}

/// The waits that back off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitKind {
    /// A thread of a sequential class waits for the class's executor to
    /// release a busy-wait cycle (busy-wait, moderate work stealing).
    Cycle,
    /// A thread about to run a sequential request waits until no stealer
    /// holds work taken from it (work stealing, Algorithm 8 lines 22-23).
    Marker,
    /// A work-stealing worker with an empty queue and nothing to steal.
    Idle,
}

/// One [`SpinPolicy`] per [`WaitKind`] of a scheduler; read them with
/// [`SpinPolicies::of`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpinPolicies {
    pub cycle: SpinPolicy,
    pub marker: SpinPolicy,
    pub idle: SpinPolicy,
    /// These are the platform's defaults ([`SpinPolicies::defaults`]), not
    /// a scenario's: on a virtual core they give way to the native ones.
    pub platform: bool,
}

impl SpinPolicies {
    /// This platform's defaults (native or wasm32); docs/benchmarks/early.md
    /// ("Spin policy") has the measurements and what they do not yet show.
    pub fn defaults() -> Self {
        let p = if cfg!(target_arch = "wasm32") {
            Self::WASM
        } else {
            Self::NATIVE
        };
        SpinPolicies {
            platform: true,
            ..p
        }
    }

    /// Native defaults: spin 100, yield 100, park 50 µs for every wait
    /// kind. Chosen from the quiet grid of 2026-11-23 (docs/benchmarks/
    /// early.md, "Spin policy"): against the earlier spin 1,000 it was
    /// 1.05-1.38x at 2 threads on the stealing scenarios and 2.2-3.7x at 4
    /// threads, and within the spread (0.89x, ranges overlapping) on
    /// busy-wait at 2 threads. A short spin gives the core away sooner when
    /// the awaited thread shares it; with spare cores the yield phase (a
    /// yield returns at once when nothing else is runnable) still polls for
    /// tens of microseconds before parking, so the wait stays responsive.
    pub const NATIVE: SpinPolicies = SpinPolicies {
        cycle: SpinPolicy {
            spins: 100,
            yields: 100,
            park_us: 50,
        },
        marker: SpinPolicy {
            spins: 100,
            yields: 100,
            park_us: 50,
        },
        idle: SpinPolicy {
            spins: 100,
            yields: 100,
            park_us: 50,
        },
        platform: false,
    };

    /// wasm32 defaults: no yield phase (a no-op there), so spin longer and
    /// park sooner; idle stealing workers park as long as natively. Derived
    /// from that fact, not yet measured in a browser.
    pub const WASM: SpinPolicies = SpinPolicies {
        cycle: SpinPolicy {
            spins: 2_000,
            yields: 0,
            park_us: 20,
        },
        marker: SpinPolicy {
            spins: 2_000,
            yields: 0,
            park_us: 20,
        },
        idle: SpinPolicy {
            spins: 2_000,
            yields: 0,
            park_us: 50,
        },
        platform: false,
    };

    /// The same policy for every wait kind (a scenario's `spin` object).
    pub const fn uniform(p: SpinPolicy) -> Self {
        SpinPolicies {
            cycle: p,
            marker: p,
            idle: p,
            platform: false,
        }
    }

    /// A scheduler's policies: the scenario's `spin` for every kind when it
    /// gives one, else this platform's defaults.
    pub fn from_param(spin: Option<SpinPolicy>) -> Self {
        spin.map_or_else(Self::defaults, Self::uniform)
    }

    /// The policy of a `kind` wait, asked when the wait begins: the
    /// platform's defaults are the native ones on a virtual core (one
    /// relaxed load in a real run), so the model does not depend on its host.
    pub fn of(&self, kind: WaitKind) -> SpinPolicy {
        let on_virtual_core = || psmr_core::virt::with_current(|_| ()).is_some();
        let p = if self.platform && on_virtual_core() {
            &Self::NATIVE
        } else {
            self
        };
        match kind {
            WaitKind::Cycle => p.cycle,
            WaitKind::Marker => p.marker,
            WaitKind::Idle => p.idle,
        }
    }
}

impl From<SpinPolicy> for SpinPolicies {
    fn from(p: SpinPolicy) -> Self {
        Self::uniform(p)
    }
}

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

    /// `while !done() { self.snooze() }`, with the same counts and, on
    /// virtual cores, the same schedule; there the spin and yield phases
    /// are left to the conductor ([`sync::poll_spins`]), which makes an
    /// iteration without waking this thread while `done` stays false.
    /// `done` must only read atomics (no lock, no charge).
    #[track_caller]
    pub fn wait_until(&mut self, done: impl Fn() -> bool + Sync) {
        while !done() {
            let spin_left = self.policy.spins.saturating_sub(self.spins);
            let yield_left = self
                .policy
                .spins
                .saturating_add(self.policy.yields)
                .saturating_sub(self.spins)
                .min(self.policy.yields);
            let (budget, yielding) = if spin_left > 0 {
                (spin_left, false)
            } else {
                (yield_left, true)
            };
            if cfg!(not(any(loom, shuttle))) && budget > 0 {
                if let Some(k) = sync::poll_spins(budget, yielding, &done) {
                    self.spins = self.spins.saturating_add(k);
                    if yielding {
                        self.yields += k;
                    }
                    continue;
                }
            }
            self.snooze();
        }
    }

    /// Wait a little, escalating from spinning to yielding to parking. On
    /// virtual cores each phase is a point of its cost (spin, yield, a
    /// sleep of `park_us`); a spinner nothing can release is reported by
    /// the conductor's watchdog naming the caller's line.
    #[track_caller]
    pub fn snooze(&mut self) {
        self.spins = self.spins.saturating_add(1);
        if cfg!(any(loom, shuttle)) {
            // Under loom and shuttle every wait must yield, or the model
            // never ends (both schedule threads cooperatively).
            sync::yield_now();
        } else if self.spins <= self.policy.spins {
            sync::spin_loop();
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
    fn a_scenario_spin_overrides_every_wait_kind() {
        let p = SpinPolicy {
            spins: 7,
            yields: 8,
            park_us: 9,
        };
        let all = SpinPolicies::from_param(Some(p));
        for k in [WaitKind::Cycle, WaitKind::Marker, WaitKind::Idle] {
            assert_eq!(all.of(k), p);
        }
        assert_eq!(SpinPolicies::from_param(None), SpinPolicies::defaults());
    }

    /// A virtual run models the same machine on every host: the wasm
    /// defaults give way to the native ones on a virtual core, a scenario's
    /// policy does not, and outside a virtual run nothing changes.
    #[test]
    #[cfg(not(any(loom, shuttle)))]
    fn on_a_virtual_core_the_platform_defaults_are_the_native_ones() {
        use psmr_core::virt::{attach, Conductor, CostTable};
        use std::sync::Arc;
        let wasm = SpinPolicies {
            platform: true,
            ..SpinPolicies::WASM
        };
        let given = SpinPolicies::uniform(SpinPolicy::default());
        let kinds = [WaitKind::Cycle, WaitKind::Marker, WaitKind::Idle];
        for k in kinds {
            assert_eq!(wasm.of(k), SpinPolicies::WASM.of(k), "a real run");
        }
        let conductor = Arc::new(Conductor::new(
            vec!["worker 0".into()],
            CostTable::reference(),
        ));
        let _on = attach(conductor, 0);
        for k in kinds {
            assert_eq!(wasm.of(k), SpinPolicies::NATIVE.of(k));
            assert_eq!(given.of(k), SpinPolicy::default());
        }
    }

    #[test]
    fn wasm_defaults_have_no_yield_phase() {
        // yield_now is a no-op on wasm32: a yield phase would only spin.
        for k in [WaitKind::Cycle, WaitKind::Marker, WaitKind::Idle] {
            assert_eq!(SpinPolicies::WASM.of(k).yields, 0);
            assert!(SpinPolicies::WASM.of(k).park_us > 0);
        }
    }

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
