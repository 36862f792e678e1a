//! A scenario on virtual cores from Rust (`RunOptions::virtual_cores`):
//! every scheduler of the quickstart correct, the same report on every
//! repeat, and more virtual workers than the caller's pool holds.

use psmr_core::threads::ThreadHost;
use psmr_scenario::{parse_scenario, run_scenario, Limits, Report, RunMonitor, RunOptions};

fn quickstart(cores: u32, host: &ThreadHost) -> Report {
    let text = include_str!("../../../../scenarios/quickstart.json");
    let sc = parse_scenario(text, "quickstart.json").unwrap();
    let opts = RunOptions {
        requests: Some(2_000),
        virtual_cores: Some(cores),
        ..RunOptions::default()
    };
    run_scenario(&sc, &opts, &Limits::native(), host, &RunMonitor::new()).unwrap()
}

#[test]
fn the_quickstart_on_virtual_cores_is_correct_and_the_same_every_time() {
    let host = ThreadHost::with_capacity(4).unwrap();
    let first = quickstart(4, &host);
    assert_eq!(first.runs.len(), 4);
    for r in &first.runs {
        assert!(r.correct, "{}: {:?}", r.label, r.violation);
        assert_eq!(r.threads, 4);
        assert!(!r.trace.is_empty());
    }
    for _ in 0..2 {
        let again = quickstart(4, &host);
        for (a, b) in first.runs.iter().zip(&again.runs) {
            assert_eq!(a.trace, b.trace, "{}: the trace changed", a.label);
            assert_eq!(a.throughput_ops_s, b.throughput_ops_s, "{}", a.label);
        }
    }
}

#[test]
fn a_virtual_run_may_have_more_workers_than_the_pool() {
    let host = ThreadHost::with_capacity(2).unwrap();
    let r = quickstart(16, &host);
    assert!(r.runs.iter().all(|r| r.correct && r.threads == 16));
}
