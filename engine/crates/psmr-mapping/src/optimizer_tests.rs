//! Tests of the optimizer: exhaustive enumeration on small instances and
//! the mappings of paper 003 section 6.5 / paper 000 Table 1.

use crate::instances::{comparison_family, hard_family};
use crate::optimizer::{
    evaluate, optimize_with, optimize_with_node_limit, Options, Reading, Value,
};
use crate::testing::{random_tables, sharded_with_mix};
use crate::{ClassMapping, CtoT, Mode};
use psmr_core::ClassTable;

const READINGS: [Reading; 3] = [Reading::AllClasses, Reading::PerMode, Reading::ScaledCounts];

fn opts(reading: Reading) -> Options {
    Options {
        time_limit_s: 60.0,
        reading,
    }
}

/// Workloads 1-3 of paper 003 section 6.5 on 2 shards: 85 % reads, 15 %
/// writes, 5 % of each global; local requests split between the shards
/// evenly (1), 67/33 (2), or writes 67/33 and reads 33/67 (3).
fn workload(n: u8) -> ClassTable {
    match n {
        1 => sharded_with_mix(2, 0.85, 0.05, &[0.5, 0.5], &[0.5, 0.5]),
        2 => sharded_with_mix(2, 0.85, 0.05, &[0.67, 0.33], &[0.67, 0.33]),
        3 => sharded_with_mix(2, 0.85, 0.05, &[0.33, 0.67], &[0.67, 0.33]),
        _ => unreachable!(),
    }
}

fn show(m: &CtoT, t: &ClassTable) -> String {
    m.classes
        .iter()
        .zip(t.classes())
        .map(|(cm, c)| {
            let mode = if cm.mode == Mode::Concurrent {
                "conc"
            } else {
                "seq"
            };
            format!("{}={mode}{:?}", c.name, cm.threads)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every valid mapping of `t` onto `threads` threads, enumerated without any
/// symmetry breaking or bounding: modes and thread sets class by class, with
/// the pairwise rules checked as soon as both classes are set. Returns the
/// least objective value and how many valid mappings there are.
fn exhaustive_best(t: &ClassTable, threads: usize, reading: Reading) -> (Value, u64) {
    let n = t.len();
    let mut cur = CtoT {
        threads,
        classes: vec![
            ClassMapping {
                mode: Mode::Sequential,
                threads: vec![],
            };
            n
        ],
    };
    let mut masks = vec![0u32; n];
    let mut best = Value {
        o3: u32::MAX,
        cost: f64::INFINITY,
    };
    let mut count = 0;
    enumerate(t, reading, 0, &mut cur, &mut masks, &mut best, &mut count);
    (best, count)
}

fn enumerate(
    t: &ClassTable,
    reading: Reading,
    c: usize,
    cur: &mut CtoT,
    masks: &mut [u32],
    best: &mut Value,
    count: &mut u64,
) {
    let n = t.len();
    if c == n {
        *count += 1;
        let v = evaluate(cur, t, reading).value();
        if v.cmp_lex(best) == std::cmp::Ordering::Less {
            *best = v;
        }
        return;
    }
    let full = (1u32 << cur.threads) - 1;
    for mode in [Mode::Sequential, Mode::Concurrent] {
        if mode == Mode::Concurrent && t.conflicts(c as u16, c as u16) {
            continue; // R.2
        }
        for mask in 1..=full {
            // R.1 by construction (mask != 0); R.3-R.5 against earlier classes.
            let ok = (0..c).all(|e| {
                if !t.conflicts(c as u16, e as u16) {
                    return true;
                }
                match (mode, cur.classes[e].mode) {
                    (Mode::Concurrent, Mode::Concurrent) => false,
                    (Mode::Concurrent, Mode::Sequential) => mask & !masks[e] == 0,
                    (Mode::Sequential, Mode::Concurrent) => masks[e] & !mask == 0,
                    (Mode::Sequential, Mode::Sequential) => mask & masks[e] != 0,
                }
            });
            if !ok {
                continue;
            }
            masks[c] = mask;
            cur.classes[c] = ClassMapping {
                mode,
                threads: (0..cur.threads).filter(|th| mask & 1 << th != 0).collect(),
            };
            enumerate(t, reading, c + 1, cur, masks, best, count);
        }
    }
}

fn assert_same_value(a: &Value, b: &Value, what: &str) {
    assert_eq!(a.o3, b.o3, "O.3 differs: {what}");
    assert!(
        (a.cost - b.cost).abs() < 1e-9,
        "cost differs {a:?} vs {b:?}: {what}"
    );
}

/// Random table `k` of `tables` (threads with it): solved under the
/// `k`th reading in turn, the optimizer's mapping is proved optimal,
/// satisfies R.1-R.5, and its value equals the exhaustive optimum and is
/// the value of the mapping it returns.
fn check_random_table(k: usize, t: &ClassTable, threads: usize) {
    let reading = READINGS[k % READINGS.len()];
    let (brute, count) = exhaustive_best(t, threads, reading);
    let s = optimize_with(t, threads, &opts(reading)).unwrap();
    let what = format!("#{k} {reading:?} {threads} threads, {count} mappings, {t:?}");
    assert!(s.optimal, "{what}");
    assert_eq!(s.ctot.validate(t), Ok(()), "{what}");
    assert_same_value(&s.value, &brute, &what);
    assert_same_value(&evaluate(&s.ctot, t, reading).value(), &s.value, &what);
}

/// The optimizer's value equals the exhaustive optimum on random tables of
/// up to 5 classes and 4 threads (random conflict relations, self conflicts
/// and weights, some weights zero), for every reading.
#[test]
fn optimizer_matches_exhaustive_enumeration() {
    let mut compared = 0;
    // Bound the brute force's size in debug builds: at most 15^5 thread sets.
    for (k, (t, threads)) in random_tables(40, 5, 4).into_iter().enumerate() {
        check_random_table(k, &t, threads);
        compared += 1;
    }
    assert_eq!(compared, 40);
}

/// The same comparison on many more tables (slow in debug builds). Run with
/// `cargo test --release -p psmr-mapping exhaustive_many -- --ignored`.
#[test]
#[ignore]
fn optimizer_matches_exhaustive_enumeration_many() {
    for (k, (t, threads)) in random_tables(1500, 5, 4).into_iter().enumerate() {
        check_random_table(k, &t, threads);
    }
}

/// The sharded tables too: 1 shard (4 classes) up to 4 threads and 2 shards
/// (6 classes) up to 3 threads, workloads 1-3.
#[test]
fn optimizer_matches_exhaustive_on_sharded_tables() {
    for w in 1..=3 {
        for reading in READINGS {
            let one = sharded_with_mix(1, 0.85, 0.05, &[1.0], &[1.0]);
            for threads in 1..=4 {
                let (brute, _) = exhaustive_best(&one, threads, reading);
                let s = optimize_with(&one, threads, &opts(reading)).unwrap();
                assert_same_value(&s.value, &brute, &format!("1 shard {threads} {reading:?}"));
            }
            let two = workload(w);
            for threads in 1..=3 {
                let (brute, _) = exhaustive_best(&two, threads, reading);
                let s = optimize_with(&two, threads, &opts(reading)).unwrap();
                assert_same_value(&s.value, &brute, &format!("w{w} {threads} {reading:?}"));
            }
        }
    }
}

/// Every optimizer result satisfies R.1-R.5, on larger random tables too.
#[test]
fn optimizer_results_pass_the_rules() {
    for (t, threads) in random_tables(100, 7, 6) {
        let s = optimize_with(&t, threads, &opts(Reading::AllClasses)).unwrap();
        assert_eq!(s.ctot.validate(&t), Ok(()), "{t:?}");
        assert_eq!(s.ctot.threads, threads);
    }
}

/// Paper 000 Table 1 (class order R1 W1 R2 W2 Rg Wg).
fn table1() -> CtoT {
    let m = |mode, threads: &[usize]| ClassMapping {
        mode,
        threads: threads.to_vec(),
    };
    use Mode::{Concurrent as C, Sequential as S};
    CtoT {
        threads: 4,
        classes: vec![
            m(C, &[0, 2]),
            m(S, &[0, 2]),
            m(C, &[1, 3]),
            m(S, &[1, 3]),
            m(S, &[0, 3]),
            m(S, &[0, 1, 2, 3]),
        ],
    }
}

fn disjoint(a: &[usize], b: &[usize]) -> bool {
    !a.iter().any(|t| b.contains(t))
}

/// The structure paper 003 section 6.5 reports for 2 shards (and 000
/// Table 1 shows): local reads concurrent, each local write sequential on
/// exactly its read class's threads, the two shards on disjoint threads,
/// global writes on every thread, global reads sequential on one thread of
/// each shard, no O.3 penalty. Returns the local read thread counts.
fn assert_paper_structure(m: &CtoT, t: &ClassTable, o3: u32) -> (usize, usize) {
    let (r1, w1, r2, w2, rg, wg) = (0, 1, 2, 3, 4, 5);
    let all: Vec<usize> = (0..m.threads).collect();
    let ctx = show(m, t);
    assert_eq!(o3, 0, "{ctx}");
    assert_eq!(m.mode(r1), Mode::Concurrent, "{ctx}");
    assert_eq!(m.mode(r2), Mode::Concurrent, "{ctx}");
    for c in [w1, w2, rg, wg] {
        assert_eq!(m.mode(c), Mode::Sequential, "{ctx}");
    }
    assert_eq!(m.threads_of(w1), m.threads_of(r1), "{ctx}");
    assert_eq!(m.threads_of(w2), m.threads_of(r2), "{ctx}");
    assert!(disjoint(m.threads_of(w1), m.threads_of(w2)), "{ctx}");
    assert_eq!(m.threads_of(wg), all.as_slice(), "{ctx}");
    let g = m.threads_of(rg);
    assert_eq!(g.len(), 2, "{ctx}");
    assert_eq!(
        g.iter().filter(|x| m.threads_of(w1).contains(x)).count(),
        1,
        "{ctx}"
    );
    assert_eq!(
        g.iter().filter(|x| m.threads_of(w2).contains(x)).count(),
        1,
        "{ctx}"
    );
    (m.threads_of(r1).len(), m.threads_of(r2).len())
}

#[test]
fn paper_workloads_on_4_threads_give_the_papers_mapping() {
    // Read threads in proportion to the local read weights: 50/50, 67/33, 33/67.
    for (w, expect) in [(1, (2, 2)), (2, (3, 1)), (3, (1, 3))] {
        let t = workload(w);
        let s = optimize_with(&t, 4, &Options::default()).unwrap();
        assert!(s.optimal);
        assert_eq!(s.ctot.validate(&t), Ok(()));
        let got = assert_paper_structure(&s.ctot, &t, s.value.o3);
        assert_eq!(got, expect, "workload {w}: {}", show(&s.ctot, &t));
    }
}

/// On 8 threads the structure holds and the shard with more local reads
/// gets at least as many threads. The exact split is not pinned: the O.1b
/// reward and the O.1a cost of the local write class (whose threads follow
/// the reads') tilt it away from the pure read share, e.g. 1/7 for
/// workload 3, where shard 1 has few reads but most writes.
#[test]
fn paper_workloads_on_8_threads_keep_the_structure() {
    for (w, share1) in [(1, 0.5), (2, 0.67), (3, 0.33)] {
        let t = workload(w);
        let s = optimize_with(&t, 8, &Options::default()).unwrap();
        assert!(s.optimal);
        let (x1, x2) = assert_paper_structure(&s.ctot, &t, s.value.o3);
        assert_eq!(x1 + x2, 8);
        let ok = if share1 > 0.5 {
            x1 > x2
        } else if share1 < 0.5 {
            x1 < x2
        } else {
            x1 == x2
        };
        assert!(ok, "workload {w}: {}", show(&s.ctot, &t));
    }
}

#[test]
fn table_1_is_an_optimum_for_workload_1() {
    let t = workload(1);
    assert_eq!(table1().validate(&t), Ok(()));
    let s = optimize_with(&t, 4, &Options::default()).unwrap();
    let v = evaluate(&table1(), &t, Reading::AllClasses).value();
    assert_same_value(&v, &s.value, "Table 1 vs optimizer");
}

/// The reading matters: with O.1 weights normalised within each mode and
/// unscaled thread counts, making one local read class sequential scores
/// better, so workloads 1 and 2 do not give the papers' mapping (see
/// docs/mapping-optimizer.md). The scaled reading agrees with the default.
#[test]
fn per_mode_reading_departs_from_the_paper_on_workloads_1_and_2() {
    for w in [1, 2] {
        let t = workload(w);
        let s = optimize_with(&t, 4, &opts(Reading::PerMode)).unwrap();
        let seq_reads = [0, 2]
            .iter()
            .filter(|&&r| s.ctot.mode(r) == Mode::Sequential)
            .count();
        assert_eq!(seq_reads, 1, "workload {w}: {}", show(&s.ctot, &t));
        let scaled = optimize_with(&t, 4, &opts(Reading::ScaledCounts)).unwrap();
        assert_paper_structure(&scaled.ctot, &t, scaled.value.o3);
    }
}

/// No weights at all: equal weights, and a valid optimal mapping.
#[test]
fn zero_weights_mean_equal_weights() {
    let t = ClassTable::sharded(2);
    let s = optimize_with(&t, 4, &Options::default()).unwrap();
    assert!(s.optimal);
    assert_paper_structure(&s.ctot, &t, s.value.o3);
}

/// A time limit far below what an instance needs (8 shards on 4 threads
/// takes longer than 10 s) stops the search with a valid mapping, no worse
/// than the naive one, a bound no higher than its value and a gap
/// above 0 (at most 1 when it is on O.3); `resolve` reports it in `how`.
#[test]
fn time_limit_returns_best_found_with_gap() {
    let t = sharded_with_mix(8, 0.85, 0.05, &[0.125; 8], &[0.125; 8]);
    let limit = Options {
        time_limit_s: 0.05,
        reading: Reading::AllClasses,
    };
    let s = optimize_with(&t, 4, &limit).unwrap();
    assert!(!s.optimal);
    assert_eq!(s.ctot.validate(&t), Ok(()));
    assert_ne!(s.bound.cmp_lex(&s.value), std::cmp::Ordering::Greater);
    // A gap on O.3 is at most 1; a gap on the cost (once O.3 is proven) is
    // relative to a cost that may be small, so it has no upper limit.
    assert!(s.gap > 0.0, "{s:?}");
    assert!(s.bound.o3 == s.value.o3 || s.gap <= 1.0, "{s:?}");
    let naive = evaluate(&crate::naive::naive(&t, 4), &t, Reading::AllClasses).value();
    assert_ne!(s.value.cmp_lex(&naive), std::cmp::Ordering::Greater);
    let r = crate::resolve(&crate::MappingSpec::Optimized { time_limit_s: 0.05 }, &t, 4).unwrap();
    assert!(r.how.contains("time limit"), "{}", r.how);
    assert!(r.gap.unwrap() > 0.0);
}

/// Timing report (not a test of speed): solve times of the default model
/// for the balanced workload extrapolated to 2, 4 and 8 shards (paper 003
/// section 6.6), 2..=32 threads, 10 s limit. Run with
/// `cargo test --release -p psmr-mapping timing_report -- --ignored --nocapture`.
#[test]
#[ignore]
fn timing_report() {
    println!("| shards | classes | threads | result | O.3 | cost | gap | nodes | time (ms) | naive O.3 | naive cost |");
    println!("|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|");
    for shards in [2usize, 4, 8] {
        let even = vec![1.0 / shards as f64; shards];
        let t = sharded_with_mix(shards, 0.85, 0.05, &even, &even);
        for threads in [2, 3, 4, 6, 8, 12, 16, 24, 32] {
            let s = optimize_with(&t, threads, &Options::default()).unwrap();
            assert_eq!(s.ctot.validate(&t), Ok(()));
            let naive =
                evaluate(&crate::naive::naive(&t, threads), &t, Reading::AllClasses).value();
            println!(
                "| {shards} | {} | {threads} | {} | {} | {:.4} | {:.1}% | {} | {:.1} | {} | {:.4} |",
                t.len(),
                if s.optimal { "optimal" } else { "time limit" },
                s.value.o3,
                s.value.cost,
                s.gap * 100.0,
                s.nodes,
                s.solve_ms,
                naive.o3,
                naive.cost
            );
        }
    }
}

/// The least O.3 of each instance of `instances::hard_family()`. Zero is
/// the least O.3 there is. The two 6-thread instances have optimum 2:
/// HiGHS proves it on the independent MILP (`scripts/bench-optimizer.sh`,
/// proof step; the record is in `docs/benchmarks/optimizer.md`), and so
/// does the optimizer's own requirement bound (8 global-read/local-write
/// pairs that pairwise cannot share a thread, on 6 threads).
const HARD_O3_OPTIMA: [(&str, u32); 18] = [
    ("sharded-8-skewed-t6", 2),
    ("sharded-8-skewed-t10", 0),
    ("sharded-8-skewed-t12", 0),
    ("sharded-8-w2-t6", 2),
    ("sharded-8-w2-t10", 0),
    ("sharded-8-w2-t12", 0),
    ("dense-00-n7-t12", 0),
    ("dense-01-n8-t12", 0),
    ("dense-02-n10-t14", 0),
    ("dense-03-n7-t12", 0),
    ("dense-04-n10-t14", 0),
    ("dense-05-n7-t11", 0),
    ("dense-06-n10-t8", 0),
    ("dense-07-n8-t8", 0),
    ("dense-08-n10-t13", 0),
    ("dense-09-n9-t10", 0),
    ("dense-10-n9-t14", 0),
    ("dense-11-n10-t13", 0),
];

/// Search nodes allowed per hard instance: deterministic, unlike a clock.
const HARD_NODE_BUDGET: u64 = 10_000;

/// Quality regression on the hard shapes of issue 20: within a fixed node
/// budget (and a time limit too long to matter) the optimizer reaches the
/// optimal O.3 of every instance, returns a valid mapping scored as
/// `evaluate` scores it, and never claims a bound above the optimum.
/// Before the local search and the requirement bound, 14 of these 18
/// stopped at a 10 s limit above the optimal O.3 (28-30 for the sharded
/// ones, 3-13 for the dense ones).
#[test]
fn hard_instances_reach_the_optimal_o3_within_a_node_budget() {
    let family = hard_family();
    assert_eq!(family.len(), HARD_O3_OPTIMA.len());
    let opts = Options {
        time_limit_s: 600.0,
        reading: Reading::AllClasses,
    };
    for (inst, (name, optimum)) in family.iter().zip(HARD_O3_OPTIMA) {
        assert_eq!(inst.name, name, "the family changed: update the targets");
        let s =
            optimize_with_node_limit(&inst.table, inst.threads, &opts, HARD_NODE_BUDGET).unwrap();
        assert_eq!(s.ctot.validate(&inst.table), Ok(()), "{name}");
        let scored = evaluate(&s.ctot, &inst.table, Reading::AllClasses).value();
        assert_same_value(&scored, &s.value, name);
        assert_eq!(s.value.o3, optimum, "{name}: O.3 reached within the budget");
        assert!(s.bound.o3 <= optimum, "{name}: bound {:?}", s.bound);
    }
}

/// Report (not a test of speed): the optimizer on the comparison and hard
/// families at the default 10 s limit; `PSMR_BENCH_ONLY=TEXT` keeps the
/// instances whose name contains TEXT. The comparison with HiGHS is
/// `scripts/bench-optimizer.sh`. Run with
/// `cargo test --release -p psmr-mapping family_report -- --ignored --nocapture`.
#[test]
#[ignore]
fn family_report() {
    let only = std::env::var("PSMR_BENCH_ONLY").unwrap_or_default();
    for inst in comparison_family().into_iter().chain(hard_family()) {
        if !inst.name.contains(&only) {
            continue;
        }
        let s = optimize_with(&inst.table, inst.threads, &Options::default()).unwrap();
        assert_eq!(s.ctot.validate(&inst.table), Ok(()));
        println!(
            "{} O.3 {} cost {:.4} {} bound ({}, {:.4}) nodes {} {:.1} ms",
            inst.name,
            s.value.o3,
            s.value.cost,
            if s.optimal { "optimal" } else { "time limit" },
            s.bound.o3,
            s.bound.cost,
            s.nodes,
            s.solve_ms
        );
    }
}

/// Issue 30's reproducer (`instances::issue30_reproducer`): with equal
/// weights the two independent classes `A` and `B` must leave their
/// proportional thread sets and share one thread; the optimum (O.3 0, cost
/// 3/7 + 7/8, proven by HiGHS on the independent MILP) is reached and
/// proven within 1 s, as it is when unequal weights break the tie.
#[test]
fn issue30_reproducer_is_proven_optimal_within_a_second() {
    for skewed in [false, true] {
        let inst = crate::instances::issue30_reproducer(skewed);
        let limit = Options {
            time_limit_s: 1.0,
            reading: Reading::AllClasses,
        };
        let s = optimize_with(&inst.table, inst.threads, &limit).unwrap();
        assert_eq!(s.ctot.validate(&inst.table), Ok(()), "{}", inst.name);
        let scored = evaluate(&s.ctot, &inst.table, Reading::AllClasses).value();
        assert_same_value(&scored, &s.value, &inst.name);
        assert!(s.optimal, "{}: {s:?}", inst.name);
        if !skewed {
            let optimum = Value {
                o3: 0,
                cost: 3.0 / 7.0 + 7.0 / 8.0,
            };
            assert_same_value(&s.value, &optimum, &inst.name);
        }
    }
}
