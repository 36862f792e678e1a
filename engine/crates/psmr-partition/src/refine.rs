//! k-way refinement during uncoarsening: explicit rebalancing of overweight
//! parts, then greedy boundary refinement driven by a priority queue.
//!
//! * **Rebalance**: while a part weighs more than its bound, move its
//!   vertices out, cheapest first (the vertex whose move to a part with room
//!   loses the least cut, preferring parts it is connected to; otherwise the
//!   lightest part with room). At most `REBALANCE_ROUNDS` rounds.
//! * **Greedy refinement** (the scheme of METIS's k-way refinement): a pass
//!   queues the vertices tied at least as much to other parts as to their
//!   own (only they can move) by `external - internal` edge weight
//!   (ties in a seeded random order) and takes them best first; each is moved
//!   to the neighbouring part it is most connected to when that lowers the
//!   cut, or keeps it and evens the two parts out. A move must keep the
//!   destination within its bound and the source above its floor, unless it
//!   evens the two parts out. Neighbours of a moved vertex are re-queued
//!   (each vertex is taken at most once per pass), so improvements cascade
//!   within a pass. The bound is the configured one, or the heaviest part's
//!   weight at the start if that is higher (coarse levels may be uneven; the
//!   rebalancing of the finer levels repairs it). At most `passes` passes;
//!   stops after a pass that moved nothing or left the cut unchanged. Each
//!   move lowers the cut, or keeps it and strictly lowers the sum of squared
//!   part weights, so a pass cannot cycle.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::graph::Graph;
use crate::rng::Rng;

/// Bound on rebalancing rounds per call.
const REBALANCE_ROUNDS: usize = 8;

/// A partition being refined: the part of each vertex, the part weights and
/// their bounds, and a scratch table of connection weights.
pub(crate) struct KWay<'g> {
    g: &'g Graph,
    pub(crate) part: Vec<u32>,
    pub(crate) weights: Vec<u64>,
    max: Vec<u64>,
    /// conn[p]: weight from the vertex being examined to part p (only the
    /// entries listed in `touched` are non-zero).
    conn: Vec<u64>,
    touched: Vec<u32>,
}

impl<'g> KWay<'g> {
    pub(crate) fn new(g: &'g Graph, part: Vec<u32>, max: Vec<u64>) -> Self {
        let k = max.len();
        let mut weights = vec![0u64; k];
        for (v, &p) in part.iter().enumerate() {
            weights[p as usize] += g.vertex_weight(v as u32);
        }
        KWay {
            g,
            part,
            weights,
            max,
            conn: vec![0; k],
            touched: Vec::new(),
        }
    }

    /// Whether any part is above its bound.
    pub(crate) fn overweight(&self) -> bool {
        self.weights.iter().zip(&self.max).any(|(w, m)| w > m)
    }

    /// Fills `conn`/`touched` with v's connection weight to each part.
    fn connect(&mut self, v: u32) {
        for &p in &self.touched {
            self.conn[p as usize] = 0;
        }
        self.touched.clear();
        for (u, w) in self.g.neighbors(v) {
            let p = self.part[u as usize];
            if self.conn[p as usize] == 0 {
                self.touched.push(p);
            }
            self.conn[p as usize] += w;
        }
    }

    fn fits(&self, p: u32, vw: u64) -> bool {
        self.weights[p as usize] + vw <= self.max[p as usize]
    }

    fn move_to(&mut self, v: u32, to: u32) {
        let vw = self.g.vertex_weight(v);
        let from = self.part[v as usize];
        self.weights[from as usize] -= vw;
        self.weights[to as usize] += vw;
        self.part[v as usize] = to;
    }

    /// Greedy boundary refinement (see the module documentation).
    pub(crate) fn refine(&mut self, passes: u32, rng: &mut Rng) {
        let n = self.g.vertex_count();
        let k = self.max.len() as u64;
        let total: u64 = self.weights.iter().sum();
        let heaviest = self.weights.iter().copied().max().unwrap_or(0);
        let bound = self.max.iter().copied().max().unwrap_or(0).max(heaviest);
        let target = total / k.max(1);
        // floor = target / (bound / target): the source may not drop below it.
        let floor = if bound == 0 {
            0
        } else {
            (target as u128 * target as u128 / bound as u128) as u64
        };
        let (mut internal, mut external) = (vec![0u64; n], vec![0u64; n]);
        let mut key_of = vec![0i64; n];
        for _ in 0..passes {
            let rank = rng.permutation(n);
            let mut heap: BinaryHeap<(i64, u32, u32)> = BinaryHeap::new();
            // 0: not queued, 1: queued, 2: taken this pass.
            let mut status = vec![0u8; n];
            for v in 0..n as u32 {
                let (int, ext) = self.internal_external(v);
                internal[v as usize] = int;
                external[v as usize] = ext;
                // Only a vertex at least as tied outside as inside can move.
                if ext > 0 && ext >= int {
                    status[v as usize] = 1;
                    key_of[v as usize] = ext as i64 - int as i64;
                    heap.push((key_of[v as usize], rank[v as usize], v));
                }
            }
            let (mut moved, mut gained) = (0usize, 0u64);

            while let Some((key, _, v)) = heap.pop() {
                let vi = v as usize;
                if status[vi] != 1 || key != key_of[vi] {
                    continue;
                }
                status[vi] = 2;
                let Some((to, gain)) = self.greedy_target(v, bound, floor) else {
                    continue;
                };
                let from = self.part[vi];
                self.move_to(v, to);
                moved += 1;
                gained += gain;
                internal[vi] = self.conn[to as usize];
                external[vi] = self.g.neighbors(v).map(|(_, w)| w).sum::<u64>() - internal[vi];
                for (u, w) in self.g.neighbors(v) {
                    let ui = u as usize;
                    let pu = self.part[ui];
                    if pu == from {
                        internal[ui] -= w;
                        external[ui] += w;
                    } else if pu == to {
                        internal[ui] += w;
                        external[ui] -= w;
                    }
                    if status[ui] == 2 {
                        continue;
                    }
                    if external[ui] > 0 && external[ui] >= internal[ui] {
                        status[ui] = 1;
                        key_of[ui] = external[ui] as i64 - internal[ui] as i64;
                        heap.push((key_of[ui], rank[ui], u));
                    } else {
                        status[ui] = 0;
                    }
                }
            }
            if moved == 0 || gained == 0 {
                break;
            }
        }
    }

    /// Weight of v's edges inside its part and to other parts.
    fn internal_external(&self, v: u32) -> (u64, u64) {
        let p = self.part[v as usize];
        let (mut int, mut ext) = (0, 0);
        for (u, w) in self.g.neighbors(v) {
            if self.part[u as usize] == p {
                int += w;
            } else {
                ext += w;
            }
        }
        (int, ext)
    }

    /// The part v should move to under the greedy rule, with the cut gain:
    /// the connected part of largest connection weight among those where the
    /// move lowers the cut within the bounds, or keeps the cut and evens out
    /// the two parts (ties: the lighter part).
    fn greedy_target(&mut self, v: u32, bound: u64, floor: u64) -> Option<(u32, u64)> {
        self.connect(v);
        let from = self.part[v as usize];
        let vw = self.g.vertex_weight(v);
        let internal = self.conn[from as usize];
        let from_after = self.weights[from as usize] - vw;
        let mut best: Option<(u64, u32)> = None;
        for &to in &self.touched {
            if to == from {
                continue;
            }
            let c = self.conn[to as usize];
            let wt = self.weights[to as usize];
            let evens = wt < from_after;
            let allowed = if c > internal {
                (from_after >= floor || evens) && (wt + vw <= bound || evens)
            } else {
                c == internal && evens && vw > 0
            };
            let better =
                best.is_none_or(|(bc, bp)| c > bc || (c == bc && wt < self.weights[bp as usize]));
            if allowed && better {
                best = Some((c, to));
            }
        }
        best.map(|(c, to)| (to, c - internal))
    }

    /// Explicit rebalancing (see the module documentation).
    pub(crate) fn rebalance(&mut self) {
        for _ in 0..REBALANCE_ROUNDS {
            if !self.overweight() {
                return;
            }
            // Candidates: every vertex of an overweight part, keyed by the cut
            // change of its best move (larger is better).
            let mut heap: BinaryHeap<(i64, Reverse<u32>)> = BinaryHeap::new();
            for v in 0..self.g.vertex_count() as u32 {
                let p = self.part[v as usize];
                if self.weights[p as usize] > self.max[p as usize] && self.g.vertex_weight(v) > 0 {
                    let (gain, _) = self.best_destination(v);
                    heap.push((gain, Reverse(v)));
                }
            }
            while let Some((gain, Reverse(v))) = heap.pop() {
                let from = self.part[v as usize];
                if self.weights[from as usize] <= self.max[from as usize] {
                    continue;
                }
                let (now, to) = self.best_destination(v);
                if now != gain {
                    heap.push((now, Reverse(v)));
                    continue;
                }
                if let Some(to) = to {
                    self.move_to(v, to);
                }
            }
        }
    }

    /// The best part to move v to out of its own, among parts with room:
    /// connected parts by connection weight, else the lightest part; with the
    /// cut change of that move (`None` when no part has room).
    fn best_destination(&mut self, v: u32) -> (i64, Option<u32>) {
        self.connect(v);
        let from = self.part[v as usize];
        let vw = self.g.vertex_weight(v);
        let internal = self.conn[from as usize] as i64;
        let mut best: Option<(u64, u32)> = None;
        for &p in &self.touched {
            if p != from && self.fits(p, vw) && best.is_none_or(|(c, _)| self.conn[p as usize] > c)
            {
                best = Some((self.conn[p as usize], p));
            }
        }
        if let Some((c, p)) = best {
            return (c as i64 - internal, Some(p));
        }
        let lightest = (0..self.max.len() as u32)
            .filter(|&p| p != from && self.fits(p, vw))
            .min_by_key(|&p| (self.weights[p as usize], p));
        (-internal, lightest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::edge_cut;

    fn ring(n: u32) -> Graph {
        let edges: Vec<(u32, u32, u64)> = (0..n).map(|v| (v, (v + 1) % n, 1)).collect();
        Graph::from_edges(vec![1; n as usize], &edges).unwrap()
    }

    #[test]
    fn rebalance_empties_overweight_parts_into_light_ones() {
        let g = ring(100);
        let part = vec![0u32; 100];
        let mut kw = KWay::new(&g, part, vec![26; 4]);
        kw.rebalance();
        assert!(!kw.overweight(), "{:?}", kw.weights);
        assert_eq!(kw.weights.iter().sum::<u64>(), 100);
    }

    #[test]
    fn refine_never_raises_the_cut_nor_breaks_bounds() {
        let g = ring(120);
        let mut rng = Rng::new(2);
        for _ in 0..10 {
            let part: Vec<u32> = (0..120).map(|_| rng.below(3) as u32).collect();
            let mut kw = KWay::new(&g, part, vec![60; 3]);
            kw.rebalance();
            let before = edge_cut(&g, &kw.part);
            kw.refine(10, &mut rng);
            let after = edge_cut(&g, &kw.part);
            assert!(after <= before);
            assert!(!kw.overweight());
            assert!(after < 60, "greedy refinement left cut {after} on a ring");
        }
    }
}
