//! Strongly connected components with an iterative Tarjan search.
//!
//! ePaxos execution (paper 004, Algorithm 2, lines 18-21) needs the SCCs of
//! a committed instance's dependency graph in reverse topological order:
//! an SCC is listed only after every SCC it depends on. Tarjan's algorithm
//! gives exactly that order for free, because a component is emitted when
//! its depth-first search finishes, and by then everything reachable from it
//! has been emitted.
//!
//! The search keeps its own stack of frames instead of recursing: a
//! recursive search needs one native frame per node of the longest path, and
//! a 20,000-instance dependency chain already overflows the 1 MiB stack of a
//! wasm thread. Every buffer here grows with the largest graph seen and is
//! then reused, so a [`Tarjan`] run over a graph no larger than an earlier
//! one allocates nothing.
//!
//! Edge direction: an edge `a -> b` means "a depends on b" (b must run
//! first). With that convention "reverse topological order" means
//! dependencies first.

use std::fmt;

/// "Not visited in the current search" (an index no node can get: a graph
/// has fewer than `u32::MAX` nodes).
const UNVISITED: u32 = u32::MAX;

/// Most nodes a graph may have (node ids are `u32`, one value is reserved).
pub const MAX_NODES: usize = (u32::MAX - 1) as usize;

/// A directed graph over nodes `0..node_count()`.
pub trait Graph {
    /// Number of nodes.
    fn node_count(&self) -> usize;
    /// Successors of `v` (the nodes `v` depends on). `v < node_count()`.
    fn successors(&self, v: u32) -> &[u32];
}

/// A graph in compressed sparse row form: the successors of `v` are
/// `targets[start[v]..start[v + 1]]`.
#[derive(Clone, Copy, Debug)]
pub struct Csr<'g> {
    start: &'g [u32],
    targets: &'g [u32],
}

/// Why a CSR graph was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CsrError {
    /// `start` must have one entry more than there are nodes, starting at 0.
    EmptyStart,
    /// `start` must start at 0.
    StartNotZero { first: u32 },
    /// `start[v + 1] < start[v]`.
    StartDecreases { node: u32 },
    /// The last entry of `start` must equal `targets.len()`.
    LengthMismatch { last: u32, targets: usize },
    /// A successor names a node that does not exist.
    TargetOutOfRange {
        node: u32,
        target: u32,
        nodes: usize,
    },
    /// More than [`MAX_NODES`] nodes.
    TooManyNodes { nodes: usize },
}

impl fmt::Display for CsrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CsrError::EmptyStart => write!(f, "start must have n + 1 entries (got none)"),
            CsrError::StartNotZero { first } => write!(f, "start[0] must be 0 (got {first})"),
            CsrError::StartDecreases { node } => {
                write!(
                    f,
                    "start decreases after node {node} (start must be non-decreasing)"
                )
            }
            CsrError::LengthMismatch { last, targets } => {
                write!(
                    f,
                    "last start entry {last} differs from the {targets} targets"
                )
            }
            CsrError::TargetOutOfRange {
                node,
                target,
                nodes,
            } => {
                write!(
                    f,
                    "node {node} has successor {target}, but there are {nodes} nodes"
                )
            }
            CsrError::TooManyNodes { nodes } => {
                write!(f, "{nodes} nodes exceed the limit of {MAX_NODES}")
            }
        }
    }
}

impl std::error::Error for CsrError {}

impl<'g> Csr<'g> {
    /// Check the arrays and wrap them. `O(n + e)`.
    pub fn new(start: &'g [u32], targets: &'g [u32]) -> Result<Self, CsrError> {
        let Some((&first, _)) = start.split_first() else {
            return Err(CsrError::EmptyStart);
        };
        let nodes = start.len() - 1;
        if nodes > MAX_NODES {
            return Err(CsrError::TooManyNodes { nodes });
        }
        if first != 0 {
            return Err(CsrError::StartNotZero { first });
        }
        for (v, pair) in start.windows(2).enumerate() {
            if pair[1] < pair[0] {
                return Err(CsrError::StartDecreases { node: v as u32 });
            }
        }
        let last = start[nodes];
        if last as usize != targets.len() {
            return Err(CsrError::LengthMismatch {
                last,
                targets: targets.len(),
            });
        }
        for v in 0..nodes {
            let succ = &targets[start[v] as usize..start[v + 1] as usize];
            if let Some(&target) = succ.iter().find(|&&w| w as usize >= nodes) {
                return Err(CsrError::TargetOutOfRange {
                    node: v as u32,
                    target,
                    nodes,
                });
            }
        }
        Ok(Csr { start, targets })
    }
}

impl Graph for Csr<'_> {
    fn node_count(&self) -> usize {
        self.start.len() - 1
    }
    fn successors(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.targets[self.start[v] as usize..self.start[v + 1] as usize]
    }
}

/// What the search does with a node it reaches (the caller's predicate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admit {
    /// The node belongs to the graph searched: visit it.
    Visit,
    /// Leave the node out, as if it and its edges did not exist (Algorithm
    /// 2, line 12: an executed instance is not part of the graph).
    Skip,
    /// Abandon the whole search (Algorithm 2, line 13: a dependency is not
    /// committed yet, so the graph cannot be built now).
    Stop,
}

/// Why a search produced no SCC list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TarjanError {
    /// The predicate answered [`Admit::Stop`] for `node`.
    Stopped { node: u32 },
    /// The root is not a node of the graph.
    RootOutOfRange { root: u32, nodes: usize },
    /// A successor names a node that does not exist.
    NodeOutOfRange { from: u32, to: u32, nodes: usize },
    /// More than [`MAX_NODES`] nodes.
    TooManyNodes { nodes: usize },
}

impl fmt::Display for TarjanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TarjanError::Stopped { node } => write!(f, "search stopped at node {node}"),
            TarjanError::RootOutOfRange { root, nodes } => {
                write!(f, "root {root} is not one of the {nodes} nodes")
            }
            TarjanError::NodeOutOfRange { from, to, nodes } => {
                write!(
                    f,
                    "node {from} has successor {to}, but there are {nodes} nodes"
                )
            }
            TarjanError::TooManyNodes { nodes } => {
                write!(f, "{nodes} nodes exceed the limit of {MAX_NODES}")
            }
        }
    }
}

impl std::error::Error for TarjanError {}

/// SCCs, flat: SCC `k` is `members[bounds[k]..bounds[k + 1]]`.
///
/// Invariants: `bounds[0] == 0`, `bounds` is strictly increasing (no SCC is
/// empty), its last entry is `members.len()`, and every node appears in at
/// most one SCC. SCCs are in reverse topological order of the condensation
/// (if a node of SCC `i` has an edge to a node of SCC `j != i`, then `j < i`).
/// Members of one SCC are listed in the order the search closed them
/// (deterministic for a given graph and successor order; callers that need
/// another order, such as seq, sort the slice).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SccList {
    members: Vec<u32>,
    bounds: Vec<u32>,
}

impl Default for SccList {
    fn default() -> Self {
        SccList {
            members: Vec::new(),
            bounds: vec![0],
        }
    }
}

impl SccList {
    /// Number of SCCs.
    pub fn len(&self) -> usize {
        self.bounds.len() - 1
    }
    /// No SCC at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Members of SCC `k` (`k < len()`).
    pub fn get(&self, k: usize) -> &[u32] {
        &self.members[self.bounds[k] as usize..self.bounds[k + 1] as usize]
    }
    /// SCCs in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u32]> + '_ {
        self.bounds
            .windows(2)
            .map(|w| &self.members[w[0] as usize..w[1] as usize])
    }
    /// Every member, SCC after SCC.
    pub fn members(&self) -> &[u32] {
        &self.members
    }
    /// SCC boundaries into [`members`](Self::members) (`len() + 1` entries).
    pub fn bounds(&self) -> &[u32] {
        &self.bounds
    }
    fn clear(&mut self) {
        self.members.clear();
        self.bounds.clear();
        self.bounds.push(0);
    }
}

/// One frame of the explicit depth-first stack: a node and the position of
/// the next successor to look at.
#[derive(Clone, Copy, Debug)]
struct Frame {
    node: u32,
    next_edge: u32,
}

/// Reusable Tarjan search state.
///
/// Between calls every per-node entry is back to "unvisited": a call resets
/// exactly the nodes it touched (kept in `touched`), so a search over a
/// small part of a large graph costs time in that part only, not in the
/// graph's size.
#[derive(Clone, Debug, Default)]
pub struct Tarjan {
    /// Discovery index per node, [`UNVISITED`] outside the current search.
    index: Vec<u32>,
    /// Smallest discovery index reachable through the DFS subtree and at
    /// most one back edge to a node still on `stack` (Tarjan's lowlink).
    low: Vec<u32>,
    /// Node is on `stack` (visited, SCC not emitted yet).
    on_stack: Vec<bool>,
    /// Tarjan's node stack: visited nodes whose SCC is not emitted yet.
    stack: Vec<u32>,
    /// The explicit depth-first call stack (bounded by the node count).
    frames: Vec<Frame>,
    /// Nodes given an index by the current call, to reset afterwards.
    touched: Vec<u32>,
    sccs: SccList,
}

impl Tarjan {
    /// An empty search state; buffers grow on first use.
    pub fn new() -> Self {
        Tarjan::default()
    }

    /// SCCs of the part of `graph` reachable from `root` through nodes the
    /// predicate admits, in reverse topological order.
    ///
    /// `admit` is asked about every node the search reaches for the first
    /// time, the root included (it may be asked again about a skipped node
    /// reached by another edge, so it should be a pure function of the node
    /// during one call). A skipped root gives an empty list.
    pub fn run_from<G, A>(
        &mut self,
        graph: &G,
        root: u32,
        mut admit: A,
    ) -> Result<&SccList, TarjanError>
    where
        G: Graph + ?Sized,
        A: FnMut(u32) -> Admit,
    {
        let nodes = graph.node_count();
        self.prepare(nodes)?;
        if root as usize >= nodes {
            return Err(TarjanError::RootOutOfRange { root, nodes });
        }
        let outcome = self.search(graph, root, &mut admit);
        self.reset_touched();
        outcome.map(|()| &self.sccs)
    }

    /// SCCs of the whole subgraph the predicate admits, in reverse
    /// topological order. Roots are tried in increasing node order, so the
    /// result is a function of the graph alone.
    pub fn run_all<G, A>(&mut self, graph: &G, mut admit: A) -> Result<&SccList, TarjanError>
    where
        G: Graph + ?Sized,
        A: FnMut(u32) -> Admit,
    {
        let nodes = graph.node_count();
        self.prepare(nodes)?;
        let mut outcome = Ok(());
        for root in 0..nodes as u32 {
            if self.index[root as usize] == UNVISITED {
                outcome = self.search(graph, root, &mut admit);
                if outcome.is_err() {
                    break;
                }
            }
        }
        self.reset_touched();
        outcome.map(|()| &self.sccs)
    }

    /// Grow the per-node buffers to `nodes` (never shrinks) and clear the
    /// output.
    fn prepare(&mut self, nodes: usize) -> Result<(), TarjanError> {
        if nodes > MAX_NODES {
            return Err(TarjanError::TooManyNodes { nodes });
        }
        if self.index.len() < nodes {
            self.index.resize(nodes, UNVISITED);
            self.low.resize(nodes, UNVISITED);
            self.on_stack.resize(nodes, false);
        }
        self.sccs.clear();
        Ok(())
    }

    /// Put every node this call touched back to "unvisited".
    fn reset_touched(&mut self) {
        for &v in &self.touched {
            self.index[v as usize] = UNVISITED;
            self.on_stack[v as usize] = false;
        }
        self.touched.clear();
        self.stack.clear();
        self.frames.clear();
    }

    /// Give `v` the next discovery index and open its frame.
    fn open(&mut self, v: u32) {
        let idx = self.touched.len() as u32;
        self.index[v as usize] = idx;
        self.low[v as usize] = idx;
        self.on_stack[v as usize] = true;
        self.stack.push(v);
        self.touched.push(v);
        self.frames.push(Frame {
            node: v,
            next_edge: 0,
        });
    }

    /// One depth-first search from `root` (not yet visited in this call).
    /// On error the state is left for `reset_touched`.
    fn search<G, A>(&mut self, graph: &G, root: u32, admit: &mut A) -> Result<(), TarjanError>
    where
        G: Graph + ?Sized,
        A: FnMut(u32) -> Admit,
    {
        match admit(root) {
            Admit::Visit => {}
            Admit::Skip => return Ok(()),
            Admit::Stop => return Err(TarjanError::Stopped { node: root }),
        }
        let nodes = graph.node_count();
        self.open(root);
        while let Some(frame) = self.frames.last_mut() {
            let v = frame.node;
            let succ = graph.successors(v);
            if let Some(&w) = succ.get(frame.next_edge as usize) {
                frame.next_edge += 1;
                if w as usize >= nodes {
                    return Err(TarjanError::NodeOutOfRange {
                        from: v,
                        to: w,
                        nodes,
                    });
                }
                self.edge(v, w, admit)?;
            } else {
                self.frames.pop();
                self.close(v);
            }
        }
        Ok(())
    }

    /// Follow edge `v -> w`: descend into an unvisited admitted `w`, or
    /// lower `v`'s lowlink if `w` is still on the stack (same SCC possible).
    fn edge<A>(&mut self, v: u32, w: u32, admit: &mut A) -> Result<(), TarjanError>
    where
        A: FnMut(u32) -> Admit,
    {
        let wi = self.index[w as usize];
        if wi == UNVISITED {
            match admit(w) {
                Admit::Visit => self.open(w),
                Admit::Skip => {}
                Admit::Stop => return Err(TarjanError::Stopped { node: w }),
            }
        } else if self.on_stack[w as usize] {
            let lv = &mut self.low[v as usize];
            *lv = (*lv).min(wi);
        }
        Ok(())
    }

    /// `v`'s successors are done: emit its SCC if `v` is a root of one,
    /// and pass its lowlink up to its DFS parent.
    fn close(&mut self, v: u32) {
        let lv = self.low[v as usize];
        if lv == self.index[v as usize] {
            // `v` is on the stack, so the pops end at it.
            while let Some(w) = self.stack.pop() {
                self.on_stack[w as usize] = false;
                self.sccs.members.push(w);
                if w == v {
                    break;
                }
            }
            self.sccs.bounds.push(self.sccs.members.len() as u32);
        }
        if let Some(parent) = self.frames.last() {
            let lp = &mut self.low[parent.node as usize];
            *lp = (*lp).min(lv);
        }
    }

    /// Addresses and capacities of every buffer (tests check that a run
    /// over a graph no larger than an earlier one allocates nothing).
    #[cfg(test)]
    fn buffer_fingerprint(&self) -> Vec<(usize, usize)> {
        vec![
            (self.index.as_ptr() as usize, self.index.capacity()),
            (self.low.as_ptr() as usize, self.low.capacity()),
            (self.on_stack.as_ptr() as usize, self.on_stack.capacity()),
            (self.stack.as_ptr() as usize, self.stack.capacity()),
            (self.frames.as_ptr() as usize, self.frames.capacity()),
            (self.touched.as_ptr() as usize, self.touched.capacity()),
            (
                self.sccs.members.as_ptr() as usize,
                self.sccs.members.capacity(),
            ),
            (
                self.sccs.bounds.as_ptr() as usize,
                self.sccs.bounds.capacity(),
            ),
        ]
    }
}

/// SCCs of a whole CSR graph (every node admitted), in reverse topological
/// order. Convenience for one-off use; reuse a [`Tarjan`] in loops.
pub fn sccs_of(start: &[u32], targets: &[u32]) -> Result<SccList, SccError> {
    let graph = Csr::new(start, targets).map_err(SccError::Graph)?;
    let mut tarjan = Tarjan::new();
    let list = tarjan
        .run_all(&graph, |_| Admit::Visit)
        .map_err(SccError::Search)?;
    Ok(list.clone())
}

/// Error of [`sccs_of`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SccError {
    /// The CSR arrays are malformed.
    Graph(CsrError),
    /// The search failed.
    Search(TarjanError),
}

impl fmt::Display for SccError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SccError::Graph(e) => write!(f, "graph: {e}"),
            SccError::Search(e) => write!(f, "search: {e}"),
        }
    }
}

impl std::error::Error for SccError {}

/// Paper 004 Fig. 1 rebuilt from its description (the figure itself is an
/// image), the reference graph of the SCC, commit-stream and ePaxos tests:
/// instance 0's dependency graph has six SCCs, A = {0, 1} (depends on B and
/// C), B = {2, 3, 4} (on D and E), C = {5, 6}, D = {7}, E = {8} (on F) and
/// F = {9, 10}; C, D and F are linked to no other of the three, so they could
/// run concurrently. `FIG1_DEPS[i]` lists instance i's dependencies.
pub const FIG1_DEPS: [&[u32]; 11] = [
    &[1, 2],
    &[0, 5],
    &[3],
    &[4, 7],
    &[2, 8],
    &[6],
    &[5],
    &[],
    &[9],
    &[10],
    &[9],
];

/// Seqs for [`FIG1_DEPS`], chosen so that inside each SCC seq disagrees with
/// instance order (a test then tells seq order from position order).
pub const FIG1_SEQS: [u64; 11] = [9, 8, 7, 5, 6, 2, 1, 3, 4, 3, 2];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use proptest::prelude::*;

    /// CSR arrays from an adjacency list.
    fn csr(adj: &[Vec<u32>]) -> (Vec<u32>, Vec<u32>) {
        let mut start = vec![0u32];
        let mut targets = Vec::new();
        for succ in adj {
            targets.extend_from_slice(succ);
            start.push(targets.len() as u32);
        }
        (start, targets)
    }

    /// Reachability closure by breadth-first search from every node, over
    /// the admitted nodes only.
    fn reach(adj: &[Vec<u32>], keep: &[bool]) -> Vec<Vec<bool>> {
        let n = adj.len();
        let mut out = vec![vec![false; n]; n];
        for (s, row) in out.iter_mut().enumerate() {
            if !keep[s] {
                continue;
            }
            let mut todo = vec![s];
            row[s] = true;
            while let Some(v) = todo.pop() {
                for &w in &adj[v] {
                    let w = w as usize;
                    if keep[w] && !row[w] {
                        row[w] = true;
                        todo.push(w);
                    }
                }
            }
        }
        out
    }

    /// The naive answer: SCC of v = nodes mutually reachable with v, each
    /// SCC sorted, the set of SCCs sorted (order-free comparison).
    fn naive_sccs(adj: &[Vec<u32>], keep: &[bool], from: Option<usize>) -> Vec<Vec<u32>> {
        let r = reach(adj, keep);
        let n = adj.len();
        let mut seen = vec![false; n];
        let mut out = Vec::new();
        for v in 0..n {
            let in_scope = keep[v] && from.is_none_or(|root| r[root][v]);
            if !in_scope || seen[v] {
                continue;
            }
            let comp: Vec<u32> = (0..n)
                .filter(|&w| r[v][w] && r[w][v])
                .map(|w| w as u32)
                .collect();
            for &w in &comp {
                seen[w as usize] = true;
            }
            out.push(comp);
        }
        out.sort();
        out
    }

    fn sorted_sets(list: &SccList) -> Vec<Vec<u32>> {
        let mut out: Vec<Vec<u32>> = list
            .iter()
            .map(|c| {
                let mut c = c.to_vec();
                c.sort_unstable();
                c
            })
            .collect();
        out.sort();
        out
    }

    /// Every edge between two different listed SCCs goes from a later SCC
    /// to an earlier one (dependencies first).
    fn assert_reverse_topological(adj: &[Vec<u32>], list: &SccList) {
        let mut pos = vec![usize::MAX; adj.len()];
        for (k, comp) in list.iter().enumerate() {
            for &v in comp {
                assert_eq!(pos[v as usize], usize::MAX, "node {v} listed twice");
                pos[v as usize] = k;
            }
        }
        for (a, succ) in adj.iter().enumerate() {
            for &b in succ {
                let (pa, pb) = (pos[a], pos[b as usize]);
                if pa != usize::MAX && pb != usize::MAX && pa != pb {
                    assert!(pb < pa, "edge {a}->{b}: SCC {pb} must come before SCC {pa}");
                }
            }
        }
    }

    /// A random graph: `n` nodes, each edge present with probability
    /// `per_mille / 1000`, self loops included.
    fn random_graph(seed: u64, n: usize, per_mille: u64) -> Vec<Vec<u32>> {
        let mut rng = SplitMix64::new(seed);
        (0..n)
            .map(|_| {
                (0..n as u32)
                    .filter(|_| rng.below(1000) < per_mille)
                    .collect()
            })
            .collect()
    }

    /// [`FIG1_DEPS`] as adjacency lists.
    fn fig1() -> Vec<Vec<u32>> {
        FIG1_DEPS.iter().map(|d| d.to_vec()).collect()
    }

    #[test]
    fn fig1_sccs_and_order_exactly() {
        let (start, targets) = csr(&fig1());
        let list = sccs_of(&start, &targets).unwrap();
        // Depth-first from node 0 in successor order: 0 -> 1 -> 5 -> 6
        // closes C first; back in 0, 2 -> 3 -> 4 -> 8 -> 9 -> 10 closes F,
        // then E; 3 -> 7 closes D; then B; finally A.
        let got: Vec<Vec<u32>> = list.iter().map(<[u32]>::to_vec).collect();
        assert_eq!(
            got,
            vec![
                vec![6, 5],
                vec![10, 9],
                vec![8],
                vec![7],
                vec![4, 3, 2],
                vec![1, 0]
            ],
        );
        assert_reverse_topological(&fig1(), &list);
        // C, D and F: no path between any two of them.
        let r = reach(&fig1(), &[true; 11]);
        for (a, b) in [(5, 7), (5, 9), (7, 9)] {
            assert!(!r[a][b] && !r[b][a], "{a} and {b} must be independent");
        }
    }

    #[test]
    fn fig1_from_root_skips_executed_nodes() {
        let (start, targets) = csr(&fig1());
        let g = Csr::new(&start, &targets).unwrap();
        let mut t = Tarjan::new();
        // C and F already executed: they drop out of the graph.
        let executed = [5u32, 6, 9, 10];
        let list = t
            .run_from(&g, 0, |v| {
                if executed.contains(&v) {
                    Admit::Skip
                } else {
                    Admit::Visit
                }
            })
            .unwrap();
        let got: Vec<Vec<u32>> = list.iter().map(<[u32]>::to_vec).collect();
        assert_eq!(got, vec![vec![8], vec![7], vec![4, 3, 2], vec![1, 0]]);
        // From E only E and F are reachable.
        let list = t.run_from(&g, 8, |_| Admit::Visit).unwrap();
        let got: Vec<Vec<u32>> = list.iter().map(<[u32]>::to_vec).collect();
        assert_eq!(got, vec![vec![10, 9], vec![8]]);
    }

    #[test]
    fn stop_abandons_the_search_and_leaves_state_clean() {
        let (start, targets) = csr(&fig1());
        let g = Csr::new(&start, &targets).unwrap();
        let mut t = Tarjan::new();
        let err = t
            .run_from(&g, 0, |v| if v == 7 { Admit::Stop } else { Admit::Visit })
            .unwrap_err();
        assert_eq!(err, TarjanError::Stopped { node: 7 });
        // The next search sees a clean state and the full answer.
        let list = t.run_from(&g, 0, |_| Admit::Visit).unwrap().clone();
        assert_eq!(list, sccs_of(&start, &targets).unwrap());
        assert!(t.index.iter().all(|&i| i == UNVISITED));
        assert!(t.on_stack.iter().all(|&s| !s));
    }

    #[test]
    fn skipped_root_and_bad_input_are_errors_or_empty_never_panics() {
        let (start, targets) = csr(&fig1());
        let g = Csr::new(&start, &targets).unwrap();
        let mut t = Tarjan::new();
        assert!(t.run_from(&g, 0, |_| Admit::Skip).unwrap().is_empty());
        assert_eq!(
            t.run_from(&g, 11, |_| Admit::Visit).unwrap_err(),
            TarjanError::RootOutOfRange {
                root: 11,
                nodes: 11
            }
        );
        assert_eq!(Csr::new(&[], &[]).unwrap_err(), CsrError::EmptyStart);
        assert_eq!(
            Csr::new(&[1, 1], &[0]).unwrap_err(),
            CsrError::StartNotZero { first: 1 }
        );
        assert_eq!(
            Csr::new(&[0, 2, 1], &[0]).unwrap_err(),
            CsrError::StartDecreases { node: 1 }
        );
        assert_eq!(
            Csr::new(&[0, 1], &[0, 0]).unwrap_err(),
            CsrError::LengthMismatch {
                last: 1,
                targets: 2
            }
        );
        assert_eq!(
            Csr::new(&[0, 1], &[3]).unwrap_err(),
            CsrError::TargetOutOfRange {
                node: 0,
                target: 3,
                nodes: 1
            }
        );
        // A Graph implementation that lies about its successors.
        struct Liar;
        impl Graph for Liar {
            fn node_count(&self) -> usize {
                2
            }
            fn successors(&self, _: u32) -> &[u32] {
                &[5]
            }
        }
        assert_eq!(
            t.run_all(&Liar, |_| Admit::Visit).unwrap_err(),
            TarjanError::NodeOutOfRange {
                from: 0,
                to: 5,
                nodes: 2
            }
        );
        // An empty graph has no SCC.
        assert!(sccs_of(&[0], &[]).unwrap().is_empty());
    }

    /// Runs `f` on a thread with a 128 KiB stack: a recursive search over
    /// 200,000 nodes would need far more.
    fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::Builder::new()
            .stack_size(128 * 1024)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap()
    }

    #[test]
    fn chain_of_200k_on_a_small_stack() {
        const N: u32 = 200_000;
        let list = on_small_stack(|| {
            // i depends on i + 1: the deepest possible search.
            let start: Vec<u32> = (0..=N).map(|v| v.min(N - 1)).collect();
            let targets: Vec<u32> = (1..N).collect();
            sccs_of(&start, &targets).unwrap()
        });
        assert_eq!(list.len(), N as usize);
        // Dependencies first: the last node of the chain comes first.
        for (k, comp) in list.iter().enumerate() {
            assert_eq!(comp, [N - 1 - k as u32]);
        }
    }

    #[test]
    fn cycle_of_200k_on_a_small_stack() {
        const N: u32 = 200_000;
        let list = on_small_stack(|| {
            let start: Vec<u32> = (0..=N).collect();
            let targets: Vec<u32> = (0..N).map(|v| (v + 1) % N).collect();
            sccs_of(&start, &targets).unwrap()
        });
        assert_eq!(list.len(), 1);
        let mut members = list.get(0).to_vec();
        members.sort_unstable();
        assert!(members.iter().copied().eq(0..N));
    }

    #[test]
    fn runs_reuse_buffers_and_give_the_same_answer() {
        let big = random_graph(7, 120, 20);
        let small = random_graph(8, 60, 30);
        let (bs, bt) = csr(&big);
        let (ss, st) = csr(&small);
        let (big_g, small_g) = (Csr::new(&bs, &bt).unwrap(), Csr::new(&ss, &st).unwrap());
        let mut t = Tarjan::new();
        let first = t.run_all(&big_g, |_| Admit::Visit).unwrap().clone();
        let print = t.buffer_fingerprint();
        for _ in 0..3 {
            let again = t.run_all(&small_g, |_| Admit::Visit).unwrap().clone();
            assert_eq!(
                again,
                sccs_of(&ss, &st).unwrap(),
                "state leaked between runs"
            );
            for root in 0..60 {
                t.run_from(&small_g, root, |v| {
                    if v % 5 == 4 {
                        Admit::Skip
                    } else {
                        Admit::Visit
                    }
                })
                .unwrap();
            }
            assert_eq!(
                t.run_all(&big_g, |_| Admit::Visit).unwrap(),
                &first,
                "not deterministic"
            );
            assert_eq!(t.buffer_fingerprint(), print, "a run allocated");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

        #[test]
        fn matches_naive_sccs(seed in any::<u64>(), n in 1usize..40, per_mille in 0u64..200) {
            let adj = random_graph(seed, n, per_mille);
            let (start, targets) = csr(&adj);
            let list = sccs_of(&start, &targets).unwrap();
            prop_assert_eq!(sorted_sets(&list), naive_sccs(&adj, &vec![true; n], None));
            assert_reverse_topological(&adj, &list);
            prop_assert_eq!(list.members().len(), n);
        }

        #[test]
        fn restricted_search_matches_naive(
            seed in any::<u64>(),
            n in 1usize..40,
            per_mille in 0u64..200,
            skip_mask in any::<u64>(),
        ) {
            let adj = random_graph(seed, n, per_mille);
            let (start, targets) = csr(&adj);
            let g = Csr::new(&start, &targets).unwrap();
            let keep: Vec<bool> = (0..n).map(|v| skip_mask >> (v % 64) & 1 == 0).collect();
            let mut t = Tarjan::new();
            for root in 0..n {
                let list = t
                    .run_from(&g, root as u32, |v| {
                        if keep[v as usize] { Admit::Visit } else { Admit::Skip }
                    })
                    .unwrap()
                    .clone();
                let want = if keep[root] { naive_sccs(&adj, &keep, Some(root)) } else { vec![] };
                prop_assert_eq!(sorted_sets(&list), want);
                assert_reverse_topological(&adj, &list);
                // The root's SCC closes last.
                if keep[root] {
                    prop_assert!(list.get(list.len() - 1).contains(&(root as u32)));
                }
            }
        }
    }
}
