//! The primal heuristic: a local search over thread columns for one mode
//! vector (see `docs/mapping-optimizer.md`, "The incumbent").
//!
//! A state is one column (set of classes) per thread. Every column is kept
//! closed under R.4: a concurrent class comes with the sequential classes
//! it conflicts with, and removing such a sequential class removes it. R.2
//! and R.3 hold by the mode vector. What may be broken is R.1 (a class on
//! no thread) and R.5 (two conflicting sequential classes sharing none).
//!
//! The search is the *breakout method*: it minimises a weighted penalty,
//! the sum of the weights of the broken requirements plus, for every
//! thread that holds two independent sequential classes, the weight of
//! that pair (O.3), with the cost as tie-break. A move toggles one class on
//! one thread (with the closure above). When no move improves, the state is
//! a local minimum of the current weights: every broken requirement and
//! every O.3 pair present gains one unit of weight, which reshapes the
//! landscape until some move improves again. Every state without broken
//! requirements is a valid mapping; the best one by (O.3, cost) is kept.
//! Ties between moves are broken by a seeded SplitMix64, so a run is
//! deterministic.

use super::{ModeModel, EPS};
use crate::mask::bits;
use psmr_core::workload::SplitMix64;

/// How often (in steps) the clock is read.
const CLOCK_EVERY: u64 = 16;
/// A run that found a valid state stops after this many steps without a
/// better one.
const STALL_STEPS: u64 = 200;

/// The best valid columns found, with their O.3 and cost.
pub(super) struct Found {
    pub cols: Vec<u64>,
    pub o3: u32,
    pub cost: f64,
}

/// What a move changes.
#[derive(Clone, Copy, Debug, Default)]
struct Delta {
    /// Weighted penalty.
    penalty: i64,
    /// Broken requirements (unweighted).
    broken: i64,
    o3: i64,
    cost: f64,
}

impl Delta {
    /// Lexicographic (penalty, cost): `self` strictly better than `other`.
    fn better(&self, other: &Delta) -> bool {
        self.penalty < other.penalty
            || (self.penalty == other.penalty && self.cost < other.cost - EPS)
    }
    fn same(&self, other: &Delta) -> bool {
        self.penalty == other.penalty && (self.cost - other.cost).abs() <= EPS
    }
    fn improves(&self) -> bool {
        self.penalty < 0 || (self.penalty == 0 && self.cost < -EPS)
    }
}

pub(super) struct LocalSearch<'m, 'p> {
    m: &'m ModeModel<'p>,
    n: usize,
    cols: Vec<u64>,
    /// Threads serving each class.
    cover: Vec<u32>,
    /// Threads serving both `a` and `b` (index `a * n + b`, `a < b`), for
    /// conflicting sequential pairs.
    meet: Vec<u32>,
    /// For a sequential class: the other sequential classes it conflicts with.
    partners: Vec<u64>,
    /// For a sequential class: the concurrent classes that force it.
    forcing: Vec<u64>,
    /// Breakout weights: of a class without thread, of a pair of
    /// conflicting sequential classes without a common thread, of a pair
    /// of independent sequential classes on one thread (index as `meet`).
    w_cover: Vec<i64>,
    w_pair: Vec<i64>,
    broken: i64,
    o3: i64,
    cost: f64,
}

impl<'m, 'p> LocalSearch<'m, 'p> {
    /// Empty columns: every class and every R.5 pair is broken.
    pub(super) fn new(m: &'m ModeModel<'p>) -> Self {
        let n = m.p.n;
        let mut partners = vec![0u64; n];
        let mut forcing = vec![0u64; n];
        let mut broken = n as i64;
        for (a, partners_a) in partners.iter_mut().enumerate() {
            if m.is_conc(a) {
                for s in bits(m.forced[a]) {
                    forcing[s] |= 1 << a;
                }
            } else {
                *partners_a = m.p.conflicts[a] & m.seq & !(1 << a);
                broken += (*partners_a >> a >> 1).count_ones() as i64;
            }
        }
        let cost = (0..n).filter(|&c| m.is_conc(c)).map(|c| m.g(c, 0)).sum();
        LocalSearch {
            m,
            n,
            cols: vec![0; m.p.threads],
            cover: vec![0; n],
            meet: vec![0; n * n],
            partners,
            forcing,
            w_cover: vec![1; n],
            w_pair: vec![1; n * n],
            broken,
            o3: 0,
            cost,
        }
    }

    /// Column `col` with class `c` toggled, closed under R.4.
    fn toggled(&self, col: u64, c: usize) -> u64 {
        if col & 1 << c == 0 {
            col | 1 << c | self.m.forced[c]
        } else if self.m.is_conc(c) {
            col & !(1 << c)
        } else {
            col & !(1 << c) & !self.forcing[c]
        }
    }

    /// Visit each pair `(c, b)` with `c` in `changed`, `b` in
    /// `others[c] & within`, once (pairs inside `changed` from their
    /// smaller end).
    fn for_pairs(
        &self,
        changed: u64,
        within: u64,
        others: impl Fn(usize) -> u64,
        mut f: impl FnMut(usize),
    ) {
        let mut bits = changed;
        while bits != 0 {
            let c = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let mut ps = others(c) & within;
            while ps != 0 {
                let b = ps.trailing_zeros() as usize;
                ps &= ps - 1;
                if changed & 1 << b != 0 && b < c {
                    continue;
                }
                f(pair(c, b, self.n));
            }
        }
    }

    /// What happens when thread `t`'s column becomes `new`.
    fn delta(&self, t: usize, new: u64) -> Delta {
        let m = self.m;
        let old = self.cols[t];
        let (added, removed) = (new & !old, old & !new);
        let mut d = Delta {
            cost: m.seq_cost(new) - m.seq_cost(old),
            ..Delta::default()
        };
        let mut bits = added | removed;
        while bits != 0 {
            let c = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let x = self.cover[c] as usize;
            let up = added & 1 << c != 0;
            if up && x == 0 {
                d.broken -= 1;
                d.penalty -= self.w_cover[c];
            } else if !up && x == 1 {
                d.broken += 1;
                d.penalty += self.w_cover[c];
            }
            if m.is_conc(c) {
                let x2 = if up { x + 1 } else { x - 1 };
                d.cost += m.g(c, x2) - m.g(c, x);
            }
        }
        let indep = |c: usize| m.indep[c];
        let partners = |c: usize| self.partners[c];
        self.for_pairs(added, new, partners, |k| {
            if self.meet[k] == 0 {
                d.broken -= 1;
                d.penalty -= self.w_pair[k];
            }
        });
        self.for_pairs(removed, old, partners, |k| {
            if self.meet[k] == 1 {
                d.broken += 1;
                d.penalty += self.w_pair[k];
            }
        });
        self.for_pairs(added & m.seq, new, indep, |k| {
            d.o3 += 1;
            d.penalty += self.w_pair[k];
        });
        self.for_pairs(removed & m.seq, old, indep, |k| {
            d.o3 -= 1;
            d.penalty -= self.w_pair[k];
        });
        d
    }

    fn apply(&mut self, t: usize, new: u64, d: Delta) {
        let old = self.cols[t];
        let (added, removed) = (new & !old, old & !new);
        let mut meet = std::mem::take(&mut self.meet);
        self.for_pairs(added, new, |c| self.partners[c], |k| meet[k] += 1);
        self.for_pairs(removed, old, |c| self.partners[c], |k| meet[k] -= 1);
        self.meet = meet;
        for c in bits(added) {
            self.cover[c] += 1;
        }
        for c in bits(removed) {
            self.cover[c] -= 1;
        }
        self.cols[t] = new;
        self.broken += d.broken;
        self.o3 += d.o3;
        self.cost += d.cost;
    }

    /// The R.5 pairs without a common thread, as two-class masks.
    fn unmet_pairs(&self) -> Vec<u64> {
        let mut out = Vec::new();
        for a in 0..self.n {
            for b in bits(self.partners[a] >> a >> 1 << a << 1) {
                if self.meet[pair(a, b, self.n)] == 0 {
                    out.push(1 << a | 1 << b);
                }
            }
        }
        out
    }

    /// At a local minimum: every broken requirement and every O.3 pair
    /// present gains weight.
    fn breakout(&mut self) {
        for c in 0..self.n {
            if self.cover[c] == 0 {
                self.w_cover[c] += 1;
            }
        }
        for a in 0..self.n {
            for b in bits(self.partners[a] >> a >> 1 << a << 1) {
                if self.meet[pair(a, b, self.n)] == 0 {
                    self.w_pair[pair(a, b, self.n)] += 1;
                }
            }
        }
        for t in 0..self.cols.len() {
            let col = self.cols[t] & self.m.seq;
            for a in bits(col) {
                for b in bits(self.m.indep[a] & col) {
                    if a < b {
                        self.w_pair[pair(a, b, self.n)] += 1;
                    }
                }
            }
        }
    }

    /// Run `steps` steps (a move or a breakout each) with ties broken by
    /// `seed`, or fewer if the clock passes `deadline_ns` (read every
    /// `CLOCK_EVERY` steps) or it stalls (`STALL_STEPS`); return the best
    /// valid state seen, if any, and the steps taken.
    pub(super) fn run(&mut self, steps: u64, seed: u64, deadline_ns: u64) -> (Option<Found>, u64) {
        let threads = self.cols.len();
        let mut rng = SplitMix64::new(seed);
        let mut best: Option<Found> = None;
        let mut last_better = 0;
        let mut taken = 0;
        for step in 0..steps {
            if best.is_some() && step - last_better > STALL_STEPS {
                break;
            }
            if step % CLOCK_EVERY == 0 && psmr_core::clock::now_ns() >= deadline_ns {
                break;
            }
            taken += 1;
            let mut chosen: Option<(usize, u64, Delta)> = None;
            let mut ties = 0u64;
            let unmet = self.unmet_pairs();
            for t in 0..threads {
                let col = self.cols[t];
                if self.cols[..t].contains(&col) {
                    continue; // the same moves as an earlier thread
                }
                let toggles = (0..self.n).map(|c| self.toggled(col, c));
                // Meeting an unmet R.5 pair on a thread holding neither
                // class takes two toggles, the first of which gains nothing.
                let meets = unmet
                    .iter()
                    .filter(|&&both| col & both == 0)
                    .map(|&both| col | both);
                for new in toggles.chain(meets) {
                    let d = self.delta(t, new);
                    match &chosen {
                        Some((_, _, cd)) if cd.better(&d) => {}
                        Some((_, _, cd)) if cd.same(&d) => {
                            ties += 1;
                            if rng.below(ties + 1) == 0 {
                                chosen = Some((t, new, d));
                            }
                        }
                        _ => {
                            ties = 0;
                            chosen = Some((t, new, d));
                        }
                    }
                }
            }
            match chosen {
                Some((t, new, d)) if d.improves() => self.apply(t, new, d),
                Some(_) => self.breakout(),
                None => break,
            }
            let better = |b: &Found| {
                (self.o3 as u32) < b.o3 || (self.o3 as u32 == b.o3 && self.cost < b.cost - EPS)
            };
            if self.broken == 0 && best.as_ref().is_none_or(better) {
                last_better = step;
                best = Some(Found {
                    cols: self.cols.clone(),
                    o3: self.o3 as u32,
                    cost: self.cost,
                });
            }
        }
        (best, taken)
    }
}

fn pair(a: usize, b: usize, n: usize) -> usize {
    if a < b {
        a * n + b
    } else {
        b * n + a
    }
}
