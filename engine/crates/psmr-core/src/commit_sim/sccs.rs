//! What the strongly connected components of a commit stream say: their
//! size histogram, and the order ePaxos executes the stream in.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::commit_stream::CommitStream;
use crate::scc::{Admit, Graph, Tarjan, TarjanError};

/// How many SCCs of each size (in instances) a stream has.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SccHistogram {
    /// `(size, count)`, increasing size.
    pub sizes: Vec<(u32, u32)>,
    /// Number of SCCs.
    pub sccs: u32,
    /// Number of instances.
    pub instances: u32,
    /// Size of the largest SCC (0 for an empty stream).
    pub largest: u32,
}

impl SccHistogram {
    /// Instances that belong to an SCC of more than one instance.
    pub fn in_cycles(&self) -> u32 {
        self.sizes
            .iter()
            .filter(|(s, _)| *s > 1)
            .map(|(s, c)| s * c)
            .sum()
    }
}

/// SCC size distribution of a dependency graph over instances (a
/// [`CommitStream`] or a stream's [`crate::stream::CommitTable`]).
pub fn scc_histogram<G: Graph + ?Sized>(stream: &G) -> Result<SccHistogram, TarjanError> {
    let mut tarjan = Tarjan::new();
    let list = tarjan.run_all(stream, |_| Admit::Visit)?;
    let mut sizes = BTreeMap::new();
    for comp in list.iter() {
        *sizes.entry(comp.len() as u32).or_insert(0u32) += 1;
    }
    Ok(SccHistogram {
        largest: sizes.keys().next_back().copied().unwrap_or(0),
        sizes: sizes.into_iter().collect(),
        sccs: list.len() as u32,
        instances: stream.node_count() as u32,
    })
}

/// The canonical execution order of a complete stream, as instance
/// positions: the engine's one definition
/// ([`crate::stream::commits_canonical`]), run on this stream's table.
pub fn execution_order(stream: &CommitStream) -> Vec<u32> {
    let table = stream.table();
    let (requests, _) = crate::stream::commits_canonical(&table);
    let mut order: Vec<u32> = Vec::with_capacity(stream.len());
    for r in requests {
        let i = table.instance_of(r);
        if order.last() != Some(&i) {
            order.push(i);
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::super::json::{CommitStreamJson, InstanceJson};
    use super::super::sim::simulate;
    use super::super::sim::tests::{busy_spec, closure, kv_workload};
    use super::*;

    /// Paper 004 Fig. 1's shape as a commit stream (see the SCC test of
    /// the same name in `scc.rs`): SCCs A = {0, 1}, B = {2, 3, 4}, C = {5,
    /// 6}, D = {7}, E = {8}, F = {9, 10}; A -> B, C; B -> D, E; E -> F.
    fn fig1_stream() -> CommitStream {
        let (deps, seqs) = (crate::scc::FIG1_DEPS, crate::scc::FIG1_SEQS);
        let json = CommitStreamJson {
            instances: (0..11)
                .map(|i| InstanceJson {
                    commands: vec![i as u32],
                    seq: seqs[i],
                    deps: deps[i].to_vec(),
                })
                .collect(),
        };
        CommitStream::from_json_shape(&json).unwrap()
    }

    #[test]
    fn fig1_histogram_and_execution_order() {
        let s = fig1_stream();
        let h = scc_histogram(&s).unwrap();
        assert_eq!(h.sizes, vec![(1, 2), (2, 3), (3, 1)]);
        assert_eq!(
            (h.sccs, h.instances, h.largest, h.in_cycles()),
            (6, 11, 3, 9)
        );
        // Instances commit in order 0..=10. C runs once 6 commits (by seq:
        // 6 before 5); E (7, no dependencies) as soon as it commits; F once
        // 10 commits (10 before 9), then D (8) which waited for it, then B
        // (3, 4, 2) and A (1, 0), which waited for D.
        assert_eq!(execution_order(&s), vec![6, 5, 7, 10, 9, 8, 3, 4, 2, 1, 0]);
    }

    #[test]
    fn algorithm2_respects_deps_across_sccs_and_executes_each_once() {
        let fp = kv_workload(11, 1500, 4, 60);
        let s = simulate(&fp, &busy_spec(12, 3)).unwrap().stream;
        let order = execution_order(&s);
        let mut at = vec![usize::MAX; s.len()];
        for (k, &v) in order.iter().enumerate() {
            assert_eq!(at[v as usize], usize::MAX, "{v} executed twice");
            at[v as usize] = k;
        }
        let reach = closure(&s);
        for a in 0..s.len() {
            for &b in s.deps(a) {
                let b = b as usize;
                if !reach[b][a] {
                    assert!(
                        at[b] < at[a],
                        "{b} (a dependency of {a}, other SCC) ran after it"
                    );
                }
            }
        }
    }
}
