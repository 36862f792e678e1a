//! Shuttle schedules of the whole early-family executor: the delivering
//! thread (Algorithm 1 via [`Router`], bounded queues of capacity 1-4
//! with the production resume mark, so it blocks often) and four workers running the real [`worker_loop`]
//! with barriers or busy-wait cycles, over a generated multi-shard stream
//! and a random valid mapping. `crate::sync` is shuttle's under
//! `--cfg shuttle`, so shuttle's random and PCT schedulers pick every
//! interleaving of the queues, barriers and marks.
//!
//! Run:
//!
//! ```text
//! RUSTFLAGS="--cfg shuttle" CARGO_TARGET_DIR=/work/target-h3-shuttle \
//!     cargo test -p psmr-schedulers --release shuttle_early
//! ```
//!
//! Each schedule asserts conservation (every request executed once), that
//! conflicting requests executed in delivery order without overlapping, and
//! (implicitly) freedom from deadlock: shuttle fails a schedule in which
//! every thread is blocked.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use psmr_core::workload::{generate, SplitMix64};
use psmr_core::{ClassId, RequestId, Stream, ThreadRef};
use psmr_mapping::CtoT;
use shuttle::sync::Arc;

use super::{worker_loop, worker_queue, BarrierSync, Job, NoSync, SeqSync};
use crate::busy_wait::CycleSync;
use crate::plan::{Plan, Router};
use crate::probe::Probe;
use crate::queue::BoundedFifo;
use crate::shuttle_log::random_and_pct;
use crate::spec::SpinPolicy;
use crate::testkit;

/// When each request started and ended, on one logical clock. Std atomics
/// are fine for the slots (read after the join); the clock is shuttle's,
/// so taking a timestamp is a scheduling point.
struct Log {
    clock: crate::sync::AtomicU64,
    start: Vec<AtomicU64>,
    end: Vec<AtomicU64>,
    count: Vec<AtomicU32>,
}

struct LogProbe<'a> {
    log: &'a Log,
}

impl Probe for LogProbe<'_> {
    fn execute(&mut self, req: RequestId, _class: ClassId) {
        let l = self.log;
        let i = req as usize;
        l.start[i].store(l.clock.fetch_add(1, Ordering::SeqCst), Ordering::Relaxed);
        shuttle::thread::yield_now();
        l.end[i].store(l.clock.fetch_add(1, Ordering::SeqCst), Ordering::Relaxed);
        l.count[i].fetch_add(1, Ordering::Relaxed);
    }
}

struct Shared<S> {
    plan: Plan,
    sync: S,
    queues: Vec<BoundedFifo<Job>>,
    log: Log,
}

/// One generated setting: stream, mapping, queue capacity.
#[derive(Clone)]
struct Setting {
    stream: Stream,
    ctot: CtoT,
    capacity: usize,
}

fn setting(seed: u64, n: u32) -> Setting {
    let shards = 2;
    let app = testkit::spin(shards, 0);
    let w = testkit::workload(seed, n, 0.4, 0.15);
    let stream = generate(&app, &app.classes(), &w);
    let ctot = testkit::random_mapping(shards, 4, &mut SplitMix64::new(seed ^ 0x5eed));
    Setting {
        stream,
        ctot,
        // 1-4: capacities 3 and 4 put the resume mark below capacity - 1.
        capacity: 1 + (seed as usize % 4),
    }
}

/// One schedule: deliver on this thread, run four workers, check the log.
fn run<S: SeqSync + Send + 'static>(s: &Setting, make_sync: fn(&Plan) -> S) {
    let plan = Plan::new(&s.ctot, s.ctot.classes.len()).unwrap();
    let n = s.stream.len();
    let shared = Arc::new(Shared {
        sync: make_sync(&plan),
        queues: (0..plan.threads())
            .map(|_| worker_queue(s.capacity))
            .collect(),
        plan,
        log: Log {
            clock: crate::sync::AtomicU64::new(0),
            start: (0..n).map(|_| AtomicU64::new(0)).collect(),
            end: (0..n).map(|_| AtomicU64::new(0)).collect(),
            count: (0..n).map(|_| AtomicU32::new(0)).collect(),
        },
    });
    let workers: Vec<_> = (0..shared.plan.threads())
        .map(|i| {
            let sh = shared.clone();
            shuttle::thread::spawn(move || {
                let mut p = LogProbe { log: &sh.log };
                worker_loop(i as ThreadRef, &sh.queues[i], &sh.plan, &sh.sync, &mut p);
            })
        })
        .collect();
    let mut d = Router::new(&shared.plan);
    for r in &s.stream.requests {
        let job = Job {
            req: r.id,
            class: r.class,
        };
        for &t in d.targets(r.class) {
            shared.queues[t as usize].push(job, |_| {});
        }
    }
    for q in &shared.queues {
        q.close();
    }
    for w in workers {
        w.join().unwrap();
    }
    check(&s.stream, &shared.log);
}

fn check(stream: &Stream, log: &Log) {
    let requests = &stream.requests;
    let at = |v: &Vec<AtomicU64>, i: usize| v[i].load(Ordering::Relaxed);
    for (i, c) in log.count.iter().enumerate() {
        assert_eq!(c.load(Ordering::Relaxed), 1, "request {i} executed once");
    }
    for (i, a) in requests.iter().enumerate() {
        for (j, b) in requests.iter().enumerate().skip(i + 1) {
            if stream.conflicts(a.id, b.id) {
                assert!(
                    at(&log.end, i) < at(&log.start, j),
                    "conflicting #{j} started before #{i} ended"
                );
            }
        }
    }
}

fn barriers(plan: &Plan) -> BarrierSync {
    BarrierSync::new(plan)
}

fn cycles(plan: &Plan) -> CycleSync {
    CycleSync::new(plan, SpinPolicy::default())
}

#[test]
fn shuttle_early_barriers_random_and_pct() {
    for seed in 1..=3 {
        let s = setting(seed, 16);
        random_and_pct(move || run(&s, barriers), 200);
    }
}

#[test]
fn shuttle_early_cycles_random_and_pct() {
    for seed in 4..=6 {
        let s = setting(seed, 16);
        random_and_pct(move || run(&s, cycles), 200);
    }
}

/// The schedules have teeth: dropping the synchronization is caught.
#[test]
fn shuttle_early_missing_synchronization_is_caught() {
    let s = setting(2, 16);
    let caught =
        std::panic::catch_unwind(move || shuttle::check_random(move || run(&s, NoSync::new), 200));
    assert!(caught.is_err(), "no schedule exposed the missing barrier");
}
