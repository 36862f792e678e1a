//! Generated graphs with a known good partition, for tests, the benchmark
//! and the native-versus-wasm determinism check.
//!
//! A *planted-partition* graph has `blocks` groups of `block_size` vertices;
//! each vertex draws `inner` edges to random vertices of its own group and
//! `outer` edges to random vertices of other groups (repeats merge into
//! heavier edges). With `inner` well above `outer`, splitting along the
//! groups is a near-optimal balanced partition, and its cut (the
//! `planted_cut`) is the yardstick a partitioner should reach.

use crate::graph::{edge_cut, Graph};
use crate::rng::Rng;
use crate::{partition, PartitionConfig};

/// Expected [`reference_digest`]. Written by running
/// `cargo test -p psmr-partition reference_digest -- --nocapture` in
/// `engine/` (the test prints the digest it computed); change it only
/// together with a deliberate change of the algorithm, and check the wasm
/// build against the new value. (This value was also produced by a
/// `wasm32-unknown-unknown` build, checked once with a small cdylib under
/// node.)
pub const REFERENCE_DIGEST: u64 = 0x5c0e_3ec5_8678_7325;

/// A planted-partition graph and its planted groups.
#[derive(Clone, Debug)]
pub struct Planted {
    /// The graph (unit vertex weights).
    pub graph: Graph,
    /// The group of each vertex (`v / block_size`).
    pub blocks: Vec<u32>,
    /// Edge cut of `blocks`.
    pub planted_cut: u64,
}

/// Builds a planted-partition graph (see the module documentation).
/// `blocks >= 2`, `block_size >= 2`.
pub fn planted_partition(
    blocks: u32,
    block_size: u32,
    inner: u32,
    outer: u32,
    seed: u64,
) -> Planted {
    assert!(blocks >= 2 && block_size >= 2, "at least two groups of two");
    let n = blocks * block_size;
    let mut rng = Rng::new(seed);
    let mut edges = Vec::with_capacity((n * (inner + outer)) as usize);
    for v in 0..n {
        let block = v / block_size;
        for _ in 0..inner {
            let mut u = block * block_size + rng.below(block_size as u64 - 1) as u32;
            if u >= v {
                u += 1; // skip v itself
            }
            if u / block_size != block {
                u = block * block_size; // v was the last of its group
            }
            edges.push((v, u, 1));
        }
        for _ in 0..outer {
            let other = (block + 1 + rng.below(blocks as u64 - 1) as u32) % blocks;
            let u = other * block_size + rng.below(block_size as u64) as u32;
            edges.push((v, u, 1));
        }
    }
    edges.retain(|&(a, b, _)| a != b);
    let graph = Graph::from_edges(vec![1; n as usize], &edges).expect("generated edges are valid");
    let blocks_of: Vec<u32> = (0..n).map(|v| v / block_size).collect();
    let planted_cut = edge_cut(&graph, &blocks_of);
    Planted {
        graph,
        blocks: blocks_of,
        planted_cut,
    }
}

/// The graph of the determinism check: 8 groups of 500 vertices, 6 inner and
/// 1 outer edge drawn per vertex, seed 2024.
pub fn reference_graph() -> Graph {
    planted_partition(8, 500, 6, 1, 2024).graph
}

/// The configuration of the determinism check: 8 parts, the defaults
/// otherwise, seed 7.
pub fn reference_config() -> PartitionConfig {
    PartitionConfig {
        parts: 8,
        seed: 7,
        ..PartitionConfig::default()
    }
}

/// The digest of partitioning [`reference_graph`] with
/// [`reference_config`]; must equal [`REFERENCE_DIGEST`] on every build
/// (native and wasm).
pub fn reference_digest() -> u64 {
    let g = reference_graph();
    partition(&g, &reference_config())
        .expect("the reference configuration is valid")
        .digest()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planted_graphs_have_their_shape() {
        let p = planted_partition(4, 50, 5, 1, 3);
        assert_eq!(p.graph.vertex_count(), 200);
        let inner: u64 = (0..200u32)
            .flat_map(|v| p.graph.neighbors(v).map(move |(u, w)| (v, u, w)))
            .filter(|&(v, u, _)| v < u && v / 50 == u / 50)
            .map(|(_, _, w)| w)
            .sum();
        // 5 inner draws and 1 outer draw per vertex: 1000 and 200 unit edges.
        assert_eq!(inner, 1000);
        assert_eq!(p.planted_cut, 200);
    }

    #[test]
    fn reference_digest_is_stable() {
        let digest = crate::reference_digest();
        println!("reference digest: {digest:#018x}");
        assert_eq!(
            digest, REFERENCE_DIGEST,
            "the partitioner's result changed: {digest:#018x} (see REFERENCE_DIGEST's doc)"
        );
    }
}
