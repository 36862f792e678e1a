use super::*;
use psmr_core::cancel::CancelToken;
use psmr_core::exec::Progress;
use psmr_core::trace::{EventKind, TraceConfig};

use crate::testkit::{self, Stream};

#[test]
fn sequential_run_agrees_with_the_oracle_and_traces_every_request() {
    let stream = Stream::new(testkit::list(2), &testkit::workload(3, 500, 0.3, 0.1));
    let r = testkit::run(&Sequential::new(), &stream, 1);
    testkit::assert_correct(&r);
    assert_eq!(r.metrics.requests, 500);
    let starts = r
        .trace
        .iter()
        .filter(|e| matches!(e.kind, EventKind::ExecStart { .. }))
        .count();
    assert_eq!(starts, 500);
}

#[test]
fn sequential_executes_a_commit_stream_in_canonical_order() {
    for seed in 0..20 {
        let stream = testkit::commit_stream(seed, 60, 3, 0.5);
        let r = testkit::run(&Sequential::new(), &stream, 1);
        testkit::assert_correct(&r);
        let order = psmr_core::trace::exec_order(&r.trace);
        assert_eq!(order, stream.canonical, "seed {seed}");
    }
}

#[test]
fn sequential_runs_an_event_forest_breadth_first() {
    for seed in 0..20 {
        let stream = testkit::event_stream(seed, 15, 3, 4);
        let r = testkit::run(&Sequential::new(), &stream, 1);
        testkit::assert_correct(&r);
        assert!(
            !r.verdict.replayed,
            "sequential runs colors in canonical order"
        );
        assert_eq!(r.metrics.requests as usize, stream.len());
    }
}

/// A small stream of each kind: totally ordered, ePaxos commits, events.
fn one_stream_of_each_kind() -> [Stream; 3] {
    [
        Stream::new(testkit::list(2), &testkit::workload(5, 100, 0.3, 0.1)),
        testkit::commit_stream(5, 100, 2, 0.6),
        testkit::event_stream(5, 30, 2, 3),
    ]
}

/// Cancel after `k` deliveries: exactly the runnable prefix executes, and
/// the oracle checks that set (not the whole stream).
#[test]
fn cancel_checks_the_runnable_prefix_for_every_kind() {
    for stream in &one_stream_of_each_kind() {
        for k in [0usize, 1, 7, stream.deliveries() / 2] {
            let progress = Progress::new(2);
            let cancel = CancelToken::default();
            let r = testkit::run_progress_cancel_after(
                &Sequential::new(),
                stream,
                k,
                &cancel,
                &progress,
            );
            testkit::assert_correct(&r);
            assert_eq!(r.output.delivered as usize, k, "{:?}", stream.kind());
            assert_eq!(r.verdict.checked as usize, stream.runnable(k));
            assert_eq!(r.metrics.requests as usize, stream.runnable(k));
            assert!(!r.verdict.state_compared);
            let _ = TraceConfig::OFF;
        }
    }
}

/// The broken variant (pairs swapped) is caught on every run of every
/// stream kind: the runs are single-threaded, so each seed's verdict is
/// fixed, and each of these streams has a swapped pair that conflicts.
#[test]
fn the_swapped_pairs_variant_is_caught_on_every_kind() {
    for stream in &one_stream_of_each_kind() {
        for _ in 0..3 {
            let r = testkit::run(&Sequential::new().into_broken(), stream, 1);
            assert!(!r.verdict.correct, "{:?} not caught", stream.kind());
        }
    }
}
