//! The naive mapping of paper 003 section 6.5, the baseline the optimizer is
//! compared against.
//!
//! The paper describes it in two steps: make the read-only classes
//! concurrent and give them threads roughly in proportion to their share of
//! the workload; then give the write classes whatever threads correctness
//! requires. Generalised to any class table:
//!
//! 1. A class is made concurrent when it has no internal conflict and does
//!    not conflict with a class already made concurrent (heaviest classes
//!    first, ties by class id). This keeps R.2 and R.3 true. For the sharded
//!    tables it makes exactly the read classes concurrent.
//! 2. The threads are split among the concurrent classes in proportion to
//!    their weights (largest remainder, at least one thread each, disjoint
//!    sets of consecutive ids). With more concurrent classes than threads,
//!    class `k` gets thread `k mod n`.
//! 3. Each sequential class takes the union of the threads of the
//!    concurrent classes it conflicts with (R.4), or thread 0 if there are
//!    none; then, while two conflicting sequential classes share no thread,
//!    the second one also takes the first one's lowest thread (R.5). Adding
//!    threads to a sequential class never breaks R.4 or R.5 again, so this
//!    terminates after at most one pass per pair.
//!
//! The result is what the paper observes: in a sharded table the global read
//! is concurrent, so every local write must contain its threads, and local
//! writes of different shards share threads and serialize each other.

use crate::{ClassMapping, CtoT, Mode};
use psmr_core::{ClassId, ClassTable};

/// The naive mapping of `classes` onto `threads` workers (`threads >= 1`).
/// Always satisfies rules R.1-R.5.
pub fn naive(classes: &ClassTable, threads: usize) -> CtoT {
    assert!(threads >= 1, "a mapping needs at least one thread");
    let n = classes.len();
    let modes = choose_modes(classes);
    let concurrent: Vec<usize> = (0..n).filter(|&c| modes[c] == Mode::Concurrent).collect();
    let mut sets: Vec<Vec<usize>> = vec![Vec::new(); n];
    split_threads(classes, &concurrent, threads, &mut sets);
    for c in (0..n).filter(|&c| modes[c] == Mode::Sequential) {
        let mut s: Vec<usize> = concurrent
            .iter()
            .filter(|&&k| classes.conflicts(c as ClassId, k as ClassId))
            .flat_map(|&k| sets[k].iter().copied())
            .collect();
        if s.is_empty() {
            s.push(0);
        }
        sets[c] = s;
        normalize(&mut sets[c]);
    }
    connect_sequential(classes, &modes, &mut sets);
    CtoT {
        threads,
        classes: modes
            .into_iter()
            .zip(sets)
            .map(|(mode, threads)| ClassMapping { mode, threads })
            .collect(),
    }
}

/// Step 1: greedy choice of concurrent classes, heaviest first.
fn choose_modes(classes: &ClassTable) -> Vec<Mode> {
    let n = classes.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        let (wa, wb) = (
            classes.get(a as ClassId).weight,
            classes.get(b as ClassId).weight,
        );
        wb.total_cmp(&wa).then(a.cmp(&b))
    });
    let mut modes = vec![Mode::Sequential; n];
    for &c in &order {
        let free = !classes.conflicts(c as ClassId, c as ClassId)
            && (0..n).all(|k| {
                modes[k] == Mode::Sequential || !classes.conflicts(c as ClassId, k as ClassId)
            });
        if free {
            modes[c] = Mode::Concurrent;
        }
    }
    modes
}

/// Step 2: proportional split of the threads among the concurrent classes.
fn split_threads(classes: &ClassTable, conc: &[usize], threads: usize, sets: &mut [Vec<usize>]) {
    if conc.is_empty() {
        return;
    }
    if conc.len() >= threads {
        for (k, &c) in conc.iter().enumerate() {
            sets[c] = vec![k % threads];
        }
        return;
    }
    let counts = proportional_counts(
        &conc
            .iter()
            .map(|&c| classes.get(c as ClassId).weight)
            .collect::<Vec<_>>(),
        threads,
    );
    let mut next = 0;
    for (&c, &k) in conc.iter().zip(&counts) {
        sets[c] = (next..next + k).collect();
        next += k;
    }
}

/// Split `total` units among `weights.len() <= total` parties, at least one
/// each, the rest by largest remainder of the proportional share. Zero or
/// non-finite weights count as equal weights. The counts sum to `total`.
pub(crate) fn proportional_counts(weights: &[f64], total: usize) -> Vec<usize> {
    let k = weights.len();
    debug_assert!(k >= 1 && k <= total);
    let clean: Vec<f64> = weights
        .iter()
        .map(|w| if w.is_finite() && *w > 0.0 { *w } else { 0.0 })
        .collect();
    let sum: f64 = clean.iter().sum();
    let share: Vec<f64> = if sum > 0.0 {
        clean.iter().map(|w| w / sum * total as f64).collect()
    } else {
        vec![total as f64 / k as f64; k]
    };
    let mut counts: Vec<usize> = share.iter().map(|s| (s.floor() as usize).max(1)).collect();
    // Too many after the "at least one" floor: take from the largest counts
    // whose share exceeds them least.
    while counts.iter().sum::<usize>() > total {
        let i = (0..k)
            .filter(|&i| counts[i] > 1)
            .min_by(|&a, &b| {
                (share[a] - counts[a] as f64)
                    .total_cmp(&(share[b] - counts[b] as f64))
                    .then(a.cmp(&b))
            })
            .expect("k <= total leaves a count above one");
        counts[i] -= 1;
    }
    while counts.iter().sum::<usize>() < total {
        let i = (0..k)
            .max_by(|&a, &b| {
                (share[a] - counts[a] as f64)
                    .total_cmp(&(share[b] - counts[b] as f64))
                    .then(b.cmp(&a))
            })
            .expect("k >= 1");
        counts[i] += 1;
    }
    counts
}

/// Step 3b: make conflicting sequential classes share a thread (R.5).
fn connect_sequential(classes: &ClassTable, modes: &[Mode], sets: &mut [Vec<usize>]) {
    let n = classes.len();
    for a in 0..n {
        for b in a + 1..n {
            let both_seq = modes[a] == Mode::Sequential && modes[b] == Mode::Sequential;
            if both_seq
                && classes.conflicts(a as ClassId, b as ClassId)
                && !sets[a].iter().any(|t| sets[b].contains(t))
            {
                let t = sets[a][0];
                sets[b].push(t);
                normalize(&mut sets[b]);
            }
        }
    }
}

fn normalize(v: &mut Vec<usize>) {
    v.sort_unstable();
    v.dedup();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{random_tables, sharded_with_mix};

    #[test]
    fn proportional_counts_sum_and_floor() {
        assert_eq!(proportional_counts(&[0.4, 0.4, 0.04], 4), vec![2, 1, 1]);
        assert_eq!(proportional_counts(&[1.0, 1.0], 8), vec![4, 4]);
        assert_eq!(proportional_counts(&[0.0, 0.0, 0.0], 3), vec![1, 1, 1]);
        assert_eq!(proportional_counts(&[3.0, 1.0], 4), vec![3, 1]);
        assert_eq!(proportional_counts(&[100.0, 1.0, 1.0], 3), vec![1, 1, 1]);
    }

    #[test]
    fn naive_two_shards_reads_concurrent_writes_share_threads() {
        let t = sharded_with_mix(2, 0.85, 0.05, &[0.5, 0.5], &[0.5, 0.5]);
        let m = naive(&t, 4);
        assert_eq!(m.validate(&t), Ok(()));
        let (r1, w1, r2, w2, rg, wg) = (0, 1, 2, 3, 4, 5);
        for r in [r1, r2, rg] {
            assert_eq!(m.mode(r), Mode::Concurrent);
        }
        for w in [w1, w2, wg] {
            assert_eq!(m.mode(w), Mode::Sequential);
        }
        assert_eq!(m.threads_of(wg), &[0, 1, 2, 3]);
        // The paper's point: local writes of different shards share a thread.
        assert!(m
            .threads_of(w1)
            .iter()
            .any(|t| m.threads_of(w2).contains(t)));
    }

    #[test]
    fn naive_is_valid_on_random_tables() {
        for (t, threads) in random_tables(300, 7, 6) {
            let m = naive(&t, threads);
            assert_eq!(m.validate(&t), Ok(()), "{t:?} on {threads} threads: {m:?}");
        }
    }
}
