//! A small memo of optimizer results.
//!
//! A scenario builds one scheduler per entry, and every early-family entry
//! with the same classes, weights and thread count asks the optimizer the
//! same question; a bench sweep asks it again for every point. Solving is
//! deterministic when it proves optimality, and when it stops at the time
//! limit the memo makes every scheduler of the process use the same
//! mapping, which is what a comparison wants. Bound: [`CAPACITY`] entries,
//! oldest evicted first.

use std::sync::Mutex;

use psmr_core::ClassTable;

use crate::ResolvedMapping;

/// Entries kept.
const CAPACITY: usize = 64;

/// Everything the optimizer's answer depends on.
#[derive(Clone, Debug, PartialEq)]
struct Key {
    classes: ClassTable,
    threads: usize,
    time_limit_bits: u64,
}

static MEMO: Mutex<Vec<(Key, ResolvedMapping)>> = Mutex::new(Vec::new());

fn key(classes: &ClassTable, threads: usize, time_limit_s: f64) -> Key {
    Key {
        classes: classes.clone(),
        threads,
        time_limit_bits: time_limit_s.to_bits(),
    }
}

/// A memoized answer, its `how` marked as reused.
pub(crate) fn lookup(
    classes: &ClassTable,
    threads: usize,
    time_limit_s: f64,
) -> Option<ResolvedMapping> {
    let k = key(classes, threads, time_limit_s);
    let memo = MEMO.lock().unwrap_or_else(|p| p.into_inner());
    memo.iter().find(|(mk, _)| *mk == k).map(|(_, r)| {
        let mut r = r.clone();
        if !r.how.ends_with("(reused)") {
            r.how.push_str(" (reused)");
        }
        r
    })
}

pub(crate) fn store(classes: &ClassTable, threads: usize, time_limit_s: f64, r: &ResolvedMapping) {
    let mut memo = MEMO.lock().unwrap_or_else(|p| p.into_inner());
    if memo.len() >= CAPACITY {
        memo.remove(0);
    }
    memo.push((key(classes, threads, time_limit_s), r.clone()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{resolve, MappingSpec};

    #[test]
    fn second_resolve_reuses_the_first_answer() {
        let mut t = ClassTable::sharded(2);
        t.set_weights(&[0.3, 0.05, 0.3, 0.05, 0.2, 0.1]);
        let spec = MappingSpec::Optimized { time_limit_s: 7.25 };
        let a = resolve(&spec, &t, 4).unwrap();
        let b = resolve(&spec, &t, 4).unwrap();
        assert_eq!(a.ctot, b.ctot);
        assert!(b.how.ends_with("(reused)"), "{}", b.how);
        // Other weights are another question.
        t.set_weights(&[0.1, 0.05, 0.5, 0.05, 0.2, 0.1]);
        let c = resolve(&spec, &t, 4).unwrap();
        assert!(!c.how.ends_with("(reused)"), "{}", c.how);
    }
}
