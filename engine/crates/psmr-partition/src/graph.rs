//! Undirected weighted graphs in compressed sparse row (CSR) form, the
//! layout METIS uses: the neighbours of vertex `v` are
//! `adjncy[xadj[v]..xadj[v + 1]]` with the weights `adjwgt[..]` at the same
//! positions, and every undirected edge is stored twice (once per end).
//!
//! Invariants of a [`Graph`] (checked by [`Graph::new`] and
//! [`Graph::from_edges`]; internal constructors keep them by construction):
//! `xadj[0] == 0`, `xadj` non-decreasing, `xadj[n] == adjncy.len()`, every
//! neighbour `< n`, no self loop, no neighbour listed twice in a row, every
//! edge weight `> 0`, every edge `(u, v, w)` has its twin `(v, u, w)`, and the
//! sums of vertex weights and of edge weights stay below [`MAX_TOTAL_WEIGHT`]
//! so that gains (differences of such sums) fit in an `i64`.

use std::fmt;

/// Largest vertex count a graph may have (vertex ids are `u32`).
pub const MAX_VERTICES: usize = (u32::MAX - 1) as usize;

/// Bound on the sum of all vertex weights and on the sum of all (directed)
/// edge weights, so every gain and part weight fits in an `i64` with room to
/// spare.
pub const MAX_TOTAL_WEIGHT: u64 = 1 << 60;

/// A validation failure: where in the input (a field path such as
/// `adjncy[17]`) and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphError {
    /// Field path of the offending entry, e.g. `xadj[3]` or `edges[12]`.
    pub path: String,
    /// What was expected at that place and what was found.
    pub expected: String,
}

impl GraphError {
    pub(crate) fn new(path: impl Into<String>, expected: impl Into<String>) -> Self {
        GraphError {
            path: path.into(),
            expected: expected.into(),
        }
    }
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.expected)
    }
}

impl std::error::Error for GraphError {}

/// An undirected graph with integer vertex and edge weights (see the module
/// documentation for its invariants).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    xadj: Vec<usize>,
    adjncy: Vec<u32>,
    adjwgt: Vec<u64>,
    vwgt: Vec<u64>,
    total_vwgt: u64,
}

impl Graph {
    /// Checks the CSR arrays against every invariant of the module and builds
    /// the graph; the first violation is returned with its field path.
    pub fn new(
        xadj: Vec<usize>,
        adjncy: Vec<u32>,
        adjwgt: Vec<u64>,
        vwgt: Vec<u64>,
    ) -> Result<Graph, GraphError> {
        let n = vwgt.len();
        check_shape(&xadj, &adjncy, &adjwgt, n)?;
        check_rows(&xadj, &adjncy, &adjwgt, n)?;
        check_symmetric(&xadj, &adjncy, &adjwgt)?;
        Graph::with_checked_totals(xadj, adjncy, adjwgt, vwgt, "adjwgt")
    }

    /// Builds a graph from vertex weights and a list of undirected edges
    /// `(u, v, weight)`. Repeated edges (in either direction) are merged by
    /// adding their weights, so a co-access list can be passed as is. Self
    /// loops, zero weights and out-of-range ends are errors (`edges[i]`).
    pub fn from_edges(vwgt: Vec<u64>, edges: &[(u32, u32, u64)]) -> Result<Graph, GraphError> {
        let n = vwgt.len();
        if n > MAX_VERTICES {
            return Err(GraphError::new(
                "vwgt",
                format!("at most {MAX_VERTICES} vertices, found {n}"),
            ));
        }
        let mut directed: Vec<(u32, u32, u64)> = Vec::with_capacity(edges.len() * 2);
        for (i, &(u, v, w)) in edges.iter().enumerate() {
            let path = || format!("edges[{i}]");
            if u as usize >= n || v as usize >= n {
                return Err(GraphError::new(
                    path(),
                    format!("both ends below the vertex count {n}, found ({u}, {v})"),
                ));
            }
            if u == v {
                return Err(GraphError::new(
                    path(),
                    format!("two distinct ends, found a self loop on vertex {u}"),
                ));
            }
            if w == 0 {
                return Err(GraphError::new(path(), "an edge weight above 0, found 0"));
            }
            directed.push((u, v, w));
            directed.push((v, u, w));
        }
        directed.sort_unstable_by_key(|&(u, v, _)| (u, v));
        let mut xadj = vec![0usize; n + 1];
        let mut adjncy = Vec::with_capacity(directed.len());
        let mut adjwgt: Vec<u64> = Vec::with_capacity(directed.len());
        let mut last: Option<(u32, u32)> = None;
        for (u, v, w) in directed {
            if last == Some((u, v)) {
                let merged = adjwgt
                    .last_mut()
                    .expect("a merged edge follows its first copy");
                *merged = merged.saturating_add(w);
                continue;
            }
            last = Some((u, v));
            xadj[u as usize + 1] += 1;
            adjncy.push(v);
            adjwgt.push(w);
        }
        for v in 0..n {
            xadj[v + 1] += xadj[v];
        }
        Graph::with_checked_totals(xadj, adjncy, adjwgt, vwgt, "edges")
    }

    /// Builds the graph from CSR arrays whose shape is already checked, once
    /// the vertex weights (`vwgt`) and then the edge weights (`edges_field`,
    /// the path their error names) are known to sum to at most 2^60.
    fn with_checked_totals(
        xadj: Vec<usize>,
        adjncy: Vec<u32>,
        adjwgt: Vec<u64>,
        vwgt: Vec<u64>,
        edges_field: &str,
    ) -> Result<Graph, GraphError> {
        let total_vwgt = checked_total(&vwgt, "vwgt")?;
        checked_total(&adjwgt, edges_field)?;
        Ok(Graph {
            xadj,
            adjncy,
            adjwgt,
            vwgt,
            total_vwgt,
        })
    }

    /// Builds a graph whose invariants the caller guarantees (coarse graphs and
    /// induced subgraphs made inside this crate).
    pub(crate) fn from_parts_trusted(
        xadj: Vec<usize>,
        adjncy: Vec<u32>,
        adjwgt: Vec<u64>,
        vwgt: Vec<u64>,
    ) -> Graph {
        debug_assert_eq!(xadj.len(), vwgt.len() + 1);
        debug_assert_eq!(*xadj.last().unwrap_or(&0), adjncy.len());
        let total_vwgt = vwgt.iter().sum();
        Graph {
            xadj,
            adjncy,
            adjwgt,
            vwgt,
            total_vwgt,
        }
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.vwgt.len()
    }

    /// Number of undirected edges (each stored twice).
    pub fn edge_count(&self) -> usize {
        self.adjncy.len() / 2
    }

    /// Weight of vertex `v`.
    pub fn vertex_weight(&self, v: u32) -> u64 {
        self.vwgt[v as usize]
    }

    /// Sum of all vertex weights.
    pub fn total_vertex_weight(&self) -> u64 {
        self.total_vwgt
    }

    /// Neighbours of `v` with the weights of the edges to them.
    pub fn neighbors(&self, v: u32) -> impl Iterator<Item = (u32, u64)> + '_ {
        let range = self.xadj[v as usize]..self.xadj[v as usize + 1];
        self.adjncy[range.clone()]
            .iter()
            .copied()
            .zip(self.adjwgt[range].iter().copied())
    }

    /// Number of neighbours of `v`.
    pub fn degree(&self, v: u32) -> usize {
        self.xadj[v as usize + 1] - self.xadj[v as usize]
    }

    /// The CSR row offsets (`n + 1` entries).
    pub fn xadj(&self) -> &[usize] {
        &self.xadj
    }

    /// The CSR neighbour lists.
    pub fn adjncy(&self) -> &[u32] {
        &self.adjncy
    }

    /// The CSR edge weights (parallel to [`Graph::adjncy`]).
    pub fn adjwgt(&self) -> &[u64] {
        &self.adjwgt
    }

    /// The vertex weights.
    pub fn vwgt(&self) -> &[u64] {
        &self.vwgt
    }

    /// The largest vertex weight (0 for an empty graph).
    pub fn max_vertex_weight(&self) -> u64 {
        self.vwgt.iter().copied().max().unwrap_or(0)
    }
}

/// Edge cut of `part`: the summed weight of the edges whose ends lie in
/// different parts (each undirected edge counted once).
///
/// `part.len()` must equal the vertex count.
pub fn edge_cut(g: &Graph, part: &[u32]) -> u64 {
    debug_assert_eq!(part.len(), g.vertex_count());
    let mut cut = 0u64;
    for v in 0..g.vertex_count() as u32 {
        for (u, w) in g.neighbors(v) {
            if v < u && part[v as usize] != part[u as usize] {
                cut += w;
            }
        }
    }
    cut
}

/// Summed vertex weight of each of the `parts` parts (entries of `part` at or
/// above `parts` are ignored).
pub fn part_weights(g: &Graph, part: &[u32], parts: u32) -> Vec<u64> {
    let mut weights = vec![0u64; parts as usize];
    for (v, &p) in part.iter().enumerate() {
        if let Some(slot) = weights.get_mut(p as usize) {
            *slot += g.vwgt[v];
        }
    }
    weights
}

fn check_shape(xadj: &[usize], adjncy: &[u32], adjwgt: &[u64], n: usize) -> Result<(), GraphError> {
    if n > MAX_VERTICES {
        return Err(GraphError::new(
            "vwgt",
            format!("at most {MAX_VERTICES} vertices, found {n}"),
        ));
    }
    if xadj.len() != n + 1 {
        return Err(GraphError::new(
            "xadj",
            format!("{} entries (vertex count + 1), found {}", n + 1, xadj.len()),
        ));
    }
    if xadj[0] != 0 {
        return Err(GraphError::new("xadj[0]", format!("0, found {}", xadj[0])));
    }
    for v in 0..n {
        if xadj[v + 1] < xadj[v] {
            return Err(GraphError::new(
                format!("xadj[{}]", v + 1),
                format!("at least xadj[{v}] = {}, found {}", xadj[v], xadj[v + 1]),
            ));
        }
    }
    if xadj[n] != adjncy.len() {
        return Err(GraphError::new(
            format!("xadj[{n}]"),
            format!("the length of adjncy ({}), found {}", adjncy.len(), xadj[n]),
        ));
    }
    if adjwgt.len() != adjncy.len() {
        return Err(GraphError::new(
            "adjwgt",
            format!(
                "as many entries as adjncy ({}), found {}",
                adjncy.len(),
                adjwgt.len()
            ),
        ));
    }
    Ok(())
}

fn check_rows(xadj: &[usize], adjncy: &[u32], adjwgt: &[u64], n: usize) -> Result<(), GraphError> {
    // seen[u] == v + 1 while row v is scanned: detects a neighbour listed twice.
    let mut seen = vec![0usize; n];
    for v in 0..n {
        for i in xadj[v]..xadj[v + 1] {
            let u = adjncy[i] as usize;
            if u >= n {
                return Err(GraphError::new(
                    format!("adjncy[{i}]"),
                    format!("a vertex below {n} (neighbour of vertex {v}), found {u}"),
                ));
            }
            if u == v {
                return Err(GraphError::new(
                    format!("adjncy[{i}]"),
                    format!("a neighbour other than the vertex itself, found a self loop on {v}"),
                ));
            }
            if seen[u] == v + 1 {
                return Err(GraphError::new(
                    format!("adjncy[{i}]"),
                    format!("each neighbour once per row, vertex {v} lists {u} twice"),
                ));
            }
            seen[u] = v + 1;
            if adjwgt[i] == 0 {
                return Err(GraphError::new(
                    format!("adjwgt[{i}]"),
                    format!("an edge weight above 0 (edge {v}-{u}), found 0"),
                ));
            }
        }
    }
    Ok(())
}

/// Every edge `(v, u, w)` must have its twin `(u, v, w)`: compare the sorted
/// list of forward copies (`v < u`) with the sorted list of backward copies.
fn check_symmetric(xadj: &[usize], adjncy: &[u32], adjwgt: &[u64]) -> Result<(), GraphError> {
    let n = xadj.len() - 1;
    let mut forward: Vec<(u32, u32, u64, usize)> = Vec::new();
    let mut backward: Vec<(u32, u32, u64, usize)> = Vec::new();
    for v in 0..n {
        for i in xadj[v]..xadj[v + 1] {
            let u = adjncy[i];
            let vv = v as u32;
            if vv < u {
                forward.push((vv, u, adjwgt[i], i));
            } else {
                backward.push((u, vv, adjwgt[i], i));
            }
        }
    }
    forward.sort_unstable();
    backward.sort_unstable();
    // Rows hold no duplicates (checked before), so each (low, high) pair is
    // at most once in each list: merge the two sorted lists.
    let (mut i, mut j) = (0, 0);
    while i < forward.len() || j < backward.len() {
        let f = forward.get(i).map(|e| (e.0, e.1));
        let b = backward.get(j).map(|e| (e.0, e.1));
        match (f, b) {
            (Some(x), Some(y)) if x == y => {
                let (lo, hi, w1, at) = forward[i];
                let w2 = backward[j].2;
                if w1 != w2 {
                    return Err(asymmetry(at, lo, hi, w1, Some(w2)));
                }
                i += 1;
                j += 1;
            }
            (Some(x), y) if y.is_none_or(|y| x < y) => {
                let (lo, hi, w, at) = forward[i];
                return Err(asymmetry(at, lo, hi, w, None));
            }
            _ => {
                let (lo, hi, w, at) = backward[j];
                return Err(asymmetry(at, hi, lo, w, None));
            }
        }
    }
    Ok(())
}

fn asymmetry(i: usize, from: u32, to: u32, w: u64, twin: Option<u64>) -> GraphError {
    match twin {
        None => GraphError::new(
            format!("adjncy[{i}]"),
            format!("a symmetric graph: edge {from}-{to} (weight {w}) has no twin {to}-{from}"),
        ),
        Some(t) => GraphError::new(
            format!("adjwgt[{i}]"),
            format!("equal weights on both copies of edge {from}-{to}, found {w} and {t}"),
        ),
    }
}

fn checked_total(weights: &[u64], field: &str) -> Result<u64, GraphError> {
    let mut total = 0u64;
    for (i, &w) in weights.iter().enumerate() {
        total = match total.checked_add(w) {
            Some(t) if t <= MAX_TOTAL_WEIGHT => t,
            _ => {
                return Err(GraphError::new(
                    format!("{field}[{i}]"),
                    format!("the sum of {field} to stay at most 2^60, it passes it here"),
                ))
            }
        };
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path3() -> Graph {
        Graph::from_edges(vec![1, 2, 3], &[(0, 1, 5), (1, 2, 7)]).unwrap()
    }

    #[test]
    fn from_edges_merges_repeats_and_symmetrizes() {
        let g = Graph::from_edges(vec![1; 3], &[(0, 1, 2), (1, 0, 3), (2, 1, 1)]).unwrap();
        assert_eq!(g.xadj(), &[0, 1, 3, 4]);
        assert_eq!(g.adjncy(), &[1, 0, 2, 1]);
        assert_eq!(g.adjwgt(), &[5, 5, 1, 1]);
        assert_eq!(g.edge_count(), 2);
        assert_eq!(g.total_vertex_weight(), 3);
    }

    #[test]
    fn new_accepts_what_from_edges_builds() {
        let g = path3();
        let again = Graph::new(
            g.xadj().to_vec(),
            g.adjncy().to_vec(),
            g.adjwgt().to_vec(),
            g.vwgt().to_vec(),
        )
        .unwrap();
        assert_eq!(again, g);
    }

    #[test]
    fn new_rejects_bad_graphs_with_their_place() {
        let bad = |x: Vec<usize>, a: Vec<u32>, w: Vec<u64>, n: usize| {
            Graph::new(x, a, w, vec![1; n]).unwrap_err()
        };
        assert_eq!(bad(vec![0, 1], vec![1], vec![1], 2).path, "xadj");
        assert_eq!(bad(vec![1, 1, 1], vec![], vec![], 2).path, "xadj[0]");
        assert_eq!(
            bad(vec![0, 2, 1], vec![1, 0], vec![1, 1], 2).path,
            "xadj[2]"
        );
        assert_eq!(
            bad(vec![0, 1, 2], vec![1, 5], vec![1, 1], 2).path,
            "adjncy[1]"
        );
        assert_eq!(
            bad(vec![0, 1, 2], vec![0, 0], vec![1, 1], 2).path,
            "adjncy[0]"
        );
        // Asymmetric: 0 -> 1 without 1 -> 0.
        let e = bad(vec![0, 1, 1], vec![1], vec![1], 2);
        assert!(e.expected.contains("no twin"), "{e}");
        // Twin with another weight.
        let e = bad(vec![0, 1, 2], vec![1, 0], vec![2, 3], 2);
        assert_eq!(e.path, "adjwgt[0]");
        // Zero edge weight, duplicate neighbour.
        assert_eq!(
            bad(vec![0, 1, 2], vec![1, 0], vec![0, 0], 2).path,
            "adjwgt[0]"
        );
        let e = bad(vec![0, 2, 4], vec![1, 1, 0, 0], vec![1; 4], 2);
        assert!(e.expected.contains("twice"), "{e}");
    }

    #[test]
    fn from_edges_rejects_self_loops_zero_weights_and_strangers() {
        let e = Graph::from_edges(vec![1; 2], &[(0, 1, 1), (1, 1, 1)]).unwrap_err();
        assert_eq!(e.path, "edges[1]");
        assert!(e.expected.contains("self loop"));
        assert_eq!(
            Graph::from_edges(vec![1; 2], &[(0, 2, 1)])
                .unwrap_err()
                .path,
            "edges[0]"
        );
        assert_eq!(
            Graph::from_edges(vec![1; 2], &[(0, 1, 0)])
                .unwrap_err()
                .path,
            "edges[0]"
        );
    }

    #[test]
    fn weights_beyond_the_bound_are_refused() {
        let e = Graph::from_edges(vec![MAX_TOTAL_WEIGHT, 1], &[]).unwrap_err();
        assert_eq!(e.path, "vwgt[1]");
    }

    #[test]
    fn cut_and_part_weights_of_a_path() {
        let g = path3();
        assert_eq!(edge_cut(&g, &[0, 0, 0]), 0);
        assert_eq!(edge_cut(&g, &[0, 1, 1]), 5);
        assert_eq!(edge_cut(&g, &[0, 1, 0]), 12);
        assert_eq!(part_weights(&g, &[0, 1, 0], 2), vec![4, 2]);
    }
}
