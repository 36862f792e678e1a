//! SCC size distributions of simulated ePaxos commit streams, for
//! docs/epaxos-commit-model.md.
//!
//! `cargo run -p psmr-core --example commit-stats [-- --commands N --seeds S]`
//!
//! Paper 004's workload: one linked list, a command writes it with the
//! given probability (the paper's conflict rate) and reads it otherwise.
//! For each write share, `S` streams (seeds 1..=S) of `N` commands under
//! the default parameters, then the same without batching (`batch_max` 1).
//! Prints Markdown tables.

use psmr_core::commit_sim::{
    scc_histogram, simulate, CommitSimSpec, CommitStream, FlatFootprints, Simulation,
};
use psmr_core::scc::{Admit, Tarjan};
use psmr_core::workload::SplitMix64;
use std::collections::BTreeMap;

const WRITE_PCTS: [u64; 5] = [0, 1, 2, 25, 100];

fn main() {
    let (commands, seeds) = match args() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("commit-stats: {e}");
            std::process::exit(2);
        }
    };
    let spec = CommitSimSpec::default();
    println!("Default parameters: {spec:?}\n");
    table(commands, seeds, &spec);
    println!("\nWithout batching (batch_max = 1), otherwise the defaults:\n");
    table(
        commands,
        seeds,
        &CommitSimSpec {
            batch_max: 1,
            ..spec
        },
    );
}

fn args() -> Result<(usize, u64), String> {
    let mut commands = 10_000;
    let mut seeds = 5;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let parse = |v: &str| v.parse::<u64>().map_err(|e| format!("{flag} {v}: {e}"));
        match flag.as_str() {
            "--commands" => commands = parse(&value)? as usize,
            "--seeds" => seeds = parse(&value)?.max(1),
            _ => return Err(format!("unknown flag {flag} (use --commands N, --seeds S)")),
        }
    }
    Ok((commands, seeds))
}

/// Totals over the seeds of one row.
#[derive(Default)]
struct Row {
    instances: u64,
    slow: u64,
    deps: u64,
    sizes: BTreeMap<u32, u64>,
    cross_edges: u64,
    cross_seq_inverted: u64,
    later_deps: u64,
}

fn table(commands: usize, seeds: u64, base: &CommitSimSpec) {
    println!(
        "| writes | instances | commands/instance | slow path | deps/instance | deps on later commits \
         | SCC sizes (size x count) | instances in SCCs > 1 | cross-SCC deps with seq(a) <= seq(b) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for pct in WRITE_PCTS {
        let mut row = Row::default();
        for seed in 1..=seeds {
            let fp = list_workload(seed, commands, pct);
            let spec = CommitSimSpec {
                seed,
                ..base.clone()
            };
            match simulate(&fp, &spec) {
                Ok(sim) => add(&mut row, &sim),
                Err(e) => {
                    eprintln!("commit-stats: {e}");
                    std::process::exit(1);
                }
            }
        }
        print_row(pct, commands as u64 * seeds, &row);
    }
}

fn list_workload(seed: u64, n: usize, write_pct: u64) -> FlatFootprints {
    // A stream of its own, apart from the simulator's seed use.
    let mut rng = SplitMix64::new(seed ^ 0x5eed_0f11_57ab);
    let writes: Vec<bool> = (0..n).map(|_| rng.below(100) < write_pct).collect();
    FlatFootprints::single_list(&writes).unwrap_or_default()
}

fn add(row: &mut Row, sim: &Simulation) {
    let s = &sim.stream;
    row.instances += s.len() as u64;
    row.slow += sim.meta.iter().filter(|m| m.slow_path).count() as u64;
    for i in 0..s.len() {
        row.deps += s.deps(i).len() as u64;
        row.later_deps += s.deps(i).iter().filter(|&&d| d as usize > i).count() as u64;
    }
    if let Ok(h) = scc_histogram(s) {
        for (size, count) in h.sizes {
            *row.sizes.entry(size).or_default() += u64::from(count);
        }
    }
    let (cross, inverted) = cross_scc_seq(s);
    row.cross_edges += cross;
    row.cross_seq_inverted += inverted;
}

/// Dependencies between different SCCs, and how many of them have
/// `seq(a) <= seq(b)` (seq alone would order them wrongly).
fn cross_scc_seq(s: &CommitStream) -> (u64, u64) {
    let mut tarjan = Tarjan::new();
    let Ok(list) = tarjan.run_all(s, |_| Admit::Visit) else {
        return (0, 0);
    };
    let mut comp = vec![0usize; s.len()];
    for (k, members) in list.iter().enumerate() {
        for &v in members {
            comp[v as usize] = k;
        }
    }
    let (mut cross, mut inverted) = (0, 0);
    for a in 0..s.len() {
        for &b in s.deps(a) {
            if comp[a] != comp[b as usize] {
                cross += 1;
                inverted += u64::from(s.seq(a) <= s.seq(b as usize));
            }
        }
    }
    (cross, inverted)
}

fn print_row(pct: u64, commands: u64, row: &Row) {
    let per = |x: u64| x as f64 / row.instances.max(1) as f64;
    let sizes: Vec<String> = row.sizes.iter().map(|(s, c)| format!("{s}x{c}")).collect();
    let in_cycles: u64 = row
        .sizes
        .iter()
        .filter(|(s, _)| **s > 1)
        .map(|(s, c)| u64::from(*s) * c)
        .sum();
    println!(
        "| {pct} % | {} | {:.1} | {:.1} % | {:.2} | {} | {} | {:.1} % | {} of {} |",
        row.instances,
        commands as f64 / row.instances.max(1) as f64,
        100.0 * per(row.slow),
        per(row.deps),
        row.later_deps,
        sizes.join(", "),
        100.0 * per(in_cycles),
        row.cross_seq_inverted,
        row.cross_edges,
    );
}
