//! Benchmark helper for `scripts/bench-partitioner.sh` (not a test).
//!
//! ```text
//! cargo run --release -p psmr-partition --example bench_partition -- gen DIR
//! cargo run --release -p psmr-partition --example bench_partition -- run GRAPH K [SEED]
//! cargo run --release -p psmr-partition --example bench_partition -- eval GRAPH PARTFILE K
//! ```
//!
//! `gen` writes the benchmark graphs as METIS files into DIR (planted-partition
//! graphs and YCSB-E workload graphs: a vertex per key weighted by its
//! accesses, an edge per pair of keys one scan reads, weighted by how many
//! scans read the pair) and lists their names on stdout. `run` partitions a
//! graph file with this crate and prints `cut imbalance_permille time_ms`
//! (time of `partition` alone, file reading excluded). `eval` prints
//! `cut imbalance_permille` of a partition file (e.g. gpmetis's output),
//! computed by this crate so both sides are measured the same way.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use psmr_core::workload::SplitMix64;
use psmr_core::ycsb::{InsertOrder, Workload, YcsbConfig, YcsbGenerator, YcsbOp};
use psmr_partition::fixture::planted_partition;
use psmr_partition::metis_io::{read_graph, read_partition, write_graph};
use psmr_partition::{
    edge_cut, imbalance_permille, part_weights, partition, Graph, PartitionConfig,
};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("gen") if args.len() == 2 => generate(Path::new(&args[1])),
        Some("run") if (3..=4).contains(&args.len()) => run(&args[1], &args[2], args.get(3)),
        Some("eval") if args.len() == 4 => eval(&args[1], &args[2], &args[3]),
        _ => Err(
            "usage: bench_partition gen DIR | run GRAPH K [SEED] | eval GRAPH PARTFILE K".into(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench_partition: {e}");
            ExitCode::FAILURE
        }
    }
}

fn load(path: &str) -> Result<Graph, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    read_graph(&text).map_err(|e| format!("{path}:{e}"))
}

fn parse_k(k: &str) -> Result<u32, String> {
    k.parse()
        .map_err(|_| format!("K: a part count, found `{k}`"))
}

fn run(path: &str, k: &str, seed: Option<&String>) -> Result<(), String> {
    let g = load(path)?;
    let mut cfg = PartitionConfig::with_parts(parse_k(k)?);
    if let Some(s) = seed {
        cfg.seed = s
            .parse()
            .map_err(|_| format!("SEED: an integer, found `{s}`"))?;
    }
    let t0 = Instant::now();
    let p = partition(&g, &cfg).map_err(|e| e.to_string())?;
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    println!("{} {} {:.3}", p.cut, p.imbalance_permille(), ms);
    Ok(())
}

fn eval(path: &str, part_path: &str, k: &str) -> Result<(), String> {
    let g = load(path)?;
    let k = parse_k(k)?;
    let text = fs::read_to_string(part_path).map_err(|e| format!("{part_path}: {e}"))?;
    let part =
        read_partition(&text, g.vertex_count(), k).map_err(|e| format!("{part_path}:{e}"))?;
    println!(
        "{} {}",
        edge_cut(&g, &part),
        imbalance_permille(&part_weights(&g, &part, k))
    );
    Ok(())
}

fn generate(dir: &Path) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut graphs: Vec<(String, Graph)> = Vec::new();
    // Planted partitions: 8 groups; strong (6 inner / 1 outer draws per
    // vertex) and weak (4 / 2) communities, two sizes.
    for (name, blocks, size, inner, outer) in [
        ("planted-8x1000-strong", 8, 1000, 6, 1),
        ("planted-8x1000-weak", 8, 1000, 4, 2),
        ("planted-8x10000-strong", 8, 10_000, 6, 1),
        ("planted-8x10000-weak", 8, 10_000, 4, 2),
    ] {
        graphs.push((
            name.into(),
            planted_partition(blocks, size, inner, outer, 42).graph,
        ));
    }
    // YCSB-E workload graphs as paper 001 configures E (95 % scans of 2..=8
    // keys, 5 % updates), and YCSB's own E (scans of 1..=100 keys, 5 % inserts)
    // on a smaller stream: its 100-key scans make up to 4,950 pairs each.
    for (name, workload, records, ops) in [
        (
            "ycsb-e-paper-10k-keys-50k-ops",
            Workload::EPaper001,
            10_000u64,
            50_000u64,
        ),
        (
            "ycsb-e-paper-100k-keys-500k-ops",
            Workload::EPaper001,
            100_000,
            500_000,
        ),
        (
            "ycsb-e-paper-1m-keys-last-1k-ops",
            Workload::EPaper001,
            1_000_000,
            1_000,
        ),
        (
            "ycsb-e-ycsb-10k-keys-5k-ops",
            Workload::EYcsb,
            10_000,
            5_000,
        ),
    ] {
        graphs.push((name.into(), ycsb_graph(workload, records, ops)?));
    }
    for (name, g) in &graphs {
        let path = dir.join(format!("{name}.graph"));
        fs::write(&path, write_graph(g)).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("{name}");
    }
    Ok(())
}

/// The workload graph of a YCSB stream (paper 001 section 3): each key a
/// request reads or writes gains one unit of vertex weight, each pair of keys
/// of one scan one unit of edge weight. Only keys some request touched are
/// vertices, numbered in key order.
fn ycsb_graph(workload: Workload, records: u64, ops: u64) -> Result<Graph, String> {
    let cfg = YcsbConfig {
        record_count: records,
        operation_count: ops,
        insert_order: InsertOrder::Hashed,
        ..YcsbConfig::new(workload)
    };
    let mut gen = YcsbGenerator::new(cfg, SplitMix64::new(7)).map_err(|e| e.to_string())?;
    let mut access: BTreeMap<u64, u64> = BTreeMap::new();
    let mut pairs: BTreeMap<(u64, u64), u64> = BTreeMap::new();
    for _ in 0..ops {
        match gen.next_op() {
            YcsbOp::Read { key } | YcsbOp::Update { key } | YcsbOp::Insert { key } => {
                *access.entry(key).or_default() += 1;
            }
            YcsbOp::Scan { start_key, len } => {
                let keys = gen.scan_keys(start_key, len);
                for (i, &a) in keys.iter().enumerate() {
                    *access.entry(a).or_default() += 1;
                    for &b in &keys[i + 1..] {
                        *pairs.entry((a.min(b), a.max(b))).or_default() += 1;
                    }
                }
            }
        }
    }
    let id: BTreeMap<u64, u32> = access
        .keys()
        .enumerate()
        .map(|(i, &k)| (k, i as u32))
        .collect();
    let vwgt: Vec<u64> = access.values().copied().collect();
    let edges: Vec<(u32, u32, u64)> = pairs
        .iter()
        .map(|(&(a, b), &w)| (id[&a], id[&b], w))
        .collect();
    Graph::from_edges(vwgt, &edges).map_err(|e| e.to_string())
}
