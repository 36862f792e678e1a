//! # psmr-partition
//!
//! Balanced k-way graph partitioning that keeps the edge cut small: the job
//! METIS does for paper 001's repartitioner (the workload graph has a vertex
//! per key weighted by its accesses and an edge per pair of keys a scan reads
//! together; a good partition puts keys read together on one worker and gives
//! every worker about the same load).
//!
//! The scheme is multilevel (Karypis and Kumar 1998, cited by paper 001):
//!
//! 1. [`coarsen`]: collapse heavy-edge matchings until the graph is small
//!    (`max(n / (20 log2 k), 30 k)` vertices, as METIS's k-way driver);
//! 2. [`bisect`]: split the coarsest graph by recursive bisection, each
//!    bisection multilevel with greedy graph growing and FM refinement;
//! 3. [`refine`]: project back level by level, rebalancing overweight parts
//!    and refining the boundary greedily at each level.
//!
//! [`partition`] also runs recursive bisection on the graph itself (step 2
//! without step 1, then step 3 once) and keeps the better of the two results.
//!
//! [`refine_from`] warm-starts from a previous assignment: it coarsens only
//! within the previous parts, so the old map projects exactly onto the
//! coarsest graph, and then runs step 3 from there: the repartitioner of a
//! slowly changing workload graph keeps most keys where they were.
//!
//! Determinism: every choice depends on the seed through a local SplitMix64,
//! all arithmetic is on integers, and ties are broken by vertex or part id:
//! the same graph, configuration and seed give the same partition natively
//! and in wasm ([`reference_digest`] checks it).
//!
//! Work bounds: at most [`coarsen::MAX_LEVELS`] levels, `max_passes`
//! refinement passes per level, `initial_trials` independent multilevel tries
//! per bisection (each keeping the best of `initial_trials` grown regions),
//! FM passes that stop after at most 100 fruitless moves, and at most 8
//! rebalancing rounds per level. Inputs are bounded by [`MAX_PARTS`] and
//! [`graph::MAX_VERTICES`]; total weights by [`graph::MAX_TOTAL_WEIGHT`].

pub mod bisect;
pub mod coarsen;
pub mod fixture;
pub mod graph;
pub mod metis_io;
pub mod refine;
mod rng;
#[cfg(test)]
mod tests;

use std::cmp::Reverse;
use std::fmt;

pub use fixture::reference_digest;
pub use graph::{edge_cut, part_weights, Graph, GraphError};

use bisect::Effort;
use refine::KWay;
use rng::Rng;

/// Largest number of parts accepted.
pub const MAX_PARTS: u32 = 1 << 16;

/// Largest allowed imbalance factor, in permille (10.0).
pub const MAX_IMBALANCE_PERMILLE: u32 = 10_000;

/// Marks a vertex without a previous part in [`refine_from`] (a key that is
/// new in the workload graph).
pub const UNASSIGNED: u32 = u32::MAX;

/// What to partition into and how hard to try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionConfig {
    /// Number of parts `k` (`1..=MAX_PARTS`, at most the vertex count).
    pub parts: u32,
    /// Largest allowed part weight relative to the average, in permille:
    /// 1030 lets a part weigh 1.03 times `total / k` (METIS's default
    /// `ufactor = 30`). `1000..=MAX_IMBALANCE_PERMILLE`.
    pub imbalance_permille: u32,
    /// Seed of every random choice.
    pub seed: u64,
    /// Refinement passes per level (k-way and FM), `1..=100`.
    pub max_passes: u32,
    /// Independent multilevel tries per bisection of the initial partition,
    /// each keeping the best of as many grown regions (so `initial_trials^2`
    /// growings per bisection), `1..=64`.
    pub initial_trials: u32,
}

impl Default for PartitionConfig {
    fn default() -> Self {
        PartitionConfig {
            parts: 2,
            imbalance_permille: 1030,
            seed: 1,
            max_passes: 10,
            initial_trials: 4,
        }
    }
}

impl PartitionConfig {
    /// The default configuration for `parts` parts.
    pub fn with_parts(parts: u32) -> Self {
        PartitionConfig {
            parts,
            ..PartitionConfig::default()
        }
    }
}

/// The result: the part of each vertex, its edge cut and part weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    /// `part[v]` in `0..parts`.
    pub part: Vec<u32>,
    /// Summed weight of the edges between parts.
    pub cut: u64,
    /// Summed vertex weight of each part.
    pub part_weights: Vec<u64>,
    /// The bound every part had to respect (see [`max_part_weight`]).
    pub max_part_weight: u64,
}

impl Partition {
    /// Heaviest part relative to the average part, in permille, rounded up
    /// (1000 = perfectly even; 0 for a graph without weight).
    pub fn imbalance_permille(&self) -> u64 {
        imbalance_permille(&self.part_weights)
    }

    /// Whether every part respects the bound (false only when no partition
    /// can, e.g. a single vertex heavier than the bound).
    pub fn is_balanced(&self) -> bool {
        self.part_weights.iter().all(|&w| w <= self.max_part_weight)
    }

    /// Keys that changed part between `previous` and this partition.
    pub fn moved_from(&self, previous: &[u32]) -> usize {
        self.part
            .iter()
            .zip(previous)
            .filter(|(a, b)| a != b)
            .count()
    }

    /// A 64-bit digest of the assignment, cut and weights (FNV-1a over the
    /// little-endian bytes), for comparing builds bit for bit.
    pub fn digest(&self) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let mut eat = |x: u64| {
            for b in x.to_le_bytes() {
                h ^= b as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        eat(self.part.len() as u64);
        for &p in &self.part {
            eat(p as u64);
        }
        eat(self.cut);
        for &w in &self.part_weights {
            eat(w);
        }
        h
    }
}

/// Heaviest of `weights` relative to their average, in permille, rounded up.
pub fn imbalance_permille(weights: &[u64]) -> u64 {
    let total: u128 = weights.iter().map(|&w| w as u128).sum();
    let heaviest = weights.iter().copied().max().unwrap_or(0) as u128;
    if total == 0 {
        return 0;
    }
    (heaviest * weights.len() as u128 * 1000).div_ceil(total) as u64
}

/// The bound on a part's weight: `floor(total * imbalance / k)`, but never
/// below `ceil(total / k)` (an even split must always be allowed).
pub fn max_part_weight(total: u64, parts: u32, imbalance_permille: u32) -> u64 {
    let k = parts.max(1) as u128;
    let allowed = total as u128 * imbalance_permille as u128 / (1000 * k);
    allowed.max((total as u128).div_ceil(k)) as u64
}

/// A rejected configuration or previous assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartitionError {
    /// A configuration field out of range: its name and what was expected.
    Config {
        field: &'static str,
        expected: String,
    },
    /// An entry of the previous assignment of [`refine_from`].
    Previous { index: usize, expected: String },
}

impl fmt::Display for PartitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartitionError::Config { field, expected } => write!(f, "config.{field}: {expected}"),
            PartitionError::Previous { index, expected } => {
                write!(f, "previous[{index}]: {expected}")
            }
        }
    }
}

impl std::error::Error for PartitionError {}

fn config_error(field: &'static str, expected: String) -> PartitionError {
    PartitionError::Config { field, expected }
}

fn check_config(g: &Graph, cfg: &PartitionConfig) -> Result<(), PartitionError> {
    let n = g.vertex_count();
    if cfg.parts == 0 || cfg.parts > MAX_PARTS {
        return Err(config_error(
            "parts",
            format!("a part count in 1..={MAX_PARTS}, found {}", cfg.parts),
        ));
    }
    if cfg.parts as usize > n {
        return Err(config_error(
            "parts",
            format!("at most the vertex count ({n}), found {}", cfg.parts),
        ));
    }
    if !(1000..=MAX_IMBALANCE_PERMILLE).contains(&cfg.imbalance_permille) {
        return Err(config_error(
            "imbalance_permille",
            format!(
                "a permille in 1000..={MAX_IMBALANCE_PERMILLE} (1030 = 3 % over the average), found {}",
                cfg.imbalance_permille
            ),
        ));
    }
    if !(1..=100).contains(&cfg.max_passes) {
        return Err(config_error(
            "max_passes",
            format!("1..=100 passes, found {}", cfg.max_passes),
        ));
    }
    if !(1..=64).contains(&cfg.initial_trials) {
        return Err(config_error(
            "initial_trials",
            format!("1..=64 trials, found {}", cfg.initial_trials),
        ));
    }
    Ok(())
}

/// Vertex count the k-way phase coarsens to: `max(n / (20 log2 k), 30 k)`.
fn kway_coarsen_to(n: usize, k: u32) -> usize {
    let log2k = (32 - (k.max(2) - 1).leading_zeros()) as usize; // ceil(log2 k)
    (n / (20 * log2k)).max(30 * k as usize)
}

/// Partitions `g` into `cfg.parts` balanced parts with a small edge cut.
///
/// Two pipelines run from independent random streams and the better result
/// is kept (balanced first, then the lower cut; the first on ties):
/// *k-way* coarsens the whole graph, splits the coarsest graph by recursive
/// bisection and refines k-way on every level on the way up (METIS's
/// `kmetis` shape); *recursive* bisects the graph itself, each bisection
/// multilevel with FM refinement, and refines k-way once at the end (the
/// `pmetis` shape). Neither wins on every graph (see
/// docs/benchmarks/partitioner.md), and together they are more robust.
pub fn partition(g: &Graph, cfg: &PartitionConfig) -> Result<Partition, PartitionError> {
    check_config(g, cfg)?;
    let k = cfg.parts;
    let max = max_part_weight(g.total_vertex_weight(), k, cfg.imbalance_permille);
    if k == 1 {
        return Ok(finish(g, vec![0; g.vertex_count()], k, max));
    }
    let mut rng = Rng::new(cfg.seed);
    let effort = Effort {
        trials: cfg.initial_trials,
        passes: cfg.max_passes,
    };
    // Spread the k-way tolerance over the ceil(log2 k) bisection levels.
    let depth = (32 - (k - 1).leading_zeros()) as u64;
    let bisection_ub = 1000 + (cfg.imbalance_permille as u64 - 1000) / depth;
    let kway = {
        let mut rng = rng.fork();
        let levels = coarsen::coarsen(g, kway_coarsen_to(g.vertex_count(), k), None, &mut rng);
        let coarsest = levels.last().map_or(g, |l| &l.graph);
        let initial = bisect::recursive_bisection(coarsest, k, bisection_ub, effort, &mut rng);
        finish(
            g,
            uncoarsen(g, &levels, initial, max, cfg, &mut rng),
            k,
            max,
        )
    };
    let recursive = {
        let mut rng = rng.fork();
        let initial = bisect::recursive_bisection(g, k, bisection_ub, effort, &mut rng);
        finish(g, uncoarsen(g, &[], initial, max, cfg, &mut rng), k, max)
    };
    let score = |p: &Partition| (!p.is_balanced(), p.cut);
    Ok(if score(&recursive) < score(&kway) {
        recursive
    } else {
        kway
    })
}

/// Warm start: refines `previous` (one part per vertex, or [`UNASSIGNED`]
/// for a vertex new to the graph) instead of partitioning from scratch.
/// Unassigned vertices first join the part they are most connected to (the
/// lightest part when they have no assigned neighbour), then the graph is
/// coarsened within parts and refined and rebalanced level by level. A
/// balanced `previous` is never made worse: refinement only takes moves that
/// keep or lower the cut.
pub fn refine_from(
    g: &Graph,
    cfg: &PartitionConfig,
    previous: &[u32],
) -> Result<Partition, PartitionError> {
    check_config(g, cfg)?;
    let n = g.vertex_count();
    if previous.len() != n {
        return Err(PartitionError::Previous {
            index: previous.len().min(n),
            expected: format!("one entry per vertex ({n}), found {}", previous.len()),
        });
    }
    if let Some((index, &p)) = previous
        .iter()
        .enumerate()
        .find(|&(_, &p)| p >= cfg.parts && p != UNASSIGNED)
    {
        return Err(PartitionError::Previous {
            index,
            expected: format!(
                "a part below {} or UNASSIGNED (u32::MAX), found {p}",
                cfg.parts
            ),
        });
    }
    let k = cfg.parts;
    let max = max_part_weight(g.total_vertex_weight(), k, cfg.imbalance_permille);
    let start = assign_new_vertices(g, previous, k, max);
    let mut rng = Rng::new(cfg.seed);
    let levels = coarsen::coarsen(g, kway_coarsen_to(n, k), Some(&start), &mut rng.fork());
    let mut coarse = start;
    for level in &levels {
        let mut next = vec![0u32; level.graph.vertex_count()];
        for (v, &c) in level.cmap.iter().enumerate() {
            next[c as usize] = coarse[v];
        }
        coarse = next;
    }
    let part = uncoarsen(g, &levels, coarse, max, cfg, &mut rng);
    Ok(finish(g, part, k, max))
}

/// Places every [`UNASSIGNED`] vertex, in vertex order: into the part with
/// room it is most connected to, else the lightest part.
fn assign_new_vertices(g: &Graph, previous: &[u32], k: u32, max: u64) -> Vec<u32> {
    let mut part = previous.to_vec();
    let mut weights = vec![0u64; k as usize];
    for (v, &p) in part.iter().enumerate() {
        if p != UNASSIGNED {
            weights[p as usize] += g.vertex_weight(v as u32);
        }
    }
    let mut conn = vec![0u64; k as usize];
    for v in 0..g.vertex_count() as u32 {
        if part[v as usize] != UNASSIGNED {
            continue;
        }
        let vw = g.vertex_weight(v);
        let mut touched = Vec::new();
        for (u, w) in g.neighbors(v) {
            let p = part[u as usize];
            if p != UNASSIGNED {
                if conn[p as usize] == 0 {
                    touched.push(p);
                }
                conn[p as usize] += w;
            }
        }
        let connected = touched
            .iter()
            .copied()
            .filter(|&p| weights[p as usize] + vw <= max)
            .max_by_key(|&p| (conn[p as usize], Reverse(p)));
        let to = connected.unwrap_or_else(|| {
            (0..k)
                .min_by_key(|&p| (weights[p as usize], p))
                .expect("k >= 1")
        });
        for p in touched {
            conn[p as usize] = 0;
        }
        part[v as usize] = to;
        weights[to as usize] += vw;
    }
    part
}

/// Step 3: refine on the coarsest graph, then project to each finer level and
/// do the same; the finer half of the levels is rebalanced first, and the
/// finest level again at the end if a part is still over its bound.
fn uncoarsen(
    g: &Graph,
    levels: &[coarsen::Level],
    coarsest_part: Vec<u32>,
    max: u64,
    cfg: &PartitionConfig,
    rng: &mut Rng,
) -> Vec<u32> {
    let k = cfg.parts as usize;
    let mut part = coarsest_part;
    for i in (0..=levels.len()).rev() {
        let graph = if i == 0 { g } else { &levels[i - 1].graph };
        if i < levels.len() {
            part = levels[i].cmap.iter().map(|&c| part[c as usize]).collect();
        }
        let mut kw = KWay::new(graph, part, vec![max; k]);
        // Coarse levels may stay uneven (their vertices are heavy); the
        // finer half of the levels is rebalanced before it is refined.
        if 2 * i <= levels.len() {
            kw.rebalance();
        }
        kw.refine(cfg.max_passes, rng);
        if i == 0 && kw.overweight() {
            kw.rebalance();
            kw.refine(cfg.max_passes, rng);
        }
        part = kw.part;
    }
    part
}

fn finish(g: &Graph, part: Vec<u32>, parts: u32, max: u64) -> Partition {
    Partition {
        cut: edge_cut(g, &part),
        part_weights: part_weights(g, &part, parts),
        max_part_weight: max,
        part,
    }
}
