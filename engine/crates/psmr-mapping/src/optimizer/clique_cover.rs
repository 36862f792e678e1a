//! A second primal heuristic, for the mode vector where every class is
//! sequential (see `docs/mapping-optimizer.md`, "The incumbent").
//!
//! With every class sequential and O.3 = 0, a thread's column may only
//! hold classes that pairwise conflict (a clique of the conflict graph),
//! R.5 asks every conflicting pair to share a column and R.1 every class
//! to have one: a mapping is a cover of the conflict graph's edges and
//! vertices by at most `threads` cliques, and its cost is the O.1a weight
//! of each class times the number of cliques holding it. The breakout
//! local search reaches O.3 = 0 here but hardly moves the cost once no
//! requirement is broken, and the depth-first search starts from small
//! thread counts class by class, far from good covers on random graphs of
//! 14-16 classes (issue 30's fresh instances). This builds covers greedily
//! (grow a clique from an uncovered edge, adding the class that covers
//! the most uncovered edges per unit of weight), from seeded random
//! starting edges, merges columns whose union is still a clique, drops
//! every class from a column where all its pairs are met elsewhere, and
//! keeps the cheapest cover.

use super::ModeModel;
use crate::mask::bits;
use psmr_core::workload::SplitMix64;

/// Greedy covers tried (each from its own random choices).
const RESTARTS: usize = 256;

/// The cheapest clique cover found for the all-sequential mode vector
/// `m` (`m.conc == 0`), as one column per thread, or `None` when none fits
/// in `m.p.threads` columns.
pub(super) fn all_sequential_cover(m: &ModeModel, seed: u64) -> Option<Vec<u64>> {
    debug_assert_eq!(m.conc, 0);
    let n = m.p.n;
    let adj: Vec<u64> = (0..n).map(|v| m.p.conflicts[v] & !(1u64 << v)).collect();
    let mut rng = SplitMix64::new(seed);
    let mut best: Option<(f64, Vec<u64>)> = None;
    for _ in 0..RESTARTS {
        let Some(cols) = greedy_cover(m, &adj, &mut rng) else {
            continue;
        };
        let cols = prune(m, &adj, merge(&adj, cols));
        let cost = cover_cost(m, &cols);
        if best.as_ref().is_none_or(|(c, _)| cost < *c - super::EPS) {
            best = Some((cost, cols));
        }
    }
    let (_, mut cols) = best?;
    cols.resize(m.p.threads, 0);
    Some(cols)
}

/// One greedy cover, or `None` when it needs more columns than threads.
fn greedy_cover(m: &ModeModel, adj: &[u64], rng: &mut SplitMix64) -> Option<Vec<u64>> {
    let n = adj.len();
    // Uncovered edges, as a neighbour mask per class (symmetric).
    let mut unc: Vec<u64> = adj.to_vec();
    let mut cols: Vec<u64> = Vec::new();
    loop {
        let open: Vec<usize> = (0..n).filter(|&v| unc[v] != 0).collect();
        if open.is_empty() {
            break;
        }
        let v = open[rng.below(open.len() as u64) as usize];
        let nbrs: Vec<usize> = bits(unc[v]).collect();
        let u = nbrs[rng.below(nbrs.len() as u64) as usize];
        let mut k = 1u64 << v | 1u64 << u;
        let mut cand = adj[v] & adj[u];
        while cand != 0 {
            // The candidate covering the most uncovered edges per weight.
            let mut pick = None;
            let mut best = 0.0;
            for x in bits(cand) {
                let gain = (unc[x] & k).count_ones() as f64;
                if gain == 0.0 {
                    continue;
                }
                let score = gain / m.alpha[x].max(1e-12) * (1.0 + 0.1 * rng.unit());
                if score > best {
                    best = score;
                    pick = Some(x);
                }
            }
            let Some(x) = pick else { break };
            k |= 1u64 << x;
            cand &= adj[x];
        }
        for a in bits(k) {
            unc[a] &= !k;
        }
        cols.push(k);
    }
    // Classes on no column yet (no conflicting class at all) get their own.
    let covered = cols.iter().fold(0u64, |acc, c| acc | c);
    for v in 0..n {
        if covered & 1u64 << v == 0 {
            cols.push(1u64 << v);
        }
    }
    (cols.len() <= m.p.threads).then_some(cols)
}

/// Replace two columns whose union is still a clique by that union (the
/// classes of both then pay once), until no two columns merge.
fn merge(adj: &[u64], mut cols: Vec<u64>) -> Vec<u64> {
    let clique = |k: u64| bits(k).all(|v| k & !(1u64 << v) & !adj[v] == 0);
    let mut i = 0;
    while i < cols.len() {
        let mut j = i + 1;
        while j < cols.len() {
            if clique(cols[i] | cols[j]) {
                cols[i] |= cols[j];
                cols.swap_remove(j);
                j = i + 1;
            } else {
                j += 1;
            }
        }
        i += 1;
    }
    cols
}

/// Drop a class from a column when it keeps another column and every pair
/// it meets in this one is met in another: heaviest classes first.
fn prune(m: &ModeModel, adj: &[u64], mut cols: Vec<u64>) -> Vec<u64> {
    let n = adj.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| m.alpha[b].total_cmp(&m.alpha[a]));
    for v in order {
        for i in 0..cols.len() {
            if cols[i] & 1u64 << v == 0 {
                continue;
            }
            let others = cols
                .iter()
                .enumerate()
                .filter(|&(j, c)| j != i && c & 1u64 << v != 0)
                .fold(0u64, |acc, (_, c)| acc | c);
            let here = cols[i] & adj[v];
            if others & 1u64 << v != 0 && here & !others == 0 {
                cols[i] &= !(1u64 << v);
            }
        }
    }
    cols.retain(|&c| c != 0);
    cols
}

fn cover_cost(m: &ModeModel, cols: &[u64]) -> f64 {
    cols.iter().flat_map(|&c| bits(c)).map(|v| m.alpha[v]).sum()
}
