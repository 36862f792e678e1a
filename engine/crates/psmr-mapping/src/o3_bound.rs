//! A lower bound on O.3 from *requirements* (see
//! `docs/mapping-optimizer.md`, "Bounds on O.3").
//!
//! For a fixed mode vector, every complete mapping must have
//! * for each class `c`, a thread whose column contains `c` and, when `c` is
//!   concurrent, the sequential classes it conflicts with (R.1 with R.4);
//! * for each pair of conflicting sequential classes, a thread whose column
//!   contains both (R.5).
//!
//! Call the classes a requirement puts on its thread its *closure*. Two
//! requirements are *incompatible* when their closures together hold two
//! independent sequential classes: a thread that meets both adds O.3. A
//! greedy clique `K` of pairwise incompatible requirements (each compatible
//! with itself) gives the bound: every member needs a thread, a thread that
//! meets `j` members of `K` holds at least `ceil(log2 j)` independent pairs
//! (covering the pairs of `K_j` with bicliques takes that many), so with
//! `n` threads and `|K| > n` the mapping has O.3 at least
//! `ceil(log2(|K| - n + 1))`. During the search the same clique is counted
//! on the columns built so far ([`Requirements::extra_o3`]).

use crate::mask::bits;

/// One mode vector's requirement clique.
pub(crate) struct Requirements {
    /// Closures of the members of the clique.
    close: Vec<u64>,
    /// The largest O.3 of one requirement's closure on its own (a
    /// concurrent class forcing two independent sequential classes onto
    /// each of its threads): every mapping pays at least this much.
    self_o3: u32,
    /// The closure of that requirement (0 when `self_o3 == 0`).
    self_close: u64,
    /// `indep[s]`: sequential classes independent of sequential `s`.
    indep: Vec<u64>,
}

/// How many seeds the greedy clique search starts from.
const CLIQUE_SEEDS: usize = 8;

impl Requirements {
    /// The requirements of the mode vector whose sequential classes are
    /// `seq`, where `forced[c]` are the sequential classes concurrent `c`
    /// forces onto its threads (0 for sequential classes), `indep[s]` the
    /// sequential classes independent of sequential `s` and `conflicts[c]`
    /// the conflict relation.
    pub(crate) fn new(seq: u64, forced: &[u64], indep: &[u64], conflicts: &[u64]) -> Self {
        let n = forced.len();
        let mut all: Vec<u64> = (0..n).map(|c| 1u64 << c | forced[c]).collect();
        for (a, &conf_a) in conflicts.iter().enumerate() {
            for b in a + 1..n {
                if seq & 1 << a != 0 && seq & 1 << b != 0 && conf_a & 1 << b != 0 {
                    all.push(1 << a | 1 << b);
                }
            }
        }
        let nbr = |mask: u64| bits(mask & seq).fold(0, |out, x| out | indep[x]);
        // Each independent pair of `mask` is counted from both ends.
        let pairs = |mask: u64| {
            let ends: u32 = bits(mask & seq)
                .map(|x| (indep[x] & mask).count_ones())
                .sum();
            ends / 2
        };
        let mut self_o3 = 0;
        let mut self_close = 0;
        let mut ok: Vec<(u64, u64)> = Vec::new();
        for &c in &all {
            let p = pairs(c);
            if p == 0 {
                ok.push((c, nbr(c)));
            } else if p > self_o3 {
                self_o3 = p;
                self_close = c;
            }
        }
        // Incompatibility rows as bit sets over `ok`.
        let words = ok.len().div_ceil(64);
        let mut rows = vec![0u64; ok.len() * words];
        for (a, &(_, nbr_a)) in ok.iter().enumerate() {
            for (b, &(close_b, _)) in ok.iter().enumerate() {
                if nbr_a & close_b != 0 {
                    rows[a * words + b / 64] |= 1 << (b % 64);
                }
            }
        }
        let row = |a: usize| &rows[a * words..(a + 1) * words];
        let degree: Vec<u32> = (0..ok.len())
            .map(|a| row(a).iter().map(|w| w.count_ones()).sum())
            .collect();
        let mut order: Vec<usize> = (0..ok.len()).collect();
        order.sort_by_key(|&k| (std::cmp::Reverse(degree[k]), k));
        let mut best: Vec<usize> = Vec::new();
        for &seed in order.iter().take(CLIQUE_SEEDS) {
            // Candidates: incompatible with every member so far.
            let mut cand: Vec<u64> = row(seed).to_vec();
            let mut clique = vec![seed];
            for &k in &order {
                if k != seed && cand[k / 64] & 1 << (k % 64) != 0 {
                    clique.push(k);
                    for (c, r) in cand.iter_mut().zip(row(k)) {
                        *c &= r;
                    }
                }
            }
            if clique.len() > best.len() {
                best = clique;
            }
        }
        Requirements {
            close: best.into_iter().map(|k| ok[k].0).collect(),
            self_o3,
            self_close,
            indep: indep.to_vec(),
        }
    }

    /// Sequential classes independent of some class of `mask`.
    fn nbr(&self, mask: u64) -> u64 {
        bits(mask).fold(0, |out, x| out | self.indep[x])
    }

    /// Lower bound on the O.3 still to be added to columns `cols` (thread
    /// counts and columns, as the search's orbits), whose O.3 so far is
    /// `o3_so_far`.
    ///
    /// With `o3_so_far == 0` no column holds an independent pair, so the
    /// biclique argument of the module doc applies to every thread: `F`
    /// threads can each take one unmet member of `K` without adding O.3 and
    /// the other `d = |unmet| - F` members cost at least `ceil(log2(d + 1))`
    /// (or `max(1, ceil(log2 d))` when some thread can take none for free).
    /// Otherwise a column that already holds independent pairs might take
    /// several members for free, so such a column counts every member it
    /// could take, and a deficit costs at least 1.
    pub(crate) fn extra_o3(
        &self,
        cols: &[(usize, u64)],
        o3_so_far: u32,
        pairs: impl Fn(u64) -> u32,
    ) -> u32 {
        let met = |close: u64| cols.iter().any(|&(_, col)| col & close == close);
        let mut floor = 0;
        if o3_so_far == 0 && self.self_o3 > 0 && !met(self.self_close) {
            floor = self.self_o3;
        }
        let unmet: Vec<u64> = self.close.iter().copied().filter(|&c| !met(c)).collect();
        if unmet.is_empty() {
            return floor;
        }
        let mut free = 0usize;
        let mut none_free = false;
        for &(len, col) in cols {
            let takes = unmet
                .iter()
                .filter(|&&c| self.nbr(c & !col) & col == 0)
                .count();
            if takes == 0 {
                none_free = true;
            } else if o3_so_far > 0 && pairs(col) > 0 {
                free += len * takes;
            } else {
                free += len;
            }
        }
        let Some(d) = unmet.len().checked_sub(free).filter(|&d| d > 0) else {
            return floor;
        };
        let extra = if o3_so_far > 0 {
            1
        } else if none_free {
            ceil_log2(d).max(1)
        } else {
            ceil_log2(d + 1)
        };
        floor.max(extra)
    }
}

/// `ceil(log2 x)` for `x >= 1`.
fn ceil_log2(x: usize) -> u32 {
    if x <= 1 {
        0
    } else {
        usize::BITS - (x - 1).leading_zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ceil_log2_small_values() {
        let got: Vec<u32> = (1..=9).map(ceil_log2).collect();
        assert_eq!(got, vec![0, 1, 2, 2, 3, 3, 3, 3, 4]);
    }
}
