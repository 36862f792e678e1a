//! Seeded instance families for the optimizer's quality regression test
//! (`optimizer_tests.rs`) and its benchmark against an independent MILP
//! (`scripts/bench-optimizer.sh`, `examples/optimizer_bench.rs`, which
//! includes this file by path so both use the very same instances).
//!
//! Every family is generated from fixed seeds with the project's
//! SplitMix64, so the same list comes out natively, in tests and in the
//! benchmark. Weights are always positive here: the independent MILP then
//! need not model the "no weight at all" fallback of the optimizer.

use psmr_core::workload::SplitMix64;
use psmr_core::ClassTable;

/// One optimizer input: a class table and a thread count.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Unique, stable name (used as a file name and in the test messages).
    pub name: String,
    pub table: ClassTable,
    pub threads: usize,
}

/// A table with an explicit conflict relation (`(a, a)` is an internal
/// conflict) and weights; tables built from read and write sets cannot
/// express every relation, so this goes through the table's JSON form.
pub fn custom_table(
    names: &[impl AsRef<str>],
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
                "name": nm.as_ref(),
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

/// The sharded table of paper 003 Fig. 1(c) weighted by a workload mix: a
/// share `reads` of requests read (the rest write), a share `global` of each
/// kind spans every shard, and the local reads (writes) are split among the
/// shards by `read_split` (`write_split`).
pub fn sharded_with_mix(
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

/// A split of local requests over `shards` with `hot_share` on shard 0 and
/// the rest even (the workload generator's `skewed` skew).
fn hot_split(shards: usize, hot_share: f64) -> Vec<f64> {
    if shards == 1 {
        return vec![1.0];
    }
    let mut v = vec![(1.0 - hot_share) / (shards - 1) as f64; shards];
    v[0] = hot_share;
    v
}

/// The five weightings of sharded tables used by the families: the shipped
/// balanced and skewed scenarios (5 % writes, 1 % global; skewed sends 70 %
/// of local requests to shard 1) and workloads 1-3 of paper 003 section 6.5
/// (85 % reads, 5 % global; 50/50, 67/33, writes 67/33 with reads 33/67),
/// extended to more shards by giving the first shard the first share and
/// spreading the rest evenly.
pub fn sharded_mix(shards: usize, mix: &str) -> ClassTable {
    let even = vec![1.0 / shards as f64; shards];
    match mix {
        "balanced" => sharded_with_mix(shards, 0.95, 0.01, &even, &even),
        "skewed" => {
            let s = hot_split(shards, 0.7);
            sharded_with_mix(shards, 0.95, 0.01, &s, &s)
        }
        "w1" => sharded_with_mix(shards, 0.85, 0.05, &even, &even),
        "w2" => {
            let s = hot_split(shards, 0.67);
            sharded_with_mix(shards, 0.85, 0.05, &s, &s)
        }
        "w3" => sharded_with_mix(
            shards,
            0.85,
            0.05,
            &hot_split(shards, 0.33),
            &hot_split(shards, 0.67),
        ),
        other => panic!("unknown mix {other}"),
    }
}

/// The mixes of [`sharded_mix`].
pub const MIXES: [&str; 5] = ["balanced", "skewed", "w1", "w2", "w3"];

/// How a random table's weights are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weights {
    /// Every class weighs the same.
    Equal,
    /// Independent draws from [0.05, 1).
    Uniform,
}

/// A random class table: `n` classes `C0..`, each unordered pair of distinct
/// classes conflicting with probability `density`, each class conflicting
/// with itself with probability `self_density`.
pub fn random_table(
    rng: &mut SplitMix64,
    n: usize,
    density: f64,
    self_density: f64,
    weights: Weights,
) -> ClassTable {
    let names: Vec<String> = (0..n).map(|i| format!("C{i}")).collect();
    let mut pairs = Vec::new();
    for a in 0..n {
        if rng.unit() < self_density {
            pairs.push((a, a));
        }
        for b in a + 1..n {
            if rng.unit() < density {
                pairs.push((a, b));
            }
        }
    }
    let w: Vec<f64> = (0..n)
        .map(|_| match weights {
            Weights::Equal => 1.0,
            Weights::Uniform => 0.05 + 0.95 * rng.unit(),
        })
        .collect();
    custom_table(&names, &pairs, &w)
}

/// The 60-instance comparison family of issue 20: 30 sharded tables (2, 4
/// and 8 shards, each of the five [`MIXES`], two seeded thread counts in
/// 2..=16) and 30 random class graphs (3-10 classes, density 0.2-0.9,
/// 2-16 threads, equal or uniform weights).
pub fn comparison_family() -> Vec<Instance> {
    let mut rng = SplitMix64::new(0x0020_c0de_0001);
    let mut out = Vec::new();
    for shards in [2usize, 4, 8] {
        for mix in MIXES {
            let a = 2 + rng.below(15) as usize;
            let mut b = 2 + rng.below(15) as usize;
            if b == a {
                b = if a == 16 { 2 } else { a + 1 };
            }
            for threads in [a.min(b), a.max(b)] {
                out.push(Instance {
                    name: format!("sharded-{shards}-{mix}-t{threads}"),
                    table: sharded_mix(shards, mix),
                    threads,
                });
            }
        }
    }
    for k in 0..30 {
        let n = 3 + rng.below(8) as usize;
        let density = 0.2 + 0.7 * rng.unit();
        let equal = rng.below(2) == 0;
        let threads = 2 + rng.below(15) as usize;
        let shape = (n, density, equal);
        out.push(random_instance(&mut rng, "random", k, shape, threads));
    }
    out
}

/// Instance `k` of a random family: `n` classes conflicting at `density`
/// (each with itself at 0.3), equal or uniform weights, on `threads`,
/// named `{family}-{k}-n{n}-t{threads}`. The caller draws the shape first,
/// so each family's draws stay in their order.
fn random_instance(
    rng: &mut SplitMix64,
    family: &str,
    k: usize,
    (n, density, equal): (usize, f64, bool),
    threads: usize,
) -> Instance {
    let weights = if equal {
        Weights::Equal
    } else {
        Weights::Uniform
    };
    Instance {
        name: format!("{family}-{k:02}-n{n}-t{threads}"),
        table: random_table(rng, n, density, 0.3, weights),
        threads,
    }
}

/// The hard shapes of issue 20: 8 skewed shards (the shipped skewed
/// weights and workload 2's split) on 6, 10 and 12 threads, and dense
/// random conflict graphs (7-10 classes, density 0.6-0.9, equal or uniform
/// weights) on 7-14 threads.
pub fn hard_family() -> Vec<Instance> {
    let mut out = Vec::new();
    for mix in ["skewed", "w2"] {
        for threads in [6, 10, 12] {
            out.push(Instance {
                name: format!("sharded-8-{mix}-t{threads}"),
                table: sharded_mix(8, mix),
                threads,
            });
        }
    }
    let mut rng = SplitMix64::new(0x0020_c0de_0002);
    for k in 0..12 {
        let n = 7 + rng.below(4) as usize;
        let density = 0.6 + 0.3 * rng.unit();
        let threads = 7 + rng.below(8) as usize;
        out.push(random_instance(
            &mut rng,
            "dense",
            k,
            (n, density, k % 2 == 0),
            threads,
        ));
    }
    out
}

/// Issue 30's reproducer: `A` and `B` independent, `D` conflicting with
/// both, `S0`-`S3` conflicting with themselves and with every class, equal
/// weights (or `A`, `B` at 0.13 and the rest at 0.15 when `skewed`), on 16
/// threads. The optimum (HiGHS on the independent MILP, and by hand: `A`
/// and `B` concurrent on one shared thread, every other class sequential
/// on it) has O.3 0 and cost 3/7 + 7/8 with equal weights.
pub fn issue30_reproducer(skewed: bool) -> Instance {
    let names: Vec<String> = ["A", "B", "D", "S0", "S1", "S2", "S3"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut pairs = vec![(0, 2), (1, 2)];
    for s in 3..7 {
        pairs.push((s, s));
        for other in 0..7 {
            if other != s {
                pairs.push((s, other));
            }
        }
    }
    let w: Vec<f64> = if skewed {
        vec![0.13, 0.13, 0.15, 0.15, 0.15, 0.15, 0.15]
    } else {
        vec![1.0; 7]
    };
    Instance {
        name: format!("issue30-{}-t16", if skewed { "skewed" } else { "equal" }),
        table: custom_table(&names, &pairs, &w),
        threads: 16,
    }
}

/// The shapes [`fresh_instance`] draws from.
pub const FRESH_SHAPES: [&str; 4] = ["sharded", "skewed", "dense", "random"];

/// One instance drawn at random, for tests and benchmarks on instances
/// nobody tuned the optimizer on (issue 30). `k` only names it. Classes:
/// 3..=`max_classes` (at least 4 for sharded tables, which have `2 s + 2`
/// classes for `s` shards); threads: 2..=`max_threads`. Shapes, equally
/// likely:
/// - `sharded`: 003 Fig. 1(c) with even local splits, a share of reads in
///   [0.5, 0.99) and of global requests in [0.01, 0.1);
/// - `skewed`: the same with a hot first shard taking [0.5, 0.9) of the
///   local requests (reads and writes drawn separately);
/// - `dense`: a random conflict graph of density [0.75, 0.98);
/// - `random`: density [0.1, 0.9).
///
/// Random graphs have internal conflicts with probability 0.3 and equal or
/// uniform weights (equal weights make ties, which issue 30's reproducer
/// needs).
pub fn fresh_instance(
    rng: &mut SplitMix64,
    k: usize,
    max_classes: usize,
    max_threads: usize,
) -> Instance {
    let shape = FRESH_SHAPES[rng.below(FRESH_SHAPES.len() as u64) as usize];
    let threads = 2 + rng.below(max_threads.max(2) as u64 - 1) as usize;
    let table = match shape {
        "sharded" | "skewed" => {
            let shards = 1 + rng.below(((max_classes.max(4) - 2) / 2) as u64) as usize;
            let reads = 0.5 + 0.49 * rng.unit();
            let global = 0.01 + 0.09 * rng.unit();
            if shape == "sharded" {
                let even = vec![1.0 / shards as f64; shards];
                sharded_with_mix(shards, reads, global, &even, &even)
            } else {
                let r = hot_split(shards, 0.5 + 0.4 * rng.unit());
                let w = hot_split(shards, 0.5 + 0.4 * rng.unit());
                sharded_with_mix(shards, reads, global, &r, &w)
            }
        }
        _ => {
            let n = 3 + rng.below(max_classes.max(3) as u64 - 2) as usize;
            let density = if shape == "dense" {
                0.75 + 0.23 * rng.unit()
            } else {
                0.1 + 0.8 * rng.unit()
            };
            let weights = if rng.below(2) == 0 {
                Weights::Equal
            } else {
                Weights::Uniform
            };
            random_table(rng, n, density, 0.3, weights)
        }
    };
    Instance {
        name: format!("fresh-{k:02}-{shape}-n{}-t{threads}", table.len()),
        table,
        threads,
    }
}

/// `count` instances of [`fresh_instance`] from `seed`, keeping those
/// `accept` takes (callers reject the tables the exact optimizer refuses:
/// more than `MAX_MODE_VECTORS` mode vectors).
pub fn fresh_family(
    seed: u64,
    count: usize,
    max_classes: usize,
    max_threads: usize,
    accept: impl Fn(&ClassTable, usize) -> bool,
) -> Vec<Instance> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let inst = fresh_instance(&mut rng, out.len(), max_classes, max_threads);
        if accept(&inst.table, inst.threads) {
            out.push(inst);
        }
    }
    out
}
