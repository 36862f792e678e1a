//! Coarsening phase of the multilevel scheme (Karypis and Kumar 1998, the
//! paper 001 cites for METIS): repeatedly collapse a matching of the graph
//! into a smaller graph whose vertex weights are the sums of the collapsed
//! vertices and whose edge weights are the sums of the edges between them.
//! A cut of a coarse graph is exactly the cut of its projection on the finer
//! graph, so a partition found on a small graph is a valid start above.
//!
//! Matching: heavy-edge matching (visit vertices in a seeded random order,
//! match each unmatched vertex with the unmatched neighbour joined by the
//! heaviest edge), then, when more than a tenth of the vertices is still
//! unmatched (star-shaped parts of a graph, as a popular key in a scan
//! workload makes), pair unmatched vertices that share a neighbour
//! ("two-hop" matching) and pair isolated vertices with each other.
//!
//! Bounds: at most [`MAX_LEVELS`] levels; a level is kept only if it removes
//! at least one vertex, and coarsening stops once the graph has at most
//! `coarsen_to` vertices or a level removed less than 15 % of them. A
//! collapsed vertex never weighs more than `max_vertex_weight` (1.5 times the
//! average weight a vertex of the target size would have), so the coarse
//! graph stays balanceable.

use crate::graph::Graph;
use crate::rng::Rng;

/// Bound on the number of coarsening levels.
pub const MAX_LEVELS: usize = 64;

const UNMATCHED: u32 = u32::MAX;

/// One coarser graph and the map from the vertices of the level below it.
pub(crate) struct Level {
    pub(crate) graph: Graph,
    /// `cmap[v]` is the coarse vertex holding vertex `v` of the finer graph.
    pub(crate) cmap: Vec<u32>,
}

/// Coarsens `g` until it has at most `coarsen_to` vertices (see the module
/// bounds). With `restrict`, only vertices of the same part are matched, so
/// the partition `restrict` projects exactly onto every level (warm start).
pub(crate) fn coarsen(
    g: &Graph,
    coarsen_to: usize,
    restrict: Option<&[u32]>,
    rng: &mut Rng,
) -> Vec<Level> {
    let max_vertex_weight =
        (g.total_vertex_weight().saturating_mul(3) / (2 * coarsen_to.max(1) as u64)).max(1);
    let mut levels: Vec<Level> = Vec::new();
    let mut parts: Option<Vec<u32>> = restrict.map(<[u32]>::to_vec);
    while levels.len() < MAX_LEVELS {
        let current = levels.last().map_or(g, |l| &l.graph);
        let n = current.vertex_count();
        if n <= coarsen_to {
            break;
        }
        let mate = matching(current, max_vertex_weight, parts.as_deref(), rng);
        let (coarse, cmap) = contract(current, &mate);
        let cn = coarse.vertex_count();
        if cn == n {
            break;
        }
        if let Some(p) = parts.as_mut() {
            let mut coarse_parts = vec![0u32; cn];
            for (v, &c) in cmap.iter().enumerate() {
                coarse_parts[c as usize] = p[v];
            }
            *p = coarse_parts;
        }
        levels.push(Level {
            graph: coarse,
            cmap,
        });
        if cn * 100 > n * 85 {
            break;
        }
    }
    levels
}

/// `mate[v]` is the vertex matched with `v`, or `v` itself when it stays
/// alone. Two vertices are matched only if their summed weight is at most
/// `max_vertex_weight` and (with `parts`) they lie in the same part.
fn matching(g: &Graph, max_vertex_weight: u64, parts: Option<&[u32]>, rng: &mut Rng) -> Vec<u32> {
    let n = g.vertex_count();
    let mut mate = vec![UNMATCHED; n];
    let order = rng.permutation(n);
    let fits = |mate: &[u32], u: u32, v: u32| {
        mate[v as usize] == UNMATCHED
            && g.vertex_weight(u) + g.vertex_weight(v) <= max_vertex_weight
            && parts.is_none_or(|p| p[u as usize] == p[v as usize])
    };
    let mut unmatched = 0usize;
    for &u in &order {
        if mate[u as usize] != UNMATCHED {
            continue;
        }
        let mut best: Option<(u32, u64)> = None;
        for (v, w) in g.neighbors(u) {
            if fits(&mate, u, v) && best.is_none_or(|(_, bw)| w > bw) {
                best = Some((v, w));
            }
        }
        match best {
            Some((v, _)) => {
                mate[u as usize] = v;
                mate[v as usize] = u;
            }
            None => unmatched += 1,
        }
    }
    if unmatched * 10 > n {
        two_hop_matching(g, &order, &mut mate, &fits, parts);
    }
    for (v, m) in mate.iter_mut().enumerate() {
        if *m == UNMATCHED {
            *m = v as u32;
        }
    }
    mate
}

/// Pairs unmatched vertices that share a neighbour, then isolated vertices
/// with each other (per part when restricted).
fn two_hop_matching(
    g: &Graph,
    order: &[u32],
    mate: &mut [u32],
    fits: &dyn Fn(&[u32], u32, u32) -> bool,
    parts: Option<&[u32]>,
) {
    for &w in order {
        let mut pending: Option<u32> = None;
        for (u, _) in g.neighbors(w) {
            if mate[u as usize] != UNMATCHED {
                continue;
            }
            match pending {
                Some(p) if fits(mate, p, u) => {
                    mate[p as usize] = u;
                    mate[u as usize] = p;
                    pending = None;
                }
                _ => pending = Some(u),
            }
        }
    }
    let slots = parts.map_or(1, |p| p.iter().copied().max().map_or(1, |m| m as usize + 1));
    let mut pending: Vec<Option<u32>> = vec![None; slots];
    for &u in order {
        if mate[u as usize] != UNMATCHED || g.degree(u) != 0 {
            continue;
        }
        let slot = parts.map_or(0, |p| p[u as usize] as usize);
        match pending[slot] {
            Some(p) if fits(mate, p, u) => {
                mate[p as usize] = u;
                mate[u as usize] = p;
                pending[slot] = None;
            }
            _ => pending[slot] = Some(u),
        }
    }
}

/// Collapses each matched pair into one coarse vertex, numbered in order of
/// the pair's smaller vertex id; parallel edges are merged by adding their
/// weights and edges inside a pair disappear.
fn contract(g: &Graph, mate: &[u32]) -> (Graph, Vec<u32>) {
    let n = g.vertex_count();
    let mut cmap = vec![UNMATCHED; n];
    let mut reps: Vec<u32> = Vec::with_capacity(n / 2 + 1);
    for v in 0..n {
        if cmap[v] == UNMATCHED {
            let c = reps.len() as u32;
            cmap[v] = c;
            cmap[mate[v] as usize] = c;
            reps.push(v as u32);
        }
    }
    let cn = reps.len();
    let mut xadj = Vec::with_capacity(cn + 1);
    let mut adjncy: Vec<u32> = Vec::with_capacity(g.adjncy().len());
    let mut adjwgt: Vec<u64> = Vec::with_capacity(g.adjncy().len());
    let mut vwgt = Vec::with_capacity(cn);
    // slot[c] = position of coarse neighbour c in adjncy, valid when it lies in
    // the current row (at or after row_start).
    let mut slot = vec![usize::MAX; cn];
    xadj.push(0);
    for (c, &v) in reps.iter().enumerate() {
        let u = mate[v as usize];
        let row_start = adjncy.len();
        let members: &[u32] = if u == v { &[v][..] } else { &[v, u][..] };
        let mut weight = 0u64;
        for &x in members {
            weight += g.vertex_weight(x);
            for (y, w) in g.neighbors(x) {
                let cy = cmap[y as usize];
                if cy as usize == c {
                    continue;
                }
                let s = slot[cy as usize];
                if s != usize::MAX && s >= row_start {
                    adjwgt[s] += w;
                } else {
                    slot[cy as usize] = adjncy.len();
                    adjncy.push(cy);
                    adjwgt.push(w);
                }
            }
        }
        vwgt.push(weight);
        xadj.push(adjncy.len());
    }
    (Graph::from_parts_trusted(xadj, adjncy, adjwgt, vwgt), cmap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::edge_cut;

    fn grid(side: u32) -> Graph {
        let id = |r: u32, c: u32| r * side + c;
        let mut edges = Vec::new();
        for r in 0..side {
            for c in 0..side {
                if c + 1 < side {
                    edges.push((id(r, c), id(r, c + 1), 1 + (r + c) as u64 % 3));
                }
                if r + 1 < side {
                    edges.push((id(r, c), id(r + 1, c), 1));
                }
            }
        }
        Graph::from_edges(vec![1; (side * side) as usize], &edges).unwrap()
    }

    /// The coarse graphs are valid graphs, keep the total vertex weight, and
    /// a coarse partition's cut equals the cut of its projection.
    #[test]
    fn levels_are_valid_and_preserve_weight_and_cut() {
        let g = grid(20);
        let levels = coarsen(&g, 20, None, &mut Rng::new(3));
        assert!(levels.len() >= 3, "only {} levels", levels.len());
        let mut finer = &g;
        for level in &levels {
            let c = &level.graph;
            Graph::new(
                c.xadj().to_vec(),
                c.adjncy().to_vec(),
                c.adjwgt().to_vec(),
                c.vwgt().to_vec(),
            )
            .expect("a coarse graph is a valid graph");
            assert_eq!(c.total_vertex_weight(), g.total_vertex_weight());
            assert!(c.vertex_count() < finer.vertex_count());
            let coarse_part: Vec<u32> = (0..c.vertex_count() as u32).map(|v| v % 3).collect();
            let projected: Vec<u32> = level
                .cmap
                .iter()
                .map(|&cv| coarse_part[cv as usize])
                .collect();
            assert_eq!(edge_cut(c, &coarse_part), edge_cut(finer, &projected));
            finer = c;
        }
    }

    #[test]
    fn restricted_coarsening_never_mixes_parts() {
        let g = grid(16);
        let part: Vec<u32> = (0..256).map(|v| (v % 16 / 4) as u32).collect();
        let levels = coarsen(&g, 8, Some(&part), &mut Rng::new(5));
        assert!(!levels.is_empty());
        let mut finer_part = part.clone();
        for level in &levels {
            let mut coarse = vec![u32::MAX; level.graph.vertex_count()];
            for (v, &c) in level.cmap.iter().enumerate() {
                let slot = &mut coarse[c as usize];
                assert!(*slot == u32::MAX || *slot == finer_part[v], "parts mixed");
                *slot = finer_part[v];
            }
            finer_part = coarse;
        }
    }

    /// A star (one popular key co-accessed with many others) still shrinks,
    /// thanks to two-hop matching of its leaves.
    #[test]
    fn stars_and_isolated_vertices_shrink() {
        let mut edges: Vec<(u32, u32, u64)> = (1..200).map(|v| (0, v, 1)).collect();
        edges.push((1, 2, 1));
        let g = Graph::from_edges(vec![1; 400], &edges).unwrap();
        let levels = coarsen(&g, 10, None, &mut Rng::new(1));
        let first = levels[0].graph.vertex_count();
        assert!(first < 260, "first level kept {first} of 400 vertices");
    }

    #[test]
    fn no_collapsed_vertex_exceeds_the_weight_bound() {
        let g = grid(20);
        let levels = coarsen(&g, 40, None, &mut Rng::new(9));
        let bound = (g.total_vertex_weight() * 3 / 80).max(1);
        for level in &levels {
            assert!(level.graph.max_vertex_weight() <= bound);
        }
    }
}
