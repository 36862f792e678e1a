//! Request classes and the conflict relation between them
//! (paper 003 section 3 / paper 000 section 3.1).
//!
//! A class groups requests by what they may access. Two classes conflict
//! when some request of one may conflict with some request of the other
//! ("external" conflict); a class conflicts with itself ("internal"
//! conflict) when two of its own requests may conflict. Reads never conflict
//! with reads: the relation follows the read/write definition, not the
//! wording of 000 section 3.1 (see the seeds README).

use serde::{Deserialize, Serialize};

use crate::request::{Access, ShardSet};

/// Index of a class in its [`ClassTable`].
pub type ClassId = u16;

/// One request class: a name and the shards its requests may read and write.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassDef {
    /// Name in the papers' style, e.g. `R1`, `W2`, `Rg`, `Wg`.
    pub name: String,
    /// Upper bound of the access of every request of this class.
    pub access: Access,
    /// Share of the workload this class is expected to carry (0..=1); the
    /// mapping optimizer uses it as the class weight.
    pub weight: f64,
}

/// The classes of one application configuration, with the conflict matrix
/// precomputed from their accesses.
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
                conflicts[i * n + j] = classes[i].access.conflicts_with(classes[j].access);
            }
        }
        ClassTable { classes, conflicts }
    }

    /// The standard classes of a sharded application (paper 000 Table 1):
    /// for each shard `i` a local read `R{i+1}` and local write `W{i+1}`,
    /// then a global read `Rg` and a global write `Wg` over all shards.
    /// Class ids: `R_i = 2i`, `W_i = 2i + 1`, `Rg = 2s`, `Wg = 2s + 1`.
    /// Weights are left at 0; the workload fills them in.
    pub fn sharded(shards: usize) -> Self {
        let mut classes = Vec::with_capacity(2 * shards + 2);
        for i in 0..shards {
            let one = ShardSet::single(i);
            classes.push(ClassDef {
                name: format!("R{}", i + 1),
                access: Access {
                    reads: one,
                    writes: ShardSet::EMPTY,
                },
                weight: 0.0,
            });
            classes.push(ClassDef {
                name: format!("W{}", i + 1),
                access: Access {
                    reads: one,
                    writes: one,
                },
                weight: 0.0,
            });
        }
        let all = ShardSet::all(shards);
        classes.push(ClassDef {
            name: "Rg".into(),
            access: Access {
                reads: all,
                writes: ShardSet::EMPTY,
            },
            weight: 0.0,
        });
        classes.push(ClassDef {
            name: "Wg".into(),
            access: Access {
                reads: all,
                writes: all,
            },
            weight: 0.0,
        });
        ClassTable::new(classes)
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
    }
}
