//! The bench sweep: shape of the grid, baseline, oversubscription flag,
//! refusal of bad sweep values. No timing is asserted.

use psmr_core::threads::ThreadHost;
use psmr_scenario::{bench, parse_scenario, BenchOptions, Limits, RunMonitor, Scenario};

fn scenario() -> Scenario {
    parse_scenario(
        r#"{
  "name": "bench", "description": "small",
  "app": { "kind": "linked-list", "shards": 2, "size": "light" },
  "workload": { "requests": 1500, "writes": 0.05, "global": 0.02 },
  "threads": 2,
  "run": { "trace": true },
  "schedulers": [ { "id": "early" }, { "id": "ws-optimistic", "label": "wso" } ]
}"#,
        "bench.json",
    )
    .unwrap()
}

#[test]
fn sweep_covers_threads_times_writes_with_a_sequential_baseline() {
    let host = ThreadHost::with_capacity(2).unwrap();
    let opts = BenchOptions {
        threads: vec![1, 2],
        writes: vec![0.0, 0.2],
        ..BenchOptions::default()
    };
    let r = bench(
        &scenario(),
        &opts,
        &Limits::native(),
        &host,
        2,
        &RunMonitor::new(),
    )
    .unwrap();
    assert_eq!(r.cores, 2);
    // Per write share: one sequential baseline + 2 schedulers × 2 thread counts.
    assert_eq!(r.points.len(), 10, "{:#?}", r.points);
    for w in [0.0, 0.2] {
        let at: Vec<_> = r.points.iter().filter(|p| p.writes == w).collect();
        assert_eq!(at[0].scheduler, "sequential");
        assert_eq!(at[0].speedup_vs_sequential, 1.0);
        let labels: Vec<(&str, usize)> = at[1..]
            .iter()
            .map(|p| (p.label.as_str(), p.threads))
            .collect();
        assert_eq!(labels, [("early", 1), ("wso", 1), ("early", 2), ("wso", 2)]);
    }
    for p in &r.points {
        assert!(p.correct, "{p:?}");
        assert!(p.throughput_ops_s > 0.0);
        assert_eq!(p.oversubscribed, p.threads + 1 > 2, "{p:?}");
        let expected = p.throughput_ops_s
            / r.points
                .iter()
                .find(|s| s.writes == p.writes)
                .unwrap()
                .throughput_ops_s;
        assert!((p.speedup_vs_sequential - expected).abs() < 1e-9);
    }
}

#[test]
fn bad_sweep_values_are_refused_before_running() {
    let host = ThreadHost::with_capacity(2).unwrap();
    let opts = BenchOptions {
        threads: vec![0, 3],
        writes: vec![1.5],
        ..BenchOptions::default()
    };
    let e = bench(
        &scenario(),
        &opts,
        &Limits::native(),
        &host,
        2,
        &RunMonitor::new(),
    )
    .unwrap_err();
    let msgs: Vec<String> = e
        .iter()
        .map(|d| format!("{}: {}", d.path, d.message))
        .collect();
    assert_eq!(msgs.len(), 3, "{msgs:?}");
    assert!(msgs[0].starts_with("threads: --threads 0"));
    assert!(msgs[1].starts_with("threads: --threads 3: expected 1..=2"));
    assert!(msgs[2].starts_with("workload.writes: --writes 1.5"));
}

#[test]
fn default_threads_are_powers_of_two_up_to_the_scenario() {
    let mut sc = scenario();
    sc.threads = 6;
    assert_eq!(psmr_scenario::bench::default_threads(&sc), [1, 2, 4, 6]);
    sc.threads = 1;
    assert_eq!(psmr_scenario::bench::default_threads(&sc), [1]);
}
