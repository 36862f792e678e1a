//! The workload graph of a whole stream, for the classroom view: a vertex
//! per key (weighted by the requests that touch it), an edge per pair of
//! keys one request reads together (weighted likewise, with the tracker's
//! clique-or-path rule), and the round-robin placement every strategy of
//! the family starts from. The view recolors it with the run's trace
//! (`KeyMoved` events at each map switch).
//!
//! The initial placement is the same in every run of a stream: a key is
//! placed when a request first names it, from one round-robin counter that
//! map switches never touch (a new map only moves keys already placed).

use serde::Serialize;

use psmr_core::{RequestId, Stream};

use super::graph::WorkloadGraph;
use super::keys::{KeyIndex, PartitionMap};

/// Most keys the view draws.
pub const MAX_VIEW_KEYS: u32 = 50_000;
/// Most edges the view draws (the heaviest).
pub const MAX_VIEW_EDGES: usize = 200_000;

/// See the module comment. Vertex `i` is the `i`-th key in key order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GraphView {
    pub workers: u32,
    /// The store key of each vertex.
    pub keys: Vec<u64>,
    /// The first request that touches each key.
    pub first_request: Vec<RequestId>,
    /// The round-robin placement of each key.
    pub initial_owner: Vec<u32>,
    pub weight: Vec<u64>,
    /// `[u, v, weight]` with `u < v`, heaviest first, at most
    /// [`MAX_VIEW_EDGES`].
    pub edges: Vec<[u64; 3]>,
    /// Edges before the cap.
    pub edges_total: usize,
}

/// The view of `stream` for `workers` workers (1..=64).
pub fn graph_view(stream: &Stream, workers: u32) -> Result<GraphView, String> {
    let index = KeyIndex::new(stream)?;
    let n = index.keys();
    if n > MAX_VIEW_KEYS {
        return Err(format!(
            "the stream touches {n} keys; the workload graph view draws at most {MAX_VIEW_KEYS}"
        ));
    }
    if !(1..=64).contains(&workers) {
        return Err(format!("1..=64 workers, not {workers}"));
    }
    let mut map = PartitionMap::new(n, workers);
    let mut first = vec![RequestId::MAX; n as usize];
    let mut graph = WorkloadGraph::new(n, None);
    for r in 0..stream.len() as RequestId {
        let ranges = index.of(r);
        map.route(ranges);
        for &(a, z) in ranges {
            for k in a..z {
                if first[k as usize] == RequestId::MAX {
                    first[k as usize] = r;
                }
            }
        }
        graph.add(&index, r);
    }
    let (weight, mut edges) = graph.parts();
    let edges_total = edges.len();
    edges.sort_unstable_by(|a, b| b[2].cmp(&a[2]).then(a.cmp(b)));
    edges.truncate(MAX_VIEW_EDGES);
    Ok(GraphView {
        workers,
        keys: (0..n).map(|i| index.key(i)).collect(),
        first_request: first,
        initial_owner: map.owners().to_vec(),
        weight,
        edges,
        edges_total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use psmr_core::stream::StreamBuilder;
    use psmr_core::{CellSpace, Op, Span};

    #[test]
    fn placement_weights_and_edges_of_a_small_stream() {
        let mut b = StreamBuilder::new(CellSpace::Keys, 3);
        b.push(0, Op::KvWrite { key: 7, value: 1 }, &[Span::write(7, 7)]);
        b.push(0, Op::KvScan { start: 5, len: 3 }, &[Span::read(5, 7)]);
        b.push(0, Op::KvRead { key: 5 }, &[Span::read(5, 5)]);
        let v = graph_view(&b.finish_total(), 2).unwrap();
        assert_eq!(v.keys, vec![5, 6, 7]);
        assert_eq!(v.first_request, vec![1, 1, 0]);
        // Key 7 first (worker 0), then 5 and 6 by the scan.
        assert_eq!(v.initial_owner, vec![1, 0, 0]);
        assert_eq!(v.weight, vec![2, 1, 2]);
        assert_eq!(v.edges, vec![[0, 1, 1], [0, 2, 1], [1, 2, 1]]);
        assert_eq!(v.edges_total, 3);
    }
}
