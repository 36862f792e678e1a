//! Initial k-way partition by recursive bisection, each bisection itself
//! multilevel: coarsen, grow a region from a random seed vertex (greedy graph
//! growing, several seeded trials, the best kept), and improve the bisection
//! with Fiduccia-Mattheyses (FM) passes on every level on the way back up.
//!
//! Bounds: `trials` independent multilevel tries per bisection, each with
//! `trials` growings, `passes` FM passes per level, and
//! an FM pass stops after `clamp(n / 100, 15, 100)` moves without a better
//! state (then rolls back to the best state it saw), as METIS does.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::coarsen::coarsen;
use crate::graph::Graph;
use crate::rng::Rng;

/// Vertex count a bisection coarsens to before growing its regions.
const BISECT_COARSEN_TO: usize = 40;

/// Target and largest allowed weight of each side of a bisection.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sides {
    target: [u64; 2],
    max: [u64; 2],
}

impl Sides {
    /// Side 0 aims at `num / den` of `total`, side 1 at the rest; each may
    /// exceed its target by the factor `ub_permille / 1000` (rounded up).
    pub(crate) fn new(total: u64, num: u64, den: u64, ub_permille: u64) -> Sides {
        let t0 = (total as u128 * num as u128 / den as u128) as u64;
        let t1 = total - t0;
        let max = |t: u64| (t as u128 * ub_permille as u128).div_ceil(1000) as u64;
        Sides {
            target: [t0, t1],
            max: [max(t0), max(t1)],
        }
    }

    /// How far the side weights `w` are above their bounds, summed.
    fn excess(&self, w: [u64; 2]) -> u64 {
        w[0].saturating_sub(self.max[0]) + w[1].saturating_sub(self.max[1])
    }
}

/// Work bounds shared by the phases.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Effort {
    pub(crate) trials: u32,
    pub(crate) passes: u32,
}

/// Recursive bisection of `g` into `k` parts (`k0 = k / 2` parts on side 0,
/// the rest on side 1, side 0's weight target `k0 / k` of the total). Each
/// bisection allows `ub_permille`; the caller spreads its k-way tolerance over
/// the `ceil(log2 k)` levels of recursion.
pub(crate) fn recursive_bisection(
    g: &Graph,
    k: u32,
    ub_permille: u64,
    effort: Effort,
    rng: &mut Rng,
) -> Vec<u32> {
    let mut part = vec![0u32; g.vertex_count()];
    let ids: Vec<u32> = (0..g.vertex_count() as u32).collect();
    split_recursively(g, &ids, k, 0, &mut part, ub_permille, effort, rng);
    part
}

#[allow(clippy::too_many_arguments)] // one recursion step: the graph, where it sits, and the shared knobs
fn split_recursively(
    g: &Graph,
    ids: &[u32],
    k: u32,
    first_part: u32,
    part: &mut [u32],
    ub_permille: u64,
    effort: Effort,
    rng: &mut Rng,
) {
    if k <= 1 || g.vertex_count() == 0 {
        for &orig in ids {
            part[orig as usize] = first_part;
        }
        return;
    }
    let k0 = k / 2;
    let sides = Sides::new(g.total_vertex_weight(), k0 as u64, k as u64, ub_permille);
    let side = bisect(g, sides, effort, rng);
    let [(g0, ids0), (g1, ids1)] = split(g, &side, ids);
    split_recursively(&g0, &ids0, k0, first_part, part, ub_permille, effort, rng);
    split_recursively(
        &g1,
        &ids1,
        k - k0,
        first_part + k0,
        part,
        ub_permille,
        effort,
        rng,
    );
}

/// Multilevel bisection, `trials` times from independent coarsenings (the
/// matchings depend on the random stream), keeping the best result (least
/// excess weight, then least cut; the first on ties).
pub(crate) fn bisect(g: &Graph, sides: Sides, effort: Effort, rng: &mut Rng) -> Vec<u8> {
    best_of_trials(g, sides, effort, rng, |rng| {
        bisect_once(g, sides, effort, rng)
    })
}

/// One multilevel bisection: coarsen, grow and refine the best of `trials`
/// regions on the coarsest graph, then project and FM-refine level by level.
fn bisect_once(g: &Graph, sides: Sides, effort: Effort, rng: &mut Rng) -> Vec<u8> {
    let levels = coarsen(g, BISECT_COARSEN_TO, None, rng);
    let coarsest = levels.last().map_or(g, |l| &l.graph);
    let mut side = best_grown(coarsest, sides, effort, rng);
    for i in (0..levels.len()).rev() {
        let finer = if i == 0 { g } else { &levels[i - 1].graph };
        side = levels[i].cmap.iter().map(|&c| side[c as usize]).collect();
        fm_refine(finer, &mut side, sides, effort.passes);
    }
    side
}

/// The best (least excess weight, then least cut; the first on ties) of
/// `trials` grown and FM-refined bisections.
fn best_grown(g: &Graph, sides: Sides, effort: Effort, rng: &mut Rng) -> Vec<u8> {
    best_of_trials(g, sides, effort, rng, |rng| {
        let mut side = grow(g, sides, rng);
        fm_refine(g, &mut side, sides, effort.passes);
        side
    })
}

/// Runs `make` `effort.trials` times (at least once), in order on the one
/// random stream, and keeps the bisection with the least excess weight, then
/// the least cut; the first on ties.
fn best_of_trials(
    g: &Graph,
    sides: Sides,
    effort: Effort,
    rng: &mut Rng,
    mut make: impl FnMut(&mut Rng) -> Vec<u8>,
) -> Vec<u8> {
    let mut best: Option<((u64, u64), Vec<u8>)> = None;
    for _ in 0..effort.trials.max(1) {
        let side = make(rng);
        let score = (
            sides.excess(side_weights(g, &side)),
            bisection_cut(g, &side),
        );
        if best.as_ref().is_none_or(|(s, _)| score < *s) {
            best = Some((score, side));
        }
    }
    best.map(|(_, side)| side).unwrap_or_default()
}

/// Greedy graph growing: all vertices start on side 1; from a random seed,
/// repeatedly move to side 0 the vertex whose move lowers the cut most (the
/// largest `weight to side 0 - weight to side 1`), until side 0 reaches its
/// target. A vertex that would push side 0 past its bound is skipped; when
/// the region has no frontier left (another component), a new random seed
/// starts.
fn grow(g: &Graph, sides: Sides, rng: &mut Rng) -> Vec<u8> {
    let n = g.vertex_count();
    let mut side = vec![1u8; n];
    let mut skipped = vec![false; n];
    let mut gain: Vec<i64> = (0..n as u32)
        .map(|v| -(g.neighbors(v).map(|(_, w)| w as i64).sum::<i64>()))
        .collect();
    let mut heap: BinaryHeap<(i64, Reverse<u32>)> = BinaryHeap::new();
    let order = rng.permutation(n);
    let mut next_seed = 0usize;
    let mut w0 = 0u64;
    while w0 < sides.target[0] {
        let v = match pop_valid(&mut heap, |v, g_| {
            side[v] == 1 && !skipped[v] && gain[v] == g_
        }) {
            Some(v) => v,
            None => {
                while next_seed < n
                    && (side[order[next_seed] as usize] == 0 || skipped[order[next_seed] as usize])
                {
                    next_seed += 1;
                }
                match order.get(next_seed) {
                    Some(&v) => v,
                    None => break,
                }
            }
        };
        let vw = g.vertex_weight(v);
        if w0 + vw > sides.max[0] {
            skipped[v as usize] = true;
            continue;
        }
        side[v as usize] = 0;
        w0 += vw;
        for (u, w) in g.neighbors(v) {
            if side[u as usize] == 1 && !skipped[u as usize] {
                gain[u as usize] += 2 * w as i64;
                heap.push((gain[u as usize], Reverse(u)));
            }
        }
    }
    side
}

/// Pops heap entries until one is still current (`valid(v, gain)`), and
/// returns its vertex.
fn pop_valid(
    heap: &mut BinaryHeap<(i64, Reverse<u32>)>,
    valid: impl Fn(usize, i64) -> bool,
) -> Option<u32> {
    while let Some((g, Reverse(v))) = heap.pop() {
        if valid(v as usize, g) {
            return Some(v);
        }
    }
    None
}

fn side_weights(g: &Graph, side: &[u8]) -> [u64; 2] {
    let mut w = [0u64; 2];
    for (v, &s) in side.iter().enumerate() {
        w[s as usize] += g.vertex_weight(v as u32);
    }
    w
}

fn bisection_cut(g: &Graph, side: &[u8]) -> u64 {
    let mut cut = 0;
    for v in 0..g.vertex_count() as u32 {
        for (u, w) in g.neighbors(v) {
            if v < u && side[v as usize] != side[u as usize] {
                cut += w;
            }
        }
    }
    cut
}

/// Balances the bisection when a side is above its bound, then runs up to
/// `passes` FM passes (stopping after a pass that found no better state),
/// then balances again (FM may leave a side up to one average vertex weight
/// over its target).
pub(crate) fn fm_refine(g: &Graph, side: &mut [u8], sides: Sides, passes: u32) {
    balance(g, side, sides);
    for _ in 0..passes {
        if !fm_pass(g, side, sides) {
            break;
        }
    }
    balance(g, side, sides);
}

/// `ext - int` of every vertex: the cut change of moving it across.
fn gains(g: &Graph, side: &[u8]) -> (Vec<i64>, Vec<bool>, u64) {
    let n = g.vertex_count();
    let mut gain = vec![0i64; n];
    let mut boundary = vec![false; n];
    let mut cut = 0u64;
    for v in 0..n as u32 {
        let (mut ext, mut int) = (0i64, 0i64);
        for (u, wt) in g.neighbors(v) {
            if side[u as usize] == side[v as usize] {
                int += wt as i64;
            } else {
                ext += wt as i64;
                cut += wt;
            }
        }
        gain[v as usize] = ext - int;
        boundary[v as usize] = ext > 0;
    }
    (gain, boundary, cut / 2)
}

/// Moves vertices off a side above its bound, best gain first, skipping those
/// that would push the other side over its own bound, until the side fits.
fn balance(g: &Graph, side: &mut [u8], sides: Sides) {
    let mut w = side_weights(g, side);
    let heavy = match (w[0] > sides.max[0], w[1] > sides.max[1]) {
        (true, _) => 0usize,
        (_, true) => 1,
        _ => return,
    };
    let light = 1 - heavy;
    let (mut gain, _, _) = gains(g, side);
    let mut heap: BinaryHeap<(i64, Reverse<u32>)> = (0..g.vertex_count() as u32)
        .filter(|&v| side[v as usize] as usize == heavy)
        .map(|v| (gain[v as usize], Reverse(v)))
        .collect();
    while w[heavy] > sides.max[heavy] {
        let Some(v) = pop_valid(&mut heap, |v, g_| {
            side[v] as usize == heavy && gain[v] == g_
        }) else {
            break;
        };
        let vw = g.vertex_weight(v);
        if vw == 0 || w[light] + vw > sides.max[light] {
            continue;
        }
        side[v as usize] = light as u8;
        w[heavy] -= vw;
        w[light] += vw;
        for (u, wt) in g.neighbors(v) {
            if side[u as usize] as usize == heavy {
                gain[u as usize] += 2 * wt as i64;
                heap.push((gain[u as usize], Reverse(u)));
            }
        }
    }
}

/// One Fiduccia-Mattheyses pass, with METIS's balance rule: always move the
/// best-gain boundary vertex of the side that is further above its target
/// (even at a negative gain: that lets the pass climb out of a local
/// minimum), each vertex at most once, and keep the prefix of moves that
/// reached the lowest cut among states whose distance from the target is at
/// most the starting distance plus one average vertex weight (on equal cuts,
/// the closer to the target). Returns whether the pass improved the state.
fn fm_pass(g: &Graph, side: &mut [u8], sides: Sides) -> bool {
    let n = g.vertex_count();
    if n == 0 {
        return false;
    }
    let mut w = side_weights(g, side);
    let (mut gain, boundary, mut cut) = gains(g, side);
    let mut heaps: [BinaryHeap<(i64, Reverse<u32>)>; 2] = [BinaryHeap::new(), BinaryHeap::new()];
    for v in 0..n as u32 {
        if boundary[v as usize] {
            heaps[side[v as usize] as usize].push((gain[v as usize], Reverse(v)));
        }
    }
    let target0 = sides.target[0] as i64;
    let diff = |w: [u64; 2]| (w[0] as i64 - target0).unsigned_abs();
    let slack = (g.total_vertex_weight() / n as u64).max(1);
    let start_diff = diff(w);
    let (mut best_cut, mut best_diff, mut best_len) = (cut, start_diff, 0usize);
    let mut locked = vec![false; n];
    let mut moves: Vec<u32> = Vec::new();
    let limit = (n / 100).clamp(15, 100);
    let mut since_best = 0usize;
    loop {
        let above0 = w[0] as i64 - sides.target[0] as i64;
        let above1 = w[1] as i64 - sides.target[1] as i64;
        let from = if above0 >= above1 { 0 } else { 1 };
        let Some(v) = pop_valid(&mut heaps[from], |v, g_| {
            !locked[v] && side[v] as usize == from && gain[v] == g_
        }) else {
            break;
        };
        locked[v as usize] = true;
        side[v as usize] = (1 - from) as u8;
        let vw = g.vertex_weight(v);
        w[from] -= vw;
        w[1 - from] += vw;
        cut = (cut as i64 - gain[v as usize]) as u64;
        for (u, wt) in g.neighbors(v) {
            let ui = u as usize;
            if locked[ui] {
                continue;
            }
            // u on the side v left gains from following it; u on the side v
            // joined loses an external edge.
            gain[ui] += if side[ui] as usize == from {
                2 * wt as i64
            } else {
                -2 * wt as i64
            };
            heaps[side[ui] as usize].push((gain[ui], Reverse(u)));
        }
        moves.push(v);
        let d = diff(w);
        if (cut < best_cut && d <= start_diff + slack) || (cut == best_cut && d < best_diff) {
            (best_cut, best_diff, best_len) = (cut, d, moves.len());
            since_best = 0;
        } else {
            since_best += 1;
            if since_best > limit {
                break;
            }
        }
    }
    for &v in moves[best_len..].iter().rev() {
        side[v as usize] ^= 1;
    }
    best_len > 0
}

/// The subgraphs induced by each side, with the original ids of their
/// vertices (edges across the sides are dropped).
fn split(g: &Graph, side: &[u8], ids: &[u32]) -> [(Graph, Vec<u32>); 2] {
    let mut local = vec![0u32; g.vertex_count()];
    let mut members: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
    for (v, &s) in side.iter().enumerate() {
        local[v] = members[s as usize].len() as u32;
        members[s as usize].push(v as u32);
    }
    let build = |s: usize| {
        let mut xadj = vec![0usize];
        let mut adjncy = Vec::new();
        let mut adjwgt = Vec::new();
        let mut vwgt = Vec::with_capacity(members[s].len());
        for &v in &members[s] {
            for (u, w) in g.neighbors(v) {
                if side[u as usize] as usize == s {
                    adjncy.push(local[u as usize]);
                    adjwgt.push(w);
                }
            }
            xadj.push(adjncy.len());
            vwgt.push(g.vertex_weight(v));
        }
        let orig: Vec<u32> = members[s].iter().map(|&v| ids[v as usize]).collect();
        (Graph::from_parts_trusted(xadj, adjncy, adjwgt, vwgt), orig)
    };
    [build(0), build(1)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::edge_cut;

    const EFFORT: Effort = Effort {
        trials: 4,
        passes: 8,
    };

    /// Two cliques of 30 joined by 3 light edges: the bisection is the pair
    /// of cliques.
    #[test]
    fn bisection_finds_two_cliques() {
        let mut edges = Vec::new();
        for base in [0u32, 30] {
            for a in 0..30 {
                for b in a + 1..30 {
                    edges.push((base + a, base + b, 2));
                }
            }
        }
        edges.extend([(0, 30, 1), (5, 40, 1), (17, 59, 1)]);
        let g = Graph::from_edges(vec![1; 60], &edges).unwrap();
        for seed in 0..10 {
            let side = bisect(&g, Sides::new(60, 1, 2, 1030), EFFORT, &mut Rng::new(seed));
            assert_eq!(bisection_cut(&g, &side), 3, "seed {seed}");
            assert_eq!(side_weights(&g, &side), [30, 30]);
        }
    }

    /// FM never leaves a bisection worse than it found it, and repairs an
    /// unbalanced one.
    #[test]
    fn fm_improves_and_balances() {
        let n = 200u32;
        let edges: Vec<(u32, u32, u64)> = (0..n)
            .flat_map(|v| [(v, (v + 1) % n, 3), (v, (v + 7) % n, 1)])
            .collect();
        let g = Graph::from_edges(vec![1; n as usize], &edges).unwrap();
        let sides = Sides::new(200, 1, 2, 1030);
        let mut rng = Rng::new(4);
        for _ in 0..20 {
            let mut side: Vec<u8> = (0..n).map(|_| (rng.below(2)) as u8).collect();
            let before = (
                sides.excess(side_weights(&g, &side)),
                bisection_cut(&g, &side),
            );
            fm_refine(&g, &mut side, sides, 10);
            let after = (
                sides.excess(side_weights(&g, &side)),
                bisection_cut(&g, &side),
            );
            assert!(after <= before, "{after:?} worse than {before:?}");
            assert_eq!(after.0, 0, "left unbalanced: {:?}", side_weights(&g, &side));
        }
        // All on one side: FM must move half across.
        let mut side = vec![0u8; n as usize];
        fm_refine(&g, &mut side, sides, 10);
        assert_eq!(sides.excess(side_weights(&g, &side)), 0);
    }

    #[test]
    fn recursive_bisection_gives_every_part_its_share() {
        let n = 300u32;
        let edges: Vec<(u32, u32, u64)> = (0..n).map(|v| (v, (v + 1) % n, 1)).collect();
        let g = Graph::from_edges(vec![1; n as usize], &edges).unwrap();
        for k in [2u32, 3, 5, 8] {
            let part = recursive_bisection(&g, k, 1010, EFFORT, &mut Rng::new(k as u64));
            let mut w = vec![0u64; k as usize];
            for &p in &part {
                w[p as usize] += 1;
            }
            let target = n as u64 / k as u64;
            for (p, &wp) in w.iter().enumerate() {
                assert!(
                    wp * 100 >= target * 90 && wp * 100 <= target * 110,
                    "k {k} part {p}: {w:?}"
                );
            }
            // A ring cut into k arcs cuts about k edges.
            assert!(
                edge_cut(&g, &part) <= 2 * k as u64,
                "k {k}: cut {}",
                edge_cut(&g, &part)
            );
        }
    }

    #[test]
    fn split_keeps_inner_edges_only() {
        let g = Graph::from_edges(vec![1, 2, 3, 4], &[(0, 1, 5), (1, 2, 6), (2, 3, 7)]).unwrap();
        let [(g0, ids0), (g1, ids1)] = split(&g, &[0, 0, 1, 1], &[10, 11, 12, 13]);
        assert_eq!(ids0, vec![10, 11]);
        assert_eq!(ids1, vec![12, 13]);
        assert_eq!(g0.edge_count(), 1);
        assert_eq!(g1.adjwgt(), &[7, 7]);
        assert_eq!(g1.vwgt(), &[3, 4]);
    }
}
