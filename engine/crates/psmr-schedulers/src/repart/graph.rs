//! The workload graph the tracker keeps (paper 001 section 3, Figure 1).
//!
//! A vertex per key, weighted by how many requests read or wrote it; an
//! edge per pair of keys one request reads together (a scan), weighted by
//! how many requests did. With a sliding window of `W` requests (section
//! 4.1), a request's contributions are taken back when it leaves the
//! window, so the graph describes the last `W` requests only and its size
//! stays bounded by what `W` requests can touch.
//!
//! Bound: a request over more than [`MAX_CLIQUE_KEYS`] keys adds the edges
//! between consecutive keys only (a path instead of a clique), so one scan
//! adds at most `MAX_CLIQUE_KEYS^2 / 2` edges. Paper 001's scans read 2-8
//! keys and always get their full clique; YCSB's own E reads up to 100.
//!
//! Determinism: edges live in a hash map but every snapshot sorts them, so
//! the partitioner sees the same graph natively and in wasm.

use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasherDefault;

use psmr_core::RequestId;
use psmr_partition::{Graph, GraphError};

use super::keys::{KeyIndex, KeyRange};

/// Largest key set that gets a full clique of edges.
pub const MAX_CLIQUE_KEYS: u32 = 16;

type Edges =
    HashMap<(u32, u32), u64, BuildHasherDefault<std::collections::hash_map::DefaultHasher>>;

/// Vertex and edge weights of the recent requests.
#[derive(Debug)]
pub struct WorkloadGraph {
    vwgt: Vec<u64>,
    edges: Edges,
    /// Vertices with a positive weight.
    active: u32,
    window: Option<u32>,
    recent: VecDeque<RequestId>,
    /// Requests added so far.
    pub added: u64,
}

/// A copy of the graph for the partitioner: the CSR graph over the active
/// keys and the key index of each vertex.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub graph: Graph,
    pub keys: Vec<u32>,
    /// Requests the tracker had added when it was taken.
    pub requests: u64,
}

impl WorkloadGraph {
    /// A graph over `keys` keys; `window` keeps only the last requests.
    pub fn new(keys: u32, window: Option<u32>) -> Self {
        WorkloadGraph {
            vwgt: vec![0; keys as usize],
            edges: Edges::default(),
            active: 0,
            window: window.map(|w| w.max(1)),
            recent: VecDeque::new(),
            added: 0,
        }
    }

    /// Account request `r` (and drop the one leaving the window).
    pub fn add(&mut self, index: &KeyIndex, r: RequestId) {
        self.apply(index.of(r), true);
        self.added += 1;
        if let Some(w) = self.window {
            self.recent.push_back(r);
            if self.recent.len() > w as usize {
                let old = self.recent.pop_front().expect("window is not empty");
                self.apply(index.of(old), false);
            }
        }
    }

    /// Add (or take back) one request's vertex and edge weights.
    fn apply(&mut self, ranges: &[KeyRange], add: bool) {
        let all: Vec<u32> = ranges.iter().flat_map(|&(a, z)| a..z).collect();
        for &k in &all {
            let w = &mut self.vwgt[k as usize];
            if add {
                self.active += u32::from(*w == 0);
                *w += 1;
            } else {
                *w -= 1;
                self.active -= u32::from(*w == 0);
            }
        }
        if all.len() <= MAX_CLIQUE_KEYS as usize {
            for (i, &u) in all.iter().enumerate() {
                for &v in &all[i + 1..] {
                    self.edge(u, v, add);
                }
            }
        } else {
            for p in all.windows(2) {
                self.edge(p[0], p[1], add);
            }
        }
    }

    fn edge(&mut self, u: u32, v: u32, add: bool) {
        let key = (u.min(v), u.max(v));
        if add {
            *self.edges.entry(key).or_insert(0) += 1;
        } else if let Some(w) = self.edges.get_mut(&key) {
            *w -= 1;
            if *w == 0 {
                self.edges.remove(&key);
            }
        }
    }

    /// Keys with a positive weight.
    pub fn vertices(&self) -> u32 {
        self.active
    }

    /// Distinct edges.
    pub fn edges(&self) -> usize {
        self.edges.len()
    }

    /// Vertex weights by key index, and the edges as `[u, v, weight]`
    /// (`u < v`, sorted).
    pub fn parts(&self) -> (Vec<u64>, Vec<[u64; 3]>) {
        let mut edges: Vec<[u64; 3]> = self
            .edges
            .iter()
            .map(|(&(u, v), &w)| [u as u64, v as u64, w])
            .collect();
        edges.sort_unstable();
        (self.vwgt.clone(), edges)
    }

    /// Copy the graph for the partitioner (vertices renumbered in key
    /// order, edges sorted).
    pub fn snapshot(&self) -> Result<Snapshot, GraphError> {
        let mut id = vec![u32::MAX; self.vwgt.len()];
        let mut keys = Vec::with_capacity(self.active as usize);
        let mut vwgt = Vec::with_capacity(self.active as usize);
        for (k, &w) in self.vwgt.iter().enumerate() {
            if w > 0 {
                id[k] = keys.len() as u32;
                keys.push(k as u32);
                vwgt.push(w);
            }
        }
        let mut edges: Vec<(u32, u32, u64)> = self
            .edges
            .iter()
            .map(|(&(u, v), &w)| (id[u as usize], id[v as usize], w))
            .collect();
        edges.sort_unstable();
        Ok(Snapshot {
            graph: Graph::from_edges(vwgt, &edges)?,
            keys,
            requests: self.added,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(spans: &[(u64, u64)]) -> KeyIndex {
        KeyIndex::new(&crate::repart::keys::scan_stream(spans)).unwrap()
    }

    /// Paper 001 Figure 1's rule: +1 per key accessed, +1 per pair a scan
    /// reads together.
    #[test]
    fn vertices_count_accesses_and_edges_count_co_reads() {
        let idx = index(&[(0, 2), (1, 1), (1, 2)]);
        let mut g = WorkloadGraph::new(idx.keys(), None);
        for r in 0..3 {
            g.add(&idx, r);
        }
        let s = g.snapshot().unwrap();
        assert_eq!(s.graph.vwgt(), &[1, 3, 2]);
        let mut e: Vec<(u32, u32, u64)> = (0..3)
            .flat_map(|v| s.graph.neighbors(v).map(move |(u, w)| (v, u, w)))
            .filter(|e| e.0 < e.1)
            .collect();
        e.sort_unstable();
        assert_eq!(e, vec![(0, 1, 1), (0, 2, 1), (1, 2, 2)]);
    }

    #[test]
    fn the_window_forgets_old_requests() {
        let idx = index(&[(0, 1), (2, 3), (4, 4)]);
        let mut g = WorkloadGraph::new(idx.keys(), Some(1));
        g.add(&idx, 0);
        g.add(&idx, 1);
        assert_eq!((g.vertices(), g.edges()), (2, 1));
        let s = g.snapshot().unwrap();
        assert_eq!(s.keys, vec![2, 3], "only the last request's keys");
        g.add(&idx, 2);
        assert_eq!((g.vertices(), g.edges()), (1, 0));
    }

    #[test]
    fn long_scans_add_a_path_not_a_clique() {
        let idx = index(&[(0, 99)]);
        let mut g = WorkloadGraph::new(idx.keys(), None);
        g.add(&idx, 0);
        assert_eq!(g.edges(), 99);
        let idx = index(&[(0, MAX_CLIQUE_KEYS as u64 - 1)]);
        let mut g = WorkloadGraph::new(idx.keys(), None);
        g.add(&idx, 0);
        let n = MAX_CLIQUE_KEYS as usize;
        assert_eq!(g.edges(), n * (n - 1) / 2);
    }
}
