//! Real-thread tests of the four variants against the oracle.

use proptest::prelude::*;
use psmr_core::oracle::Violation;
use psmr_core::run::RunResult;
use psmr_core::trace::TraceEvent;
use psmr_core::workload::{Skew, SplitMix64, WorkloadSpec};
use psmr_core::{EventKind, RunError, SchedulerId, WaitReason};
use psmr_mapping::{resolve, CtoT, MappingSpec};

use super::*;
use crate::spec::SpinPolicy;
use crate::testkit::{self, assert_correct, Stream};
use crate::SchedulerSpec;

const VARIANTS: [SchedulerId; 4] = [
    SchedulerId::WsConservative,
    SchedulerId::WsModerate,
    SchedulerId::WsAggressive,
    SchedulerId::WsOptimistic,
];

/// Spin briefly, then yield: 6 threads on a 2-core CI box must not starve
/// the thread they wait for.
fn test_spin() -> SpinPolicy {
    SpinPolicy {
        spins: 64,
        yields: 64,
        park_us: 20,
    }
}

fn ws(id: SchedulerId, ctot: &CtoT, s: &Stream, capacity: usize) -> WorkStealing {
    WorkStealing::with_ctot(id, ctot, &s.classes, test_spin(), capacity).unwrap()
}

fn counter(r: &RunResult, name: &str) -> u64 {
    r.metrics.counters.get(name).copied().unwrap_or(0)
}

fn skewed(seed: u64, requests: u32, writes: f64, share: f64) -> WorkloadSpec {
    WorkloadSpec {
        skew: Skew::Skewed { hot: 0, share },
        ..testkit::workload(seed, requests, writes, 0.0)
    }
}

#[test]
fn every_variant_agrees_with_sequential_on_table1() {
    let s = Stream::new(testkit::list(2), &testkit::workload(11, 1500, 0.2, 0.05));
    for id in VARIANTS {
        let r = testkit::run(&ws(id, &testkit::table1(), &s, 64), &s, 4);
        assert_correct(&r);
        assert_eq!(r.metrics.requests, 1500, "{id}");
        assert!(r.output.extra.iter().any(|(k, _)| k == STEALING_THROUGHPUT));
    }
}

#[test]
fn build_resolves_the_mapping_and_checks_the_thread_count() {
    let s = Stream::new(testkit::list(2), &testkit::workload(5, 300, 0.1, 0.05));
    for id in VARIANTS {
        let mut spec = SchedulerSpec::new(id);
        spec.stealing = Some(crate::EarlyParams {
            mapping: Some(MappingSpec::Naive),
            ..Default::default()
        });
        let env = s.build_env(3);
        let sched = crate::build(&spec, &env).unwrap();
        assert_eq!(sched.id(), id);
        assert_eq!(sched.info().mapping.len(), s.classes.len());
        assert_correct(&testkit::run(sched.as_ref(), &s, 3));
        // A run with another thread count than the mapping's is refused.
        let err = testkit::try_run(sched.as_ref(), &s, 2).unwrap_err();
        assert!(matches!(err, RunError::InvalidConfig(_)), "{err:?}");
    }
    let mut spec = SchedulerSpec::new(SchedulerId::WsModerate);
    spec.stealing = Some(crate::EarlyParams {
        queue_capacity: Some(0),
        ..Default::default()
    });
    let env = s.build_env(2);
    assert!(matches!(
        crate::build(&spec, &env),
        Err(RunError::InvalidConfig(_))
    ));
}

/// Every `Steal` is followed, on the same thread, by exactly the stolen
/// executions and then its `StealDone`; no steal takes more than one ready
/// queue's worth (`capacity`); counters agree with the trace.
fn check_steal_trace(r: &RunResult, capacity: usize) {
    let mut open: std::collections::HashMap<u16, (u16, u32, u32)> = Default::default();
    let mut steals = 0u64;
    for e in &r.trace {
        match e.kind {
            EventKind::Steal { victim, count, .. } => {
                assert_ne!(victim, e.thread, "a thread never steals from itself");
                assert!((1..=capacity as u32).contains(&count), "steal of {count}");
                assert!(open.insert(e.thread, (victim, count, 0)).is_none());
                steals += 1;
            }
            EventKind::ExecStart { .. } => {
                if let Some(o) = open.get_mut(&e.thread) {
                    o.2 += 1;
                }
            }
            EventKind::StealDone { victim } => {
                let (v, count, ran) = open.remove(&e.thread).expect("StealDone without Steal");
                assert_eq!((v, ran), (victim, count));
            }
            _ => {}
        }
    }
    assert!(open.is_empty());
    assert_eq!(steals, counter(r, "steals"));
    assert_eq!(counter(r, "stolen_requests"), counter(r, "stolen_executed"));
}

/// One hot shard among four: the threads of the cold shards idle and must
/// steal from the hot shard's threads. Stealing depends on timing, so a few
/// attempts are allowed; with stealing disabled the count stays 0 and the
/// test fails.
#[test]
fn a_skewed_workload_makes_every_variant_steal() {
    let app = testkit::spin(4, 3_000);
    let s = Stream::new(app, &skewed(7, 1200, 0.02, 0.97));
    let ctot = resolve(&MappingSpec::Naive, &s.classes, 4).unwrap().ctot;
    for id in VARIANTS {
        let mut stolen = 0;
        for _attempt in 0..4 {
            let r = testkit::run(&ws(id, &ctot, &s, 16), &s, 4);
            assert_correct(&r);
            check_steal_trace(&r, 16);
            stolen = counter(&r, "stolen_executed");
            if stolen > 0 {
                let tput = r.metrics.extra[STEALING_THROUGHPUT];
                assert!(tput > 0.0, "{id}: stealing throughput {tput}");
                break;
            }
        }
        assert!(stolen > 0, "{id} never stole on a 97% skewed workload");
    }
}

/// The ready queue bound: with capacity 1 and 2 and slow requests, the
/// scheduler must block on full queues (FullQueue waits) and no sampled
/// queue length exceeds the bound; the run stays correct.
#[test]
fn full_queues_block_the_scheduler_and_never_exceed_the_bound() {
    let s = Stream::new(
        testkit::spin(2, 20_000),
        &testkit::workload(3, 300, 0.2, 0.05),
    );
    for id in VARIANTS {
        for capacity in [1usize, 2] {
            let r = testkit::run(&ws(id, &testkit::table1(), &s, capacity), &s, 4);
            assert_correct(&r);
            assert!(r
                .output
                .queue_samples
                .iter()
                .all(|q| q.len as usize <= capacity));
            let full = testkit::wait_starts(&r, WaitReason::FullQueue)
                .next()
                .is_some();
            assert!(
                full,
                "{id} capacity {capacity}: the scheduler never blocked"
            );
        }
    }
}

/// Cancelling mid-run: delivery stops, queued requests drain, the
/// delivered prefix is correct.
#[test]
fn cancellation_stops_delivery_and_drains() {
    let s = testkit::cancel_stream();
    for id in VARIANTS {
        let ws = ws(id, &testkit::table1(), &s, 16);
        testkit::run_cancelled_after(&ws, &s, 4, 200, 0);
    }
}

/// Trace vocabulary: markers and cycles/barriers show up, each wait that
/// starts ends, and Flag events alternate per thread.
#[test]
fn waits_are_paired_and_flags_alternate() {
    let s = Stream::new(testkit::spin(2, 1_000), &skewed(4, 1500, 0.2, 0.9));
    for id in VARIANTS {
        let r = testkit::run(&ws(id, &testkit::table1(), &s, 64), &s, 4);
        assert_correct(&r);
        // Enqueued is recorded inside the enqueue's critical section, so it
        // precedes the Dequeued of the same request at the same thread.
        let mut enqueued = std::collections::HashSet::new();
        for e in &r.trace {
            match e.kind {
                EventKind::Enqueued { req, to } => {
                    enqueued.insert((req, to));
                }
                EventKind::Dequeued { req } => {
                    assert!(
                        enqueued.contains(&(req, e.thread)),
                        "{id}: #{req} dequeued before enqueued"
                    );
                }
                _ => {}
            }
        }
        let mut waiting: std::collections::HashMap<u16, WaitReason> = Default::default();
        let mut flags: std::collections::HashMap<u16, bool> = Default::default();
        for TraceEvent { thread, kind, .. } in &r.trace {
            match *kind {
                EventKind::WaitStart { reason, .. } => {
                    assert!(
                        waiting.insert(*thread, reason).is_none(),
                        "{id}: nested wait"
                    );
                }
                EventKind::WaitEnd { reason, .. } => {
                    assert_eq!(waiting.remove(thread), Some(reason), "{id}");
                }
                EventKind::Flag { ready } => {
                    let prev = flags.insert(*thread, ready).unwrap_or(false);
                    assert_ne!(prev, ready, "{id}: flag event without a change");
                }
                _ => {}
            }
        }
        assert!(waiting.is_empty());
        let sync_reason = if id == SchedulerId::WsConservative {
            WaitReason::Barrier
        } else {
            WaitReason::Cycle
        };
        assert!(testkit::wait_starts(&r, sync_reason).next().is_some());
        let releases = r
            .trace
            .iter()
            .filter(|e| matches!(e.kind, EventKind::SyncRelease { .. }))
            .count();
        let sequential = s
            .requests
            .iter()
            .filter(|q| testkit::table1().mode(q.class) == psmr_mapping::Mode::Sequential)
            .count();
        assert_eq!(
            releases, sequential,
            "{id}: one release per sequential request"
        );
    }
}

/// The broken stealer (ignores ready/exec flags and markers) must be
/// caught by the oracle as an order violation naming a conflicting pair.
/// Many writes on a hot shard with slow requests keep sequential requests
/// queued in front of concurrent ones, which the broken stealer then runs
/// early; a bounded number of attempts guards against an unlucky schedule.
#[test]
fn the_oracle_catches_the_broken_stealer() {
    let s = Stream::new(testkit::spin(2, 5_000), &skewed(21, 600, 0.3, 0.95));
    let ctot = testkit::table1();
    let mut caught = None;
    for _attempt in 0..8 {
        let sched = ws(SchedulerId::WsAggressive, &ctot, &s, 256).into_broken();
        let r = testkit::try_run(&sched, &s, 4).unwrap();
        if !r.verdict.correct {
            caught = r.verdict.violation;
            break;
        }
    }
    match caught {
        Some(Violation::Order {
            first,
            second,
            first_class,
            second_class,
            ..
        }) => {
            assert!(first < second);
            let conflicting = s.classes.conflicts(
                s.requests[first as usize].class,
                s.requests[second as usize].class,
            );
            assert!(
                conflicting,
                "{first_class} #{first} vs {second_class} #{second}"
            );
        }
        other => panic!("the broken stealer was not caught as a reversal: {other:?}"),
    }
}

fn random_workload(rng: &mut SplitMix64, seed: u64) -> (usize, WorkloadSpec) {
    let shards = 1 + rng.below(4) as usize;
    let skew = if rng.below(2) == 0 {
        Skew::Balanced
    } else {
        Skew::Skewed {
            hot: rng.below(shards as u64) as usize,
            share: 0.5 + 0.5 * rng.unit(),
        }
    };
    let w = WorkloadSpec {
        skew,
        ..testkit::workload(seed, 250, rng.unit() * 0.5, rng.unit() * 0.2)
    };
    (shards, w)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random workloads, thread counts and mappings (naive, optimizer,
    /// random valid): every variant agrees with sequential execution.
    #[test]
    fn every_variant_agrees_with_sequential(seed in any::<u64>(), threads in 1usize..=6, which in 0u8..3) {
        let mut rng = SplitMix64::new(seed);
        let (shards, w) = random_workload(&mut rng, seed);
        let s = Stream::new(testkit::list(shards), &w);
        let ctot = match which {
            0 => resolve(&MappingSpec::Naive, &s.classes, threads).unwrap().ctot,
            1 => resolve(&MappingSpec::default(), &s.classes, threads).unwrap().ctot,
            _ => testkit::random_mapping(shards, threads, &mut rng),
        };
        for id in VARIANTS {
            let r = testkit::try_run(&ws(id, &ctot, &s, 1 + rng.below(64) as usize), &s, threads).unwrap();
            prop_assert!(r.verdict.correct, "{} {} threads {:?}: {:?}", id, threads, ctot, r.verdict);
        }
    }
}

/// With the `fault-injection` feature, a scenario selects the broken
/// stealer through `SchedulerSpec::fault`; `build` refuses unknown faults.
#[cfg(feature = "fault-injection")]
#[test]
fn a_spec_selects_the_broken_stealer_and_the_oracle_catches_it() {
    let s = Stream::new(testkit::spin(2, 5_000), &skewed(21, 600, 0.3, 0.95));
    let env = s.build_env(4);
    let mut spec = SchedulerSpec::new(SchedulerId::WsOptimistic);
    spec.stealing = Some(crate::EarlyParams {
        mapping: Some(MappingSpec::Naive),
        ..Default::default()
    });
    spec.fault = Some("no-such-fault".into());
    assert!(matches!(
        crate::build(&spec, &env),
        Err(RunError::InvalidConfig(_))
    ));
    spec.fault = Some(broken::FAULT_NAME.into());
    let sched = crate::build(&spec, &env).unwrap();
    let caught = (0..8).any(|_| {
        let r = testkit::try_run(sched.as_ref(), &s, 4).unwrap();
        matches!(r.verdict.violation, Some(Violation::Order { .. }))
    });
    assert!(
        caught,
        "the oracle never caught the broken stealer selected by the spec"
    );
}
