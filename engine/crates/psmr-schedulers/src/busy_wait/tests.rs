//! The cycle protocol driven directly by plain threads (no run context):
//! many back-to-back sequential requests of one class, the case where a
//! fast thread re-enters the class while others are still leaving the
//! previous cycle.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;

use psmr_core::trace::Counter;
use psmr_core::{ClassId, RequestId};
use psmr_mapping::Mode;

use super::*;
use crate::early::{worker_loop, worker_queue, Job};
use crate::plan::Plan;
use crate::probe::Probe;
use crate::queue::BoundedFifo;
use crate::spin::SpinPolicy;
use crate::testkit;

/// Counts executions and checks that sequential requests of the class run
/// one after the other, in delivery order.
struct Shared {
    executed: Vec<AtomicU32>,
    /// Requests of class 0 in the order they executed.
    order: Mutex<Vec<u32>>,
    /// Set while a class-0 request runs (overlap detector).
    running: AtomicU32,
    counters: [AtomicU64; Counter::ALL.len()],
}

struct TestProbe<'a> {
    s: &'a Shared,
}

impl Probe for TestProbe<'_> {
    fn execute(&mut self, req: RequestId, class: ClassId) {
        self.s.executed[req as usize].fetch_add(1, Ordering::Relaxed);
        if class == 0 {
            assert_eq!(self.s.running.swap(1, Ordering::AcqRel), 0, "overlap");
            self.s.order.lock().unwrap().push(req);
            std::hint::spin_loop();
            self.s.running.store(0, Ordering::Release);
        }
    }
    fn count(&mut self, c: Counter, n: u64) {
        self.s.counters[c as usize].fetch_add(n, Ordering::Relaxed);
    }
}

fn drive_plain(plan: &Plan, sync: &CycleSync, jobs: &[Job]) -> Shared {
    let shared = Shared {
        executed: (0..jobs.len()).map(|_| AtomicU32::new(0)).collect(),
        order: Mutex::new(Vec::new()),
        running: AtomicU32::new(0),
        counters: Default::default(),
    };
    let queues: Vec<BoundedFifo<Job>> = (0..plan.threads()).map(|_| worker_queue(8)).collect();
    std::thread::scope(|s| {
        for (i, q) in queues.iter().enumerate() {
            let shared = &shared;
            s.spawn(move || {
                let mut p = TestProbe { s: shared };
                worker_loop(i as u16, q, plan, sync, &mut p);
            });
        }
        let mut d = crate::plan::Router::new(plan);
        for &job in jobs {
            for &t in d.targets(job.class) {
                queues[t as usize].push(job, |_| {});
            }
        }
        for q in &queues {
            q.close();
        }
    });
    shared
}

#[test]
fn back_to_back_sequential_requests_run_once_each_in_order() {
    use Mode::{Concurrent as C, Sequential as S};
    // Class 0 sequential on all 3 threads; class 1 concurrent on all.
    let plan = Plan::new(&testkit::ctot(3, &[(S, &[0, 1, 2]), (C, &[0, 1, 2])]), 2).unwrap();
    let jobs: Vec<Job> = (0..3000u32)
        .map(|req| Job {
            req,
            class: if req % 5 == 4 { 1 } else { 0 },
        })
        .collect();
    let sync = CycleSync::new(&plan, SpinPolicy::default());
    let shared = drive_plain(&plan, &sync, &jobs);
    assert!(shared
        .executed
        .iter()
        .all(|c| c.load(Ordering::Relaxed) == 1));
    let order = shared.order.into_inner().unwrap();
    let want: Vec<u32> = jobs
        .iter()
        .filter(|j| j.class == 0)
        .map(|j| j.req)
        .collect();
    assert_eq!(order, want);
    // The marks end at rest: every cycle was closed by its executor.
    assert!(sync.marks.at_rest());
}

#[test]
fn spinning_escalates_to_parking_and_is_counted() {
    use Mode::Sequential as S;
    let plan = Plan::new(&testkit::ctot(2, &[(S, &[0, 1])]), 1).unwrap();
    let jobs: Vec<Job> = (0..200u32).map(|req| Job { req, class: 0 }).collect();
    // No spins, no yields: every wait check beyond the first parks.
    let sync = CycleSync::new(
        &plan,
        SpinPolicy {
            spins: 0,
            yields: 0,
            park_us: 1,
        },
    );
    let shared = drive_plain(&plan, &sync, &jobs);
    let get = |c: Counter| shared.counters[c as usize].load(Ordering::Relaxed);
    assert!(shared
        .executed
        .iter()
        .all(|c| c.load(Ordering::Relaxed) == 1));
    // Every snooze parked, none spun or yielded.
    assert_eq!(get(Counter::Yields), 0);
    assert_eq!(get(Counter::Spins), get(Counter::Parks));
    assert!(get(Counter::CycleWaits) <= 200);
}
