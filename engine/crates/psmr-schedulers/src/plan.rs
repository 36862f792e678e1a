//! The classes-to-threads mapping (CtoT) in the form the early family's
//! protocols read it, and Algorithm 1's routing decision over it (paper 003
//! section 4.3, restated in paper 000 Algorithm 1, also Algorithm 6 for
//! work stealing). Shared by early scheduling ([`crate::early`]), busy-wait
//! ([`crate::busy_wait`]) and the work-stealing variants
//! ([`crate::work_stealing`]).
//!
//! Invariant of a [`Plan`]: one [`ClassPlan`] per class; each class's
//! threads are sorted ascending, without duplicates, not empty (R.1), and
//! below the mapping's thread count. The protocols count a class's threads
//! to know when everyone arrived at a barrier or a cycle mark, so a
//! duplicate would hang them, and the barrier protocol's executor is the
//! first (smallest) of them.

use psmr_core::scheduler::ClassAssignment;
use psmr_core::trace::SCHEDULER;
use psmr_core::{ClassId, ClassTable, Family, Needs, StreamKind, ThreadRef};
use psmr_mapping::{CtoT, Mode};

/// What a scheduler that routes by a [`Plan`] needs: a totally ordered
/// stream (Algorithm 1 routes each request in delivery order), on any cell
/// space, with classes that cover it (every request's class decides where
/// it goes), and the parameter object `object` (its fields that apply:
/// `fields`). The declaration of early scheduling, busy-wait and the
/// work-stealing variants.
pub const fn routed_needs(
    family: Family,
    object: &'static str,
    fields: &'static [&'static str],
) -> Needs {
    Needs {
        covering_classes: true,
        params: Some((object, fields)),
        ..Needs::new(family, &[StreamKind::Total])
    }
}

/// The mapping of one class, as the protocols use it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassPlan {
    pub sequential: bool,
    /// Worker ids, sorted ascending, no duplicates, not empty.
    pub threads: Vec<ThreadRef>,
}

impl ClassPlan {
    /// 000 Alg. 2 line 8 (and Alg. 7's barrier variant): the thread that
    /// executes a sequential request between two barriers (the smallest
    /// id of the class).
    pub fn executor(&self) -> ThreadRef {
        self.threads[0]
    }

    /// Threads that must arrive at the class's barrier or cycle mark.
    pub fn parties(&self) -> u32 {
        self.threads.len() as u32
    }
}

/// The CtoT in the form the protocols use, with its invariants checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    threads: usize,
    classes: Vec<ClassPlan>,
}

impl Plan {
    /// Check and convert a CtoT for `classes` classes: one entry per class,
    /// every class has at least one thread (R.1), every thread id is below
    /// `ctot.threads`. Conflict rules R.2-R.5 are the mapping crate's job
    /// (`CtoT::validate`); this only guards what the protocols would trip
    /// on.
    pub fn new(ctot: &CtoT, classes: usize) -> Result<Self, String> {
        if ctot.threads == 0 || ctot.threads > usize::from(SCHEDULER) {
            return Err(format!("a mapping needs 1..{} threads", SCHEDULER));
        }
        if ctot.classes.len() != classes {
            return Err(format!(
                "the mapping has {} classes, the application has {classes}",
                ctot.classes.len()
            ));
        }
        let plans = ctot
            .classes
            .iter()
            .enumerate()
            .map(|(c, m)| class_plan(c, &m.threads, m.mode, ctot.threads))
            .collect::<Result<_, _>>()?;
        Ok(Plan {
            threads: ctot.threads,
            classes: plans,
        })
    }

    pub fn threads(&self) -> usize {
        self.threads
    }
    pub fn class(&self, c: ClassId) -> &ClassPlan {
        &self.classes[c as usize]
    }
    pub fn classes(&self) -> &[ClassPlan] {
        &self.classes
    }

    /// The mapping by class name, as the views show it.
    pub fn assignments(&self, table: &ClassTable) -> Vec<ClassAssignment> {
        self.classes
            .iter()
            .enumerate()
            .map(|(c, cp)| ClassAssignment {
                class: table.get(c as ClassId).name.clone(),
                sequential: cp.sequential,
                threads: cp.threads.clone(),
            })
            .collect()
    }
}

/// Class `c`'s threads sorted and deduplicated, each checked against the
/// mapping's `threads`, and not empty.
fn class_plan(c: usize, of: &[usize], mode: Mode, threads: usize) -> Result<ClassPlan, String> {
    if let Some(t) = of.iter().find(|&&t| t >= threads) {
        return Err(format!(
            "class {c} uses thread {t}, the mapping has {threads}"
        ));
    }
    let mut ids: Vec<ThreadRef> = of.iter().map(|&t| t as ThreadRef).collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Err(format!("R.1: class {c} has no thread"));
    }
    Ok(ClassPlan {
        sequential: mode == Mode::Sequential,
        threads: ids,
    })
}

/// Algorithm 1's routing decision (000 Alg. 1, Alg. 6 for work stealing),
/// with the round-robin position of each concurrent class (the paper's
/// `next`).
#[derive(Debug)]
pub struct Router<'p> {
    plan: &'p Plan,
    next: Vec<usize>,
}

impl<'p> Router<'p> {
    pub fn new(plan: &'p Plan) -> Self {
        Router {
            plan,
            next: vec![0; plan.classes.len()],
        }
    }

    /// The queues a request of `class` goes to: every thread of a
    /// sequential class (Alg. 1 lines 4-6), or the next thread of a
    /// concurrent class in round-robin order (lines 7-8).
    pub fn targets(&mut self, class: ClassId) -> &'p [ThreadRef] {
        let cp = &self.plan.classes[class as usize];
        if cp.sequential {
            &cp.threads
        } else {
            let i = self.next[class as usize];
            self.next[class as usize] = (i + 1) % cp.threads.len();
            &cp.threads[i..i + 1]
        }
    }
}

#[cfg(all(test, not(loom), not(shuttle)))]
mod tests {
    use super::*;
    use crate::testkit;

    #[test]
    fn router_sends_sequential_to_all_and_concurrent_round_robin() {
        let plan = Plan::new(&testkit::table1(), 6).unwrap();
        let mut d = Router::new(&plan);
        assert_eq!(d.targets(1), &[0, 2]); // W1 sequential
        assert_eq!(d.targets(5), &[0, 1, 2, 3]); // Wg sequential
        let r1: Vec<ThreadRef> = (0..5).map(|_| d.targets(0)[0]).collect();
        assert_eq!(r1, vec![0, 2, 0, 2, 0]); // R1 concurrent over {0, 2}
        assert_eq!(d.targets(2), &[1]);
        assert_eq!(d.targets(2), &[3]);
    }

    #[test]
    fn plan_rejects_what_the_protocol_would_trip_on() {
        use Mode::Sequential as S;
        let bad_thread = testkit::ctot(2, &[(S, &[0]), (S, &[2])]);
        assert!(Plan::new(&bad_thread, 2).unwrap_err().contains("thread 2"));
        let empty = testkit::ctot(2, &[(S, &[0]), (S, &[])]);
        assert!(Plan::new(&empty, 2).unwrap_err().contains("R.1"));
        let short = testkit::ctot(2, &[(S, &[0])]);
        assert!(Plan::new(&short, 2).is_err());
    }

    #[test]
    fn threads_are_sorted_and_deduplicated() {
        use Mode::Sequential as S;
        let plan = Plan::new(&testkit::ctot(3, &[(S, &[2, 0, 2])]), 1).unwrap();
        assert_eq!(plan.class(0).threads, vec![0, 2]);
        assert_eq!((plan.class(0).executor(), plan.class(0).parties()), (0, 2));
    }
}
