//! Class tables for the tests of this crate (compiled only for tests).

use psmr_core::workload::SplitMix64;
use psmr_core::ClassTable;

/// A table with an explicit conflict relation and weights. Tables built from
/// read and write sets cannot express every relation (a writer always
/// conflicts with itself), so tests that need, for example, two classes that
/// conflict only with each other build the table from JSON.
pub(crate) fn custom_table(
    names: &[&str],
    conflicts: &[(usize, usize)],
    weights: &[f64],
) -> ClassTable {
    let n = names.len();
    let mut matrix = vec![false; n * n];
    for &(a, b) in conflicts {
        matrix[a * n + b] = true;
        matrix[b * n + a] = true;
    }
    let classes: Vec<_> = names
        .iter()
        .zip(weights)
        .map(|(nm, w)| {
            serde_json::json!({
                "name": nm,
                "footprint": [],
                "weight": w,
                "shard": null,
                "write": false,
            })
        })
        .collect();
    serde_json::from_value(serde_json::json!({"classes": classes, "conflicts": matrix}))
        .expect("class table json")
}

/// The sharded table of paper 003 Fig. 1(c) with the weights of a workload
/// mix: a fraction `reads` of requests are reads (the rest writes), a
/// fraction `global` of each kind spans all shards, and the local reads
/// (writes) are split among the shards by `read_split` (`write_split`).
pub(crate) fn sharded_with_mix(
    shards: usize,
    reads: f64,
    global: f64,
    read_split: &[f64],
    write_split: &[f64],
) -> ClassTable {
    let mut t = ClassTable::sharded(shards);
    let writes = 1.0 - reads;
    let mut w = vec![0.0; 2 * shards + 2];
    for i in 0..shards {
        w[2 * i] = reads * (1.0 - global) * read_split[i];
        w[2 * i + 1] = writes * (1.0 - global) * write_split[i];
    }
    w[2 * shards] = reads * global;
    w[2 * shards + 1] = writes * global;
    t.set_weights(&w);
    t
}

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
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
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
            (custom_table(&refs, &pairs, &weights), threads)
        })
        .collect()
}
