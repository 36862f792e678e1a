//! Tests of the early family (early and busy-wait share the scheduler, the
//! queues and the worker loop; the family-wide property tests live here).

use std::collections::BTreeMap;

use proptest::prelude::*;
use psmr_core::run::RunResult;
use psmr_core::trace::{EventKind, SCHEDULER};
use psmr_core::workload::SplitMix64;
use psmr_core::{RequestId, Scheduler, SchedulerId, ThreadRef, WaitReason};
use psmr_mapping::{naive::naive, Mode};

use super::*;
use crate::busy_wait::BusyWait;
use crate::testkit::{self, Stream};
use crate::SpinPolicy;

fn config(ctot: &CtoT, stream: &Stream, capacity: usize) -> FamilyConfig {
    FamilyConfig::from_ctot(ctot, &stream.classes, capacity, "test".into()).unwrap()
}

fn early(ctot: &CtoT, stream: &Stream, capacity: usize) -> Early {
    Early::new(config(ctot, stream, capacity))
}

fn busy(ctot: &CtoT, stream: &Stream, capacity: usize) -> BusyWait {
    // Few spins before yielding: tests run on 2 shared cores.
    let spin = SpinPolicy {
        spins: 50,
        yields: 200,
        park_us: 20,
    };
    BusyWait::new(config(ctot, stream, capacity), spin)
}

/// Per-request view of a run's trace.
#[derive(Default, Debug)]
struct ReqTrace {
    enqueued_to: Vec<ThreadRef>,
    dequeued_by: Vec<ThreadRef>,
    /// (seq, thread) of each arrival.
    arrivals: Vec<(u64, ThreadRef)>,
    releases: Vec<ThreadRef>,
    executed_by: Vec<ThreadRef>,
    /// seq of the scheduler's `Enqueued` per target, of `Dequeued` per
    /// thread, of the release, of each synchronization wait's end.
    enqueued_seq: Vec<(ThreadRef, u64)>,
    dequeued_seq: Vec<(ThreadRef, u64)>,
    release_seq: Option<u64>,
    sync_wait_end_seq: Vec<(ThreadRef, u64)>,
    exec_end_seq: Option<u64>,
}

fn by_request(r: &RunResult) -> BTreeMap<RequestId, ReqTrace> {
    assert!(!r.trace_window.cut);
    let mut m: BTreeMap<RequestId, ReqTrace> = BTreeMap::new();
    for e in &r.trace {
        match e.kind {
            EventKind::Enqueued { req, to } => {
                let t = m.entry(req).or_default();
                t.enqueued_to.push(to);
                t.enqueued_seq.push((to, e.seq));
            }
            EventKind::Dequeued { req } => {
                let t = m.entry(req).or_default();
                t.dequeued_by.push(e.thread);
                t.dequeued_seq.push((e.thread, e.seq));
            }
            EventKind::ExecEnd { req } => m.entry(req).or_default().exec_end_seq = Some(e.seq),
            EventKind::WaitEnd {
                req,
                reason: WaitReason::Barrier | WaitReason::Cycle,
                ..
            } => m
                .entry(req)
                .or_default()
                .sync_wait_end_seq
                .push((e.thread, e.seq)),
            EventKind::SyncArrive { req, .. } => {
                m.entry(req).or_default().arrivals.push((e.seq, e.thread))
            }
            EventKind::SyncRelease { req, executor, .. } => {
                assert_eq!(executor, e.thread, "the executor records the release");
                let t = m.entry(req).or_default();
                t.releases.push(executor);
                t.release_seq = Some(e.seq);
            }
            EventKind::ExecStart { req } => m.entry(req).or_default().executed_by.push(e.thread),
            _ => {}
        }
    }
    m
}

/// The protocol as seen in the trace: each request went to the threads
/// Algorithm 1 says, each of them dequeued it, a sequential request had
/// one arrival per thread of its class and exactly one release, by the
/// thread that executed it. `min_executor`: the executor is the class's
/// smallest thread (barriers); otherwise the last to arrive (cycles).
fn check_protocol_trace(r: &RunResult, stream: &Stream, plan: &Plan, min_executor: bool) {
    let trace = by_request(r);
    assert_eq!(trace.len(), stream.requests.len());
    for req in &stream.requests {
        let t = &trace[&req.id];
        let cp = plan.class(req.class);
        assert_eq!(t.executed_by.len(), 1, "request {} executed once", req.id);
        let mut deq = t.dequeued_by.clone();
        deq.sort_unstable();
        let mut enq = t.enqueued_to.clone();
        enq.sort_unstable();
        assert_eq!(deq, enq, "request {}: dequeued where enqueued", req.id);
        // The replay order (by seq) must be causal: enqueued before
        // dequeued on each thread; executed before released; released
        // before any waiter of the request stops waiting.
        for &(to, enq_seq) in &t.enqueued_seq {
            let (_, deq_seq) = t.dequeued_seq.iter().find(|d| d.0 == to).unwrap();
            assert!(
                enq_seq < *deq_seq,
                "request {}: dequeued before enqueued",
                req.id
            );
        }
        if let Some(rel) = t.release_seq {
            assert!(
                t.exec_end_seq.unwrap() < rel,
                "request {}: released before executed",
                req.id
            );
            let executor = t.releases[0];
            for &(_, w) in t.sync_wait_end_seq.iter().filter(|w| w.0 != executor) {
                assert!(
                    rel < w,
                    "request {}: a waiter left before the release",
                    req.id
                );
            }
        }
        if cp.sequential {
            assert_eq!(
                enq, cp.threads,
                "seq request {} goes to all its threads",
                req.id
            );
            assert_eq!(t.arrivals.len(), cp.threads.len());
            assert_eq!(t.releases, t.executed_by, "one release, by the executor");
            let executor = t.executed_by[0];
            if min_executor {
                assert_eq!(executor, cp.executor(), "request {}", req.id);
            } else {
                // The executor is the last to increment the cycle's mark;
                // its `SyncArrive` is recorded just before that increment,
                // so another thread's event may land later in the trace
                // (it was preempted between recording and incrementing).
                // The trace can only promise that the executor arrived and
                // that every arrival precedes the release.
                assert!(
                    t.arrivals.iter().any(|a| a.1 == executor),
                    "request {}: the executor arrived",
                    req.id
                );
                let rel = t.release_seq.unwrap();
                assert!(
                    t.arrivals.iter().all(|a| a.0 < rel),
                    "request {}: every arrival precedes the release",
                    req.id
                );
            }
        } else {
            assert_eq!(
                enq.len(),
                1,
                "concurrent request {} goes to one thread",
                req.id
            );
            assert!(cp.threads.contains(&enq[0]));
            assert!(t.arrivals.is_empty() && t.releases.is_empty());
        }
    }
}

#[test]
fn mapping_that_breaks_a_rule_is_refused() {
    use Mode::{Concurrent as C, Sequential as S};
    // One shard: R1 concurrent on {0, 1} but W1 only on {0}: R.4 broken.
    let stream = Stream::new(testkit::list(1), &testkit::workload(1, 10, 0.5, 0.0));
    let m = testkit::ctot(2, &[(C, &[0, 1]), (S, &[0]), (C, &[0]), (S, &[0, 1])]);
    let err = FamilyConfig::from_ctot(&m, &stream.classes, 8, "t".into()).unwrap_err();
    assert!(
        matches!(err, RunError::InvalidConfig(ref s) if s.contains("R.4")),
        "{err}"
    );
}

#[test]
fn early_runs_table1_correctly_with_the_barrier_protocol_in_the_trace() {
    let stream = Stream::new(testkit::list(2), &testkit::workload(5, 1500, 0.3, 0.1));
    let s = early(&testkit::table1(), &stream, 64);
    let r = testkit::run(&s, &stream, 4);
    testkit::assert_correct(&r);
    check_protocol_trace(&r, &stream, &s.config.plan, true);
    assert_eq!(r.output.delivered, 1500);
    assert!(!r.output.queue_samples.is_empty());
    assert!(r.output.scheduler_busy_ns > 0);
    assert_eq!(s.info().mapping.len(), 6);
    assert_eq!(s.info().mapping[5].threads, vec![0, 1, 2, 3]);
}

#[test]
fn busy_wait_runs_table1_correctly_and_the_last_arrival_executes() {
    let stream = Stream::new(testkit::list(2), &testkit::workload(6, 1500, 0.3, 0.1));
    let s = busy(&testkit::table1(), &stream, 64);
    let r = testkit::run(&s, &stream, 4);
    testkit::assert_correct(&r);
    check_protocol_trace(&r, &stream, &s.config.plan, false);
    // Cycles alternate per class and thread: thread t's k-th arrival for
    // class c uses cycle k % 2 == 1 first (Alg. 4 flips before use).
    let mut next: BTreeMap<(ThreadRef, u16), u8> = BTreeMap::new();
    for e in &r.trace {
        if let EventKind::SyncArrive { class, cycle, .. } = e.kind {
            let want = next.entry((e.thread, class)).or_insert(1);
            assert_eq!(cycle, *want);
            *want = 1 - *want;
        }
    }
}

/// At the queue bound: capacity 1 forces the scheduler to block on full
/// queues constantly; the run still completes correctly and the trace shows
/// the FullQueue waits, each closed.
#[test]
fn tiny_queues_block_the_scheduler_and_still_complete_correctly() {
    let stream = Stream::new(
        testkit::spin(2, 2_000),
        &testkit::workload(9, 400, 0.2, 0.05),
    );
    let schedulers: Vec<Box<dyn Scheduler>> = vec![
        Box::new(early(&testkit::table1(), &stream, 1)),
        Box::new(busy(&testkit::table1(), &stream, 1)),
    ];
    for s in &schedulers {
        let r = testkit::run(s.as_ref(), &stream, 4);
        testkit::assert_correct(&r);
        let full = |start: bool| {
            r.trace
                .iter()
                .filter(|e| match e.kind {
                    EventKind::WaitStart { reason, .. } => start && reason == WaitReason::FullQueue,
                    EventKind::WaitEnd { reason, .. } => !start && reason == WaitReason::FullQueue,
                    _ => false,
                })
                .filter(|e| e.thread == SCHEDULER)
                .count()
        };
        assert!(full(true) > 0, "{}: capacity 1 must block", s.id());
        assert_eq!(full(true), full(false));
        let max_len = r.output.queue_samples.iter().map(|q| q.len).max().unwrap();
        assert!(max_len <= 1, "a queue of capacity 1 held {max_len}");
    }
}

/// Readers and writers on one shard (003 section 6.4): reads concurrent on
/// all threads, writes sequential on all threads, 1 to 6 threads.
#[test]
fn readers_and_writers_single_shard_any_thread_count() {
    let stream = Stream::new(testkit::list(1), &testkit::workload(2, 600, 0.2, 0.0));
    for threads in 1..=6 {
        let m = naive(&stream.classes, threads);
        let r = testkit::run(&early(&m, &stream, 32), &stream, threads);
        testkit::assert_correct(&r);
        let r = testkit::run(&busy(&m, &stream, 32), &stream, threads);
        testkit::assert_correct(&r);
    }
}

#[test]
fn wrong_thread_count_is_an_invalid_config_not_a_hang() {
    let stream = Stream::new(testkit::list(2), &testkit::workload(1, 10, 0.5, 0.0));
    let s = early(&testkit::table1(), &stream, 8);
    let err = testkit::try_run(&s, &stream, 3).unwrap_err();
    assert!(matches!(err, RunError::InvalidConfig(_)), "{err}");
}

#[test]
fn build_resolves_the_mapping_and_checks_the_capacity() {
    let stream = Stream::new(testkit::list(2), &testkit::workload(4, 300, 0.2, 0.05));
    let env = stream.build_env(4);
    for id in [SchedulerId::Early, SchedulerId::BusyWait] {
        let mut spec = crate::SchedulerSpec::new(id);
        spec.early = Some(crate::EarlyParams {
            mapping: Some(psmr_mapping::MappingSpec::Naive),
            ..Default::default()
        });
        let s = crate::build(&spec, &env).unwrap();
        assert_eq!(s.id(), id);
        assert_eq!(s.info().mapping_how, "naive");
        testkit::assert_correct(&testkit::run(s.as_ref(), &stream, 4));
        // The default mapping (the optimizer) also builds and runs.
        let s = crate::build(&crate::SchedulerSpec::new(id), &env).unwrap();
        testkit::assert_correct(&testkit::run(s.as_ref(), &stream, 4));
        spec.early.as_mut().unwrap().queue_capacity = Some(0);
        assert!(matches!(
            crate::build(&spec, &env).err(),
            Some(RunError::InvalidConfig(_))
        ));
    }
}

/// A run cancelled mid-way stops delivering, still executes what it
/// delivered, and the oracle checks that prefix.
#[test]
fn cancelled_run_ends_and_checks_the_delivered_prefix() {
    let stream = Stream::new(testkit::spin(2, 0), &testkit::workload(8, 3000, 0.2, 0.05));
    let schedulers: Vec<Box<dyn Scheduler>> = vec![
        Box::new(early(&testkit::table1(), &stream, 2)),
        Box::new(busy(&testkit::table1(), &stream, 2)),
    ];
    for s in &schedulers {
        // 50 us per request: 3000 requests would take far longer than
        // the canceller needs to see 100 deliveries.
        let r = testkit::run_cancelled_after(s.as_ref(), &stream, 4, 100, 50_000);
        assert_eq!(r.verdict.checked, r.output.delivered);
        assert!(!r.verdict.state_compared);
    }
}

#[test]
fn counters_report_barrier_and_cycle_waits() {
    // Writes only on one shard, 3 threads: every request synchronizes.
    let stream = Stream::new(
        testkit::spin(1, 1_000),
        &testkit::workload(3, 300, 1.0, 0.0),
    );
    let m = naive(&stream.classes, 3);
    let r = testkit::run(&early(&m, &stream, 16), &stream, 3);
    testkit::assert_correct(&r);
    assert!(
        r.metrics
            .counters
            .get("barrier_waits")
            .copied()
            .unwrap_or(0)
            > 0
    );
    let r = testkit::run(&busy(&m, &stream, 16), &stream, 3);
    testkit::assert_correct(&r);
    assert!(r.metrics.counters.get("cycle_waits").copied().unwrap_or(0) > 0);
    let waits = r
        .trace
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::WaitEnd {
                    reason: WaitReason::Cycle,
                    ..
                }
            )
        })
        .count() as u64;
    assert_eq!(
        r.metrics.counters["cycle_waits"], waits,
        "one count per wait"
    );
}

/// Which mapping a property case uses.
#[derive(Clone, Copy, Debug)]
enum MappingKind {
    Naive,
    Random(u64),
    Resolved,
}

/// The application of a property case: synthetic spin, linked list or
/// key-value store (different operations, same classes).
fn app_of(kind: u8, shards: usize) -> psmr_core::app::AppSpec {
    match kind {
        0 => testkit::spin(shards, 300),
        1 => testkit::list(shards),
        _ => psmr_core::app::AppSpec::KvStore {
            shards,
            keys: 512,
            value_bytes: 8,
        },
    }
}

type Case = (usize, usize, f64, f64, u64, MappingKind, usize, u8);

fn arb_case() -> impl Strategy<Value = Case> {
    (
        1usize..=4,
        1usize..=6,
        0.0f64..=1.0,
        0.0f64..=0.3,
        any::<u64>(),
        prop_oneof![
            Just(MappingKind::Naive),
            any::<u64>().prop_map(MappingKind::Random),
            Just(MappingKind::Resolved),
        ],
        prop_oneof![Just(1usize), Just(4), Just(1024)],
        0u8..3,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random workloads and valid mappings: both schedulers agree with the
    /// oracle (responses, final state, order of conflicting requests).
    #[test]
    fn family_agrees_with_the_oracle(
        (shards, threads, writes, global, seed, kind, capacity, app) in arb_case()
    ) {
        let stream = Stream::new(app_of(app, shards), &testkit::workload(seed, 300, writes, global));
        let m = match kind {
            MappingKind::Naive => naive(&stream.classes, threads),
            MappingKind::Random(s) => testkit::random_mapping(shards, threads, &mut SplitMix64::new(s)),
            MappingKind::Resolved => psmr_mapping::resolve(
                &psmr_mapping::MappingSpec::default(), &stream.classes, threads,
            ).unwrap().ctot,
        };
        let e = early(&m, &stream, capacity);
        let r = testkit::run(&e, &stream, threads);
        prop_assert!(r.verdict.correct, "early {:?} {:?}", m, r.verdict);
        check_protocol_trace(&r, &stream, &e.config.plan, true);
        let b = busy(&m, &stream, capacity);
        let r = testkit::run(&b, &stream, threads);
        prop_assert!(r.verdict.correct, "busy-wait {:?} {:?}", m, r.verdict);
        check_protocol_trace(&r, &stream, &b.config.plan, false);
    }
}
