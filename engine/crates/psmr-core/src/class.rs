//! Request classes and the conflict relation between them
//! (paper 003 section 3 / paper 000 section 3.1).
//!
//! A class groups requests by what they may access: its footprint bounds
//! the footprint of every request of the class. Two classes conflict when
//! some request of one may conflict with some request of the other
//! ("external" conflict); a class conflicts with itself ("internal"
//! conflict) when two of its own requests may conflict. Reads never conflict
//! with reads: the relation follows the read/write definition, not the
//! wording of 000 section 3.1 (see the seeds README).
//!
//! Only the schedulers that route by class (early scheduling, busy-wait,
//! work stealing) rely on classes for correctness; they require the class
//! table to *cover* the stream ([`ClassTable::check_covers`]). For every
//! other family a class is a label (display, weights).

use serde::{Deserialize, Serialize};

use crate::cell::{self, Span};

/// Index of a class in its [`ClassTable`].
pub type ClassId = u16;

/// One request class.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassDef {
    /// Name in the papers' style, e.g. `R1`, `W2`, `Rg`, `Wg`.
    pub name: String,
    /// Upper bound of the footprint of every request of this class.
    pub footprint: Vec<Span>,
    /// Share of the workload this class is expected to carry (0..=1); the
    /// mapping optimizer uses it as the class weight.
    pub weight: f64,
    /// The shard of a local class (`R_i`, `W_i`: `i`, 0-based); `None` for
    /// a class over every shard (`Rg`, `Wg`) or one with no shard meaning.
    pub shard: Option<u16>,
    /// Do requests of the class write?
    pub write: bool,
}

/// The classes of one application configuration, with the conflict matrix
/// precomputed from their footprints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassTable {
    classes: Vec<ClassDef>,
    /// Row-major `n × n` matrix; symmetric.
    conflicts: Vec<bool>,
}

impl ClassTable {
    pub fn new(classes: Vec<ClassDef>) -> Self {
        let n = classes.len();
        let mut conflicts = vec![false; n * n];
        for i in 0..n {
            for j in 0..n {
                conflicts[i * n + j] =
                    cell::conflicts(&classes[i].footprint, &classes[j].footprint);
            }
        }
        ClassTable { classes, conflicts }
    }

    /// The standard classes of a sharded application (paper 000 Table 1):
    /// for each shard `i` a local read `R{i+1}` and local write `W{i+1}`,
    /// then a global read `Rg` and a global write `Wg` over all shards.
    /// Class ids: `R_i = 2i`, `W_i = 2i + 1`, `Rg = 2s`, `Wg = 2s + 1`.
    /// `ranges[i]` is the cell range of shard `i` (shard `i` itself for the
    /// list, a key range for the key-value store); `all` the range global
    /// classes cover. Weights are left at 0; the workload fills them in.
    pub fn sharded_over(ranges: &[(u64, u64)], all: (u64, u64)) -> Self {
        let mut classes = Vec::with_capacity(2 * ranges.len() + 2);
        for (i, &(lo, hi)) in ranges.iter().enumerate() {
            for write in [false, true] {
                classes.push(ClassDef {
                    name: format!("{}{}", if write { 'W' } else { 'R' }, i + 1),
                    footprint: vec![Span { lo, hi, write }],
                    weight: 0.0,
                    shard: Some(i as u16),
                    write,
                });
            }
        }
        for write in [false, true] {
            classes.push(ClassDef {
                name: if write { "Wg" } else { "Rg" }.into(),
                footprint: vec![Span {
                    lo: all.0,
                    hi: all.1,
                    write,
                }],
                weight: 0.0,
                shard: None,
                write,
            });
        }
        ClassTable::new(classes)
    }

    /// [`ClassTable::sharded_over`] with one cell per shard.
    pub fn sharded(shards: usize) -> Self {
        let ranges: Vec<(u64, u64)> = (0..shards as u64).map(|s| (s, s)).collect();
        Self::sharded_over(&ranges, (0, shards.saturating_sub(1) as u64))
    }

    pub fn len(&self) -> usize {
        self.classes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }
    pub fn get(&self, id: ClassId) -> &ClassDef {
        &self.classes[id as usize]
    }
    pub fn classes(&self) -> &[ClassDef] {
        &self.classes
    }
    pub fn set_weights(&mut self, weights: &[f64]) {
        for (c, w) in self.classes.iter_mut().zip(weights) {
            c.weight = *w;
        }
    }
    /// Do classes `a` and `b` conflict? `conflicts(a, a)` is the internal
    /// conflict of `a`.
    pub fn conflicts(&self, a: ClassId, b: ClassId) -> bool {
        self.conflicts[a as usize * self.classes.len() + b as usize]
    }
    /// Find a class by name.
    pub fn by_name(&self, name: &str) -> Option<ClassId> {
        self.classes
            .iter()
            .position(|c| c.name == name)
            .map(|i| i as ClassId)
    }
    /// The local class of `shard` (`write` picks `W` over `R`), if any.
    pub fn local(&self, shard: usize, write: bool) -> Option<ClassId> {
        self.classes
            .iter()
            .position(|c| c.shard == Some(shard as u16) && c.write == write)
            .map(|i| i as ClassId)
    }
    /// The global class (`Rg` or `Wg`), if any.
    pub fn global(&self, write: bool) -> Option<ClassId> {
        self.classes
            .iter()
            .position(|c| c.shard.is_none() && c.write == write)
            .map(|i| i as ClassId)
    }
    /// Number of shards of a sharded table (local classes come in R/W pairs).
    pub fn shards(&self) -> usize {
        self.classes.iter().filter(|c| c.shard.is_some()).count() / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sharded_conflicts_follow_read_write_sets() {
        let t = ClassTable::sharded(2);
        let (r1, w1, r2, w2, rg, wg) = (0, 1, 2, 3, 4, 5);
        assert!(!t.conflicts(r1, r1), "reads never conflict with reads");
        assert!(!t.conflicts(r1, rg));
        assert!(!t.conflicts(rg, rg));
        assert!(t.conflicts(w1, w1));
        assert!(t.conflicts(r1, w1));
        assert!(!t.conflicts(w1, w2), "different shards are independent");
        assert!(!t.conflicts(r1, w2));
        assert!(!t.conflicts(r2, w1));
        assert!(t.conflicts(rg, w2));
        assert!(t.conflicts(wg, r1));
        assert!(t.conflicts(wg, wg));
        assert_eq!(t.by_name("Wg"), Some(5));
        assert_eq!(
            (t.local(1, true), t.global(false), t.shards()),
            (Some(3), Some(4), 2)
        );
    }

    #[test]
    fn key_range_classes_conflict_like_shards() {
        let t = ClassTable::sharded_over(&[(0, 49), (50, u64::MAX)], (0, u64::MAX));
        assert!(!t.conflicts(1, 3), "W1 and W2 cover disjoint key ranges");
        assert!(t.conflicts(1, 5), "W1 and Wg overlap");
        assert_eq!(t.get(3).footprint, vec![Span::write(50, u64::MAX)]);
    }
}
