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
//! drop to the lowest priority; shorter ones reorder nearby steps only. A
//! schedule may instead put every delay on one thread drawn from its seed,
//! which also runs 2-16 times slower ([`Schedule::on_one_thread`]): the
//! steady lag that a chain overtaken link by link needs.
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
    /// Every delay falls on one thread, drawn from the seed (a slow core),
    /// instead of on whichever thread reaches the change point.
    pub victim: bool,
}

impl Schedule {
    /// The earliest-clock schedule.
    pub const EARLIEST: Schedule = Schedule {
        seed: None,
        depth: 0,
        horizon: 0,
        victim: false,
    };

    /// A perturbed schedule.
    pub fn pct(seed: u64, depth: u32, horizon: u64) -> Self {
        Schedule {
            seed: Some(seed),
            depth,
            horizon: horizon.max(1),
            victim: false,
        }
    }

    /// The same delays, all owed by one thread drawn from the seed, which
    /// also runs 2-16 times slower (a slow or often preempted core): a
    /// thread that falls behind again and again, which a race needing a
    /// chain of steps overtaken one by one (or a queue still full when
    /// another runs dry) wants, where delays spread over the threads rarely
    /// line up.
    pub fn on_one_thread(self) -> Self {
        Schedule {
            victim: true,
            ..self
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
        // Drawn last, so a seed's offsets and change points are the same
        // with and without a victim.
        let victim = self
            .victim
            .then(|| rng.below(threads.max(1) as u64) as usize);
        let slow = if self.victim { 2 << rng.below(4) } else { 1 };
        Some(Perturbation {
            start,
            changes,
            next: 0,
            victim,
            slow,
            owed: 0,
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
    /// The one thread every delay falls on, if the schedule has one.
    victim: Option<usize>,
    /// How many times its cost every point of the victim's costs (2, 4, 8
    /// or 16 from the seed; 1 without a victim): a slow core, on which the
    /// victim's queue or chain falls behind steadily, not only at the
    /// change points.
    slow: u64,
    /// Delays reached and not yet paid by the victim.
    owed: u64,
}

impl Perturbation {
    /// What a point costing `ns` costs thread `me` under this schedule:
    /// `ns` times the slowdown on the victim, `ns` on every other thread.
    pub(crate) fn cost(&self, me: usize, ns: u64) -> u64 {
        if self.victim == Some(me) {
            ns.saturating_mul(self.slow)
        } else {
            ns
        }
    }

    /// The delay owed by thread `me` at point number `points` (the run's
    /// count so far): the sum of every change point reached and not yet
    /// paid; with a victim, only the victim pays, at its next point.
    /// Called at ordinary points only (not spins or blocks), so a change
    /// point falling on a spin is paid at the next ordinary point.
    pub(crate) fn delay_at(&mut self, points: u64, me: usize) -> u64 {
        while let Some(&(at, ns)) = self.changes.get(self.next) {
            if at > points {
                break;
            }
            self.owed = self.owed.saturating_add(ns);
            self.next += 1;
        }
        if self.victim.is_some_and(|v| v != me) {
            return 0;
        }
        std::mem::take(&mut self.owed)
    }
}

/// A replay token: what, beside the scenario file and the scheduler,
/// fixes a virtual run exactly: the stream's seed, the virtual cores and
/// the schedule. Text form (URL-safe, no separators): `s<seed>c<cores>`
/// for the earliest-clock schedule, `s<seed>c<cores>d<depth>k<horizon>x<schedule seed>`
/// for a perturbed one, every number in decimal, e.g. `s7c3d3k5210x42`;
/// `v1` after it when every delay falls on one thread
/// ([`Schedule::on_one_thread`]), e.g. `s7c3d3k5210x42v1`.
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
            if self.schedule.victim {
                f.write_str("v1")?;
            }
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
                 s<seed>c<cores>d<depth>k<horizon>x<schedule seed>[v1])"
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
            "scdkx" | "scdkxv" => {
                if tags.len() == 6 && n(5) != 1 {
                    return Err(bad("v takes only 1"));
                }
                let depth = u32::try_from(n(2)).map_err(|_| bad("depth too large"))?;
                if n(3) == 0 {
                    return Err(bad("horizon must be at least 1"));
                }
                Ok(ReplayToken {
                    seed: n(0),
                    cores: cores(n(1))?,
                    schedule: Schedule {
                        victim: tags.len() == 6,
                        ..Schedule::pct(n(4), depth, n(3))
                    },
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
            ReplayToken {
                seed: 1,
                cores: 2,
                schedule: Schedule::pct(9, 64, 80).on_one_thread(),
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
            "s7c3d3k9x1v2",
            "s7c3v1",
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
        let mut p = changes_at(vec![(3, 10), (3, 5), (8, 1)], None, 1);
        assert_eq!(p.delay_at(2, 0), 0);
        assert_eq!(p.delay_at(4, 1), 15);
        assert_eq!(p.delay_at(5, 0), 0);
        assert_eq!(p.delay_at(9, 0), 1);
        assert_eq!(p.delay_at(100, 1), 0);
    }

    /// A perturbation of three threads starting at 0 with these change
    /// points, victim and slowdown.
    fn changes_at(changes: Vec<(u64, u64)>, victim: Option<usize>, slow: u64) -> Perturbation {
        Perturbation {
            start: vec![0; 3],
            changes,
            next: 0,
            victim,
            slow,
            owed: 0,
        }
    }

    #[test]
    fn with_a_victim_only_the_victim_pays_and_pays_everything_owed() {
        let mut p = changes_at(vec![(3, 10), (5, 5), (8, 1)], Some(2), 4);
        assert_eq!((p.cost(2, 10), p.cost(0, 10)), (40, 10));
        assert_eq!(p.delay_at(4, 0), 0, "thread 0 reached the point, 2 owes it");
        assert_eq!(p.delay_at(6, 1), 0);
        assert_eq!(p.delay_at(7, 2), 15);
        assert_eq!(p.delay_at(9, 0), 0);
        assert_eq!(p.delay_at(10, 2), 1);
        assert_eq!(p.delay_at(11, 2), 0);
    }

    #[test]
    fn a_victim_keeps_the_seeds_offsets_and_change_points() {
        let plain = Schedule::pct(5, 8, 1000).perturbation(4).unwrap();
        let one = Schedule::pct(5, 8, 1000)
            .on_one_thread()
            .perturbation(4)
            .unwrap();
        assert_eq!((plain.start, plain.changes), (one.start, one.changes));
        assert!(plain.victim.is_none() && one.victim.is_some_and(|v| v < 4));
        assert_eq!(plain.slow, 1);
        assert!([2, 4, 8, 16].contains(&one.slow), "{}", one.slow);
    }
}
