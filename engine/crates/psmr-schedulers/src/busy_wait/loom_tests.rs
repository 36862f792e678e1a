//! Loom models of the early family's synchronization: the busy-wait cycle
//! protocol (Alg. 4) and the barrier protocol (Alg. 2), run through the
//! real [`worker_loop`], queues and [`Router`] compiled against loom's
//! atomics, mutexes and condition variables (`crate::sync`).
//!
//! Run (about half a minute in release mode):
//!
//! ```text
//! RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=/work/target-h3-loom \
//!     cargo test -p psmr-schedulers --release loom
//! ```
//!
//! What each model asserts, over every interleaving loom explores:
//! * conservation: every request executes exactly once;
//! * order: the requests that write the shared state do so in delivery
//!   order, and each read sees exactly the writes delivered before it;
//! * no data race: the state is a `loom::cell::UnsafeCell`
//!   ([`crate::loom_model`]), so loom fails
//!   the model if an execution is not ordered after the conflicting ones
//!   before it by happens-before (e.g. if a mark's Release/Acquire pair
//!   were weakened to Relaxed);
//! * no deadlock: loom fails a model in which every thread blocks.
//!
//! The models are tiny on purpose (2-3 threads, 4 requests): loom's state
//! space grows exponentially, and CI runs them in under a minute.

use loom::sync::Arc;
use psmr_mapping::{CtoT, Mode};

use super::CycleSync;
use crate::early::{worker_loop, BarrierSync, Job, NoSync, SeqSync};
use crate::loom_model::{builder, expected_seen, Replica};
use crate::plan::{Plan, Router};
use crate::probe::Probe;
use crate::queue::BoundedFifo;
use crate::testkit;
use crate::SpinPolicy;

/// The replicated state of the model: one cell, written by the requests
/// of `writer_classes` and read by the others.
struct Model {
    replica: Replica,
    /// Class ids that write (the others read).
    writer_classes: Vec<u16>,
}

struct ModelProbe<'a> {
    m: &'a Model,
}

/// Everything the model's threads share.
struct Shared<S> {
    plan: Plan,
    sync: S,
    queues: Vec<BoundedFifo<Job>>,
    model: Model,
}

impl<S: SeqSync> Shared<S> {
    /// Worker `i`'s whole life: Algorithm 2/4's loop over its queue.
    fn work(&self, i: usize) {
        let mut p = ModelProbe { m: &self.model };
        worker_loop(i as u16, &self.queues[i], &self.plan, &self.sync, &mut p);
    }
}

impl Probe for ModelProbe<'_> {
    fn execute(&mut self, req: psmr_core::RequestId, class: psmr_core::ClassId) {
        let write = self.m.writer_classes.contains(&class);
        self.m.replica.execute(req, 0, write);
    }
}

/// Deliver `jobs` with Algorithm 1 into pre-filled, closed queues, run one
/// worker per thread (the model's main thread is worker 0), and check
/// conservation and order against sequential execution.
fn run_model<S>(ctot: CtoT, writer_classes: Vec<u16>, jobs: Vec<Job>, make_sync: fn(&Plan) -> S)
where
    S: SeqSync + Send + 'static,
{
    let plan = Plan::new(&ctot, ctot.classes.len()).unwrap();
    // Expected outcome: sequential execution in delivery order.
    let writes = |j: &Job| writer_classes.contains(&j.class);
    let expected = expected_seen(jobs.len(), jobs.iter().map(|j| (j.req, 0, writes(j))));
    let expected_writes: Vec<u32> = jobs.iter().filter(|j| writes(j)).map(|j| j.req).collect();
    let queues: Vec<BoundedFifo<Job>> = (0..plan.threads())
        .map(|_| BoundedFifo::new(jobs.len()))
        .collect();
    let mut d = Router::new(&plan);
    for &job in &jobs {
        for &t in d.targets(job.class) {
            queues[t as usize].push(job, |_| {});
        }
    }
    for q in &queues {
        q.close();
    }
    // One Arc for everything shared: fewer loom operations per model.
    let shared = Arc::new(Shared {
        sync: make_sync(&plan),
        plan,
        queues,
        model: Model {
            replica: Replica::new(1, jobs.len()),
            writer_classes,
        },
    });
    let handles: Vec<_> = (1..shared.plan.threads())
        .map(|i| {
            let shared = shared.clone();
            loom::thread::spawn(move || shared.work(i))
        })
        .collect();
    shared.work(0);
    for h in handles {
        h.join().unwrap();
    }
    let replica = &shared.model.replica;
    replica.check(&expected);
    assert_eq!(
        replica.writes(0),
        expected_writes,
        "writes applied in delivery order"
    );
}

fn cycles(plan: &Plan) -> CycleSync {
    CycleSync::new(plan, SpinPolicy::default())
}

/// Readers and writers on one shard, two threads: W (sequential on both)
/// and R (concurrent, round-robin). W0 R1 W2 R3: W2 re-uses class W's
/// marks while a thread may still be leaving W0's cycle.
fn readers_writers() -> (CtoT, Vec<u16>, Vec<Job>) {
    use Mode::{Concurrent as C, Sequential as S};
    let ctot = testkit::ctot(2, &[(S, &[0, 1]), (C, &[0, 1])]);
    (ctot, vec![0], jobs(&[0, 1, 0, 1]))
}

/// One job per class in `classes`, request ids in order.
fn jobs(classes: &[u16]) -> Vec<Job> {
    (0..)
        .zip(classes)
        .map(|(req, &class)| Job { req, class })
        .collect()
}

#[test]
fn loom_busy_wait_readers_writers_two_threads() {
    builder(2).check(|| {
        let (ctot, writers, jobs) = readers_writers();
        run_model(ctot, writers, jobs, cycles);
    });
}

/// Three same-class sequential requests in a row on two threads: the
/// third re-enters cycle 1 after the first used it.
#[test]
fn loom_busy_wait_back_to_back_cycles() {
    use Mode::Sequential as S;
    builder(2).check(|| {
        let ctot = testkit::ctot(2, &[(S, &[0, 1])]);
        run_model(ctot, vec![0], jobs(&[0, 0, 0]), cycles);
    });
}

/// Two conflicting sequential classes with different thread sets (rule
/// R.5): A on {0, 1}, B on {1} alone; A0 B1 A2. Thread 1 runs B between
/// the two A cycles while thread 0 may already be waiting in the next one.
/// (A three-thread version of this model exceeds loom's budget; the
/// shuttle and stress tests cover more threads.)
#[test]
fn loom_busy_wait_two_sequential_classes() {
    use Mode::Sequential as S;
    builder(2).check(|| {
        let ctot = testkit::ctot(2, &[(S, &[0, 1]), (S, &[1])]);
        run_model(ctot, vec![0, 1], jobs(&[0, 1, 0]), cycles);
    });
}

/// The barrier protocol of plain early scheduling on the same workload.
#[test]
fn loom_barrier_readers_writers_two_threads() {
    builder(2).check(|| {
        let (ctot, writers, jobs) = readers_writers();
        run_model(ctot, writers, jobs, BarrierSync::new);
    });
}

/// The models have teeth: without synchronization, loom finds an
/// interleaving that breaks order (or races on the state).
#[test]
fn loom_missing_synchronization_is_caught() {
    let caught = std::panic::catch_unwind(|| {
        builder(2).check(|| {
            let (ctot, writers, jobs) = readers_writers();
            run_model(ctot, writers, jobs, NoSync::new);
        })
    });
    assert!(caught.is_err(), "loom found no bad interleaving");
}
