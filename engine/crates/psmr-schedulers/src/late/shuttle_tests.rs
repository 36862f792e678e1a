//! Shuttle: whole-executor schedules of late scheduling with more workers
//! and requests than loom can afford. The main thread inserts (the real
//! [`Dag::insert`], a bound of 3 so it also blocks on a full graph) while
//! three workers run the real [`worker_loop`]; shuttle's random and PCT
//! schedulers pick the interleavings.
//!
//! ```text
//! RUSTFLAGS="--cfg shuttle" CARGO_TARGET_DIR=engine/target/shuttle \
//!     cargo test -p psmr-schedulers --release shuttle_late
//! ```

use psmr_core::workload::generate;
use psmr_core::Stream;
use shuttle::sync::Arc;

use super::dag::{worker_loop, Dag};
use crate::shuttle_log::{join_and_check, spawn_logged, Log, LogProbe};
use crate::testkit;

fn stream(seed: u64) -> &'static Stream {
    let app = testkit::spin(3, 0);
    let s = generate(
        &app,
        &app.classes(),
        &testkit::workload(seed, 24, 0.3, 0.15),
    );
    Box::leak(Box::new(s))
}

fn run(s: &'static Stream, broken: bool) {
    let dag = Arc::new(Dag::new(3).ignoring_conflicts(broken));
    let log = Arc::new(Log::default());
    let workers = dag.clone();
    let handles = spawn_logged(3, &log, move |_, mut probe| {
        worker_loop(&workers, &mut probe, |_| 0);
    });
    let mut probe = LogProbe { log: log.clone() };
    for r in 0..s.len() as u32 {
        dag.insert(r, |other| s.conflicts(other, r), &mut probe);
    }
    dag.close();
    join_and_check(handles, s, &log);
}

#[test]
fn shuttle_late_random_schedules() {
    for seed in 1..4 {
        let s = stream(seed);
        shuttle::check_random(move || run(s, false), 300);
    }
}

#[test]
fn shuttle_late_pct_schedules() {
    for seed in 11..14 {
        let s = stream(seed);
        shuttle::check_pct(move || run(s, false), 300, 3);
    }
}

/// The schedules have teeth: a graph without edges is caught.
#[test]
fn shuttle_late_graph_without_edges_is_caught() {
    let s = stream(2);
    let caught = std::panic::catch_unwind(|| shuttle::check_random(move || run(s, true), 300));
    assert!(
        caught.is_err(),
        "no schedule exposed the graph without edges"
    );
}
