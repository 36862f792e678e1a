//! k-way refinement during uncoarsening: explicit rebalancing of overweight
//! parts, then greedy boundary refinement.
//!
//! * **Rebalance**: while a part weighs more than its bound, move its
//!   vertices out, cheapest first (the vertex whose move to a part with room
//!   loses the least cut, preferring parts it is connected to; otherwise the
//!   lightest part with room). At most `REBALANCE_ROUNDS` rounds.
//! * **Greedy refinement**: visit the boundary vertices in a seeded random
//!   order and move each to the neighbouring part it is most connected to
//!   when that lowers the cut (or keeps it and makes the parts more even),
//!   never past a part's bound. At most `passes` passes; stops after a pass
//!   without moves. Each accepted move lowers the cut, or keeps it and
//!   strictly lowers the sum of squared part weights, so passes terminate.

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

    fn is_boundary(&self, v: u32) -> bool {
        let p = self.part[v as usize];
        self.g.neighbors(v).any(|(u, _)| self.part[u as usize] != p)
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
        for _ in 0..passes {
            let order = rng.permutation(self.g.vertex_count());
            let mut moved = 0usize;
            for v in order {
                if self.is_boundary(v) && self.try_improving_move(v) {
                    moved += 1;
                }
            }
            if moved == 0 {
                break;
            }
        }
    }

    /// Moves v to its best connected part if the cut drops, or stays equal
    /// with a strictly more even pair of parts. Returns whether it moved.
    fn try_improving_move(&mut self, v: u32) -> bool {
        self.connect(v);
        let from = self.part[v as usize];
        let vw = self.g.vertex_weight(v);
        let internal = self.conn[from as usize];
        let mut best: Option<(u64, u32)> = None;
        for &p in &self.touched {
            if p == from || !self.fits(p, vw) {
                continue;
            }
            let c = self.conn[p as usize];
            let better = match best {
                None => true,
                Some((bc, bp)) => c > bc || (c == bc && self.weights[p as usize] < self.weights[bp as usize]),
            };
            if better {
                best = Some((c, p));
            }
        }
        let Some((c, to)) = best else { return false };
        let improves = c > internal
            || (c == internal && vw > 0 && self.weights[to as usize] + vw < self.weights[from as usize]);
        if improves {
            self.move_to(v, to);
        }
        improves
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
            if p != from && self.fits(p, vw) && best.is_none_or(|(c, _)| self.conn[p as usize] > c) {
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
