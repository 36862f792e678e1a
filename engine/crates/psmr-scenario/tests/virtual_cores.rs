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

/// The quickstart's `early` with `threads` workers on `cores` virtual cores.
fn early_on(cores: u32, threads: usize) -> Report {
    let text = include_str!("../../../../scenarios/quickstart.json");
    let sc = parse_scenario(text, "quickstart.json").unwrap();
    let opts = RunOptions {
        requests: Some(2_000),
        virtual_cores: Some(cores),
        threads: Some(threads),
        trace: Some(false),
        schedulers: vec!["early".into()],
        ..RunOptions::default()
    };
    let host = ThreadHost::with_capacity(4).unwrap();
    run_scenario(&sc, &opts, &Limits::native(), &host, &RunMonitor::new()).unwrap()
}

#[test]
fn threads_set_the_workers_apart_from_the_cores_and_the_driver_shares_them() {
    // 2 workers on 2 cores: the driver time-shares them; on 8 cores it has
    // one of its own. Both labelled by their cores, both correct.
    let shared = early_on(2, 2);
    let own = early_on(8, 2);
    for (r, cores) in [(&shared, 2), (&own, 8)] {
        let run = &r.runs[0];
        assert!(run.correct && run.threads == 2, "{:?}", run.violation);
        let label = format!("virtual {cores} cores (model, reference cost table)");
        assert_eq!(run.mode_label.as_deref(), Some(label.as_str()));
    }
    assert_ne!(
        shared.runs[0].throughput_ops_s, own.runs[0].throughput_ops_s,
        "sharing the cores changed nothing"
    );
}
