//! Class tables for the tests of this crate (compiled only for tests).

use psmr_core::workload::SplitMix64;
use psmr_core::ClassTable;

/// Tables with an explicit conflict relation, and the weighted sharded
/// table of paper 003 Fig. 1(c): the benchmark instances' builders.
pub(crate) use crate::instances::{custom_table, sharded_with_mix};

/// `count` random tables of 1..=`max_classes` classes (random symmetric
/// conflict relation including self conflicts, random weights, some zero)
/// paired with a thread count in 1..=`max_threads`. Seeded, so reproducible.
pub(crate) fn random_tables(
    count: usize,
    max_classes: usize,
    max_threads: usize,
) -> Vec<(ClassTable, usize)> {
    let mut rng = SplitMix64::new(0x5eed_0003);
    (0..count)
        .map(|_| {
            let n = 1 + rng.below(max_classes as u64) as usize;
            let names: Vec<String> = (0..n).map(|i| format!("C{i}")).collect();
            let density = rng.unit();
            let mut pairs = Vec::new();
            for a in 0..n {
                for b in a..n {
                    if rng.unit() < density {
                        pairs.push((a, b));
                    }
                }
            }
            let weights: Vec<f64> = (0..n)
                .map(|_| if rng.below(5) == 0 { 0.0 } else { rng.unit() })
                .collect();
            let threads = 1 + rng.below(max_threads as u64) as usize;
            (custom_table(&names, &pairs, &weights), threads)
        })
        .collect()
}
