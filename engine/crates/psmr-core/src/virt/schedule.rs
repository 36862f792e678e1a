//! Schedule policies of the conductor (issue 26, exploration): the
//! earliest-clock choice, or the same choice perturbed by seeded delays,
//! and the replay token naming a schedule (docs/protocols/virtual-cores.md,
//! "Exploring schedules").
//!
//! The perturbation is PCT's idea (Burckhardt et al., ASPLOS 2010) carried
//! into virtual time. PCT gives threads random priorities and, at a few
//! random steps, drops the running thread below all others, so that a
//! thread is starved exactly where a bug needs it to be. Here the choice
//! stays "smallest clock first" (so every run is still a conservative
//! simulation and the trace's times stay meaningful), and a priority drop
//! becomes a **delay**: at each of `depth` change points, chosen uniformly
//! among the first `horizon` synchronization points, the thread reaching
//! the point has its clock pushed forward by a random amount, as if the OS
//! had preempted it there; the random initial priorities become random
//! start offsets. A delay that outlasts every other thread's work is PCT's
//! drop to the lowest priority; shorter ones reorder nearby steps only.
//! Every number comes from the schedule's seed, so a schedule replays
//! exactly.

use std::fmt;
use std::str::FromStr;

use crate::rng::SplitMix64;

/// Shortest and longest delay at a change point, in virtual ns: from a
/// lock hand-off to a whole classroom run (log-uniform between: every
/// scale is tried, from reordering two steps to PCT's starvation).
pub const DELAY_MIN_NS: u64 = 100;
pub const DELAY_MAX_NS: u64 = 1_000_000_000;

/// Largest start offset of a thread (PCT's random initial priority).
pub const START_MAX_NS: u64 = 100_000;

/// How the conductor chooses among candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Schedule {
    /// `None`: the earliest clock runs (the default, schedule 0). `Some`:
    /// the earliest clock runs, with delays drawn from this seed.
    pub seed: Option<u64>,
    /// Change points (delays) per run.
    pub depth: u32,
    /// Change points are drawn among synchronization points `1..=horizon`
    /// (the point count of the unperturbed run, as PCT's `k`).
    pub horizon: u64,
}

impl Schedule {
    /// The earliest-clock schedule.
    pub const EARLIEST: Schedule = Schedule {
        seed: None,
        depth: 0,
        horizon: 0,
    };

    /// A perturbed schedule.
    pub fn pct(seed: u64, depth: u32, horizon: u64) -> Self {
        Schedule {
            seed: Some(seed),
            depth,
            horizon: horizon.max(1),
        }
    }

    /// The perturbation of a run of `threads` threads, if any.
    pub(crate) fn perturbation(&self, threads: usize) -> Option<Perturbation> {
        let seed = self.seed?;
        let mut rng = SplitMix64::new(seed);
        let start = (0..threads).map(|_| rng.below(START_MAX_NS)).collect();
        let mut changes: Vec<(u64, u64)> = (0..self.depth)
            .map(|_| (1 + rng.below(self.horizon), log_uniform(&mut rng)))
            .collect();
        changes.sort_unstable();
        Some(Perturbation {
            start,
            changes,
            next: 0,
        })
    }
}

/// Log-uniform in `DELAY_MIN_NS..DELAY_MAX_NS` (integer arithmetic on the
/// exponent's fraction, identical on every platform).
fn log_uniform(rng: &mut SplitMix64) -> u64 {
    let lo = (DELAY_MIN_NS as f64).ln();
    let hi = (DELAY_MAX_NS as f64).ln();
    (lo + (hi - lo) * rng.unit()).exp() as u64
}

/// The delays of one perturbed run, consumed in point order.
#[derive(Clone, Debug)]
pub(crate) struct Perturbation {
    /// Each thread's clock at the start.
    pub(crate) start: Vec<u64>,
    /// `(point, delay)`, sorted by point.
    changes: Vec<(u64, u64)>,
    next: usize,
}

impl Perturbation {
    /// The delay owed by the thread at point number `points` (the run's
    /// count so far): the sum of every change point reached and not yet
    /// paid. Called at ordinary points only (not spins or blocks), so a
    /// change point falling on a spin is paid at the next ordinary point.
    pub(crate) fn delay_at(&mut self, points: u64) -> u64 {
        let mut d = 0u64;
        while let Some(&(at, ns)) = self.changes.get(self.next) {
            if at > points {
                break;
            }
            d = d.saturating_add(ns);
            self.next += 1;
        }
        d
    }
}

/// A replay token: what, beside the scenario file and the scheduler,
/// fixes a virtual run exactly: the stream's seed, the virtual cores and
/// the schedule. Text form (URL-safe, no separators): `s<seed>c<cores>`
/// for the earliest-clock schedule, `s<seed>c<cores>d<depth>k<horizon>x<schedule seed>`
/// for a perturbed one, every number in decimal, e.g. `s7c3d3k5210x42`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayToken {
    pub seed: u64,
    pub cores: u32,
    pub schedule: Schedule,
}

impl fmt::Display for ReplayToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s{}c{}", self.seed, self.cores)?;
        if let Some(x) = self.schedule.seed {
            write!(f, "d{}k{}x{x}", self.schedule.depth, self.schedule.horizon)?;
        }
        Ok(())
    }
}

impl FromStr for ReplayToken {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let bad = |why: &str| {
            format!(
                "schedule token `{s}`: {why} (expected s<seed>c<cores> or \
                 s<seed>c<cores>d<depth>k<horizon>x<schedule seed>)"
            )
        };
        let fields = tagged_numbers(s).ok_or_else(|| bad("not letter-number pairs"))?;
        let tags: String = fields.iter().map(|(t, _)| *t).collect();
        let n = |i: usize| fields[i].1;
        let cores = |v: u64| {
            u32::try_from(v)
                .ok()
                .filter(|c| (1..=crate::threads::MAX_WORKERS as u32).contains(c))
                .ok_or_else(|| bad("cores out of 1..=64"))
        };
        match tags.as_str() {
            "sc" => Ok(ReplayToken {
                seed: n(0),
                cores: cores(n(1))?,
                schedule: Schedule::EARLIEST,
            }),
            "scdkx" => {
                let depth = u32::try_from(n(2)).map_err(|_| bad("depth too large"))?;
                if n(3) == 0 {
                    return Err(bad("horizon must be at least 1"));
                }
                Ok(ReplayToken {
                    seed: n(0),
                    cores: cores(n(1))?,
                    schedule: Schedule::pct(n(4), depth, n(3)),
                })
            }
            _ => Err(bad("unexpected fields")),
        }
    }
}

/// `a12b3` as `[('a', 12), ('b', 3)]`; `None` unless the whole text is
/// lower-case letters each followed by a decimal number.
fn tagged_numbers(s: &str) -> Option<Vec<(char, u64)>> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(tag) = rest.chars().next() {
        if !tag.is_ascii_lowercase() {
            return None;
        }
        let digits = rest[1..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len() - 1, |i| i);
        let num = rest[1..1 + digits].parse().ok()?;
        out.push((tag, num));
        rest = &rest[1 + digits..];
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_reads_back_what_it_wrote() {
        for t in [
            ReplayToken {
                seed: 7,
                cores: 3,
                schedule: Schedule::EARLIEST,
            },
            ReplayToken {
                seed: u64::MAX,
                cores: 64,
                schedule: Schedule::pct(42, 3, 5210),
            },
        ] {
            let s = t.to_string();
            assert_eq!(s.parse::<ReplayToken>(), Ok(t), "{s}");
        }
        assert_eq!(
            ReplayToken {
                seed: 7,
                cores: 3,
                schedule: Schedule::pct(42, 3, 5210)
            }
            .to_string(),
            "s7c3d3k5210x42"
        );
    }

    #[test]
    fn malformed_tokens_are_refused() {
        for s in [
            "",
            "s7",
            "s7c0",
            "s7c65",
            "s7c3d3",
            "s7c3d3k0x1",
            "S7c3",
            "s7c3x1",
            "s-1c2",
        ] {
            assert!(s.parse::<ReplayToken>().is_err(), "{s}");
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_delays_and_another_seed_others() {
        let a = Schedule::pct(1, 3, 1000).perturbation(4).unwrap();
        let b = Schedule::pct(1, 3, 1000).perturbation(4).unwrap();
        let c = Schedule::pct(2, 3, 1000).perturbation(4).unwrap();
        assert_eq!((a.start.clone(), a.changes.clone()), (b.start, b.changes));
        assert_ne!(a.changes, c.changes);
        assert!(a
            .changes
            .iter()
            .all(|&(p, d)| (1..=1000).contains(&p) && (DELAY_MIN_NS..=DELAY_MAX_NS).contains(&d)));
        assert!(Schedule::EARLIEST.perturbation(4).is_none());
    }

    #[test]
    fn delays_are_paid_once_at_or_after_their_point() {
        let mut p = Perturbation {
            start: vec![0],
            changes: vec![(3, 10), (3, 5), (8, 1)],
            next: 0,
        };
        assert_eq!(p.delay_at(2), 0);
        assert_eq!(p.delay_at(4), 15);
        assert_eq!(p.delay_at(5), 0);
        assert_eq!(p.delay_at(9), 1);
        assert_eq!(p.delay_at(100), 0);
    }
}
