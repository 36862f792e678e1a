//! The bench sweep: shape of the grid, baseline, oversubscription flag,
//! refusal of bad sweep values. No timing is asserted.

use psmr_core::threads::ThreadHost;
use psmr_scenario::{
    bench, parse_scenario, BenchOptions, BenchReport, Diagnostic, Limits, RunMonitor, Scenario,
};

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

/// The native sweep of `sc` over `threads` × `writes`, on a pool of `pool`
/// threads, as if the machine had `cores` cores.
fn sweep(
    sc: &Scenario,
    threads: &[usize],
    writes: &[f64],
    pool: usize,
    cores: usize,
) -> Result<BenchReport, Vec<Diagnostic>> {
    let host = ThreadHost::with_capacity(pool).unwrap();
    let opts = BenchOptions {
        threads: threads.to_vec(),
        writes: writes.to_vec(),
        ..BenchOptions::default()
    };
    bench(
        sc,
        &opts,
        &Limits::native(),
        &host,
        cores,
        &RunMonitor::new(),
    )
}

#[test]
fn sweep_covers_threads_times_writes_with_a_sequential_baseline() {
    let r = sweep(&scenario(), &[1, 2], &[0.0, 0.2], 2, 2).unwrap();
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
        // The workers executed for a while, and no longer than the run
        // lasted on each of them: t threads give at most t × the wall time
        // per request (1 µs of slack for the clock's rounding).
        let wall_us = 1e6 / p.throughput_ops_s;
        if p.scheduler == "sequential" {
            // No workers: the delivering thread executes.
            assert_eq!((p.exec_us_per_request, p.worker_wait_share), (0.0, 0.0));
            continue;
        }
        assert!(p.exec_us_per_request > 0.0, "{p:?}");
        assert!(
            p.exec_us_per_request <= p.threads as f64 * wall_us + 1.0,
            "{p:?}"
        );
        assert!((0.0..1.0).contains(&p.worker_wait_share), "{p:?}");
    }
}

#[test]
fn bad_sweep_values_are_refused_before_running() {
    let e = sweep(&scenario(), &[0, 3], &[1.5], 2, 2).unwrap_err();
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

/// On a commit stream with `epaxos` in the scenario: epaxos is a baseline
/// like sequential (once per write share), pepaxos points carry their
/// speedup over it, the graph builder counts towards oversubscription, and
/// each write share's stream reports its SCC sizes.
#[test]
fn commit_streams_compare_pepaxos_with_epaxos() {
    let sc = parse_scenario(
        r#"{
  "name": "bench commits", "description": "small",
  "app": { "kind": "linked-list", "shards": 1, "size": 100 },
  "workload": { "requests": 600, "writes": 0.25, "commits": { "batch_max": 1 } },
  "threads": 2,
  "schedulers": [ { "id": "epaxos" }, { "id": "pepaxos" } ]
}"#,
        "bench.json",
    )
    .unwrap();
    let r = sweep(&sc, &[1, 2], &[0.0, 1.0], 3, 4).unwrap();
    for w in [0.0, 1.0] {
        let at: Vec<_> = r.points.iter().filter(|p| p.writes == w).collect();
        let labels: Vec<(&str, usize)> = at.iter().map(|p| (p.label.as_str(), p.threads)).collect();
        assert_eq!(
            labels,
            [
                ("sequential", 1),
                ("epaxos", 1),
                ("pepaxos", 1),
                ("pepaxos", 2)
            ]
        );
        let epaxos = at[1].throughput_ops_s;
        for p in &at[2..] {
            assert!(p.correct);
            let s = p.speedup_vs_epaxos.expect("a speedup over epaxos");
            assert!((s - p.throughput_ops_s / epaxos).abs() < 1e-9);
        }
        // 2 workers + delivering thread + graph builder > 3 of 4 cores? No:
        // 4 threads on 4 cores is not oversubscribed; 1 worker neither.
        assert!(!at[3].oversubscribed && !at[2].oversubscribed);
    }
    assert_eq!(r.streams.len(), 2);
    let scc = |i: usize| r.streams[i].stream.scc.clone().expect("SCC sizes");
    assert_eq!(scc(0).largest, 1, "no writes, no cycles");
    assert!(scc(1).largest > 1, "all writes without batching collide");
    let r3 = sweep(&sc, &[2], &[0.0], 3, 3).unwrap();
    let pe = r3.points.iter().find(|p| p.label == "pepaxos").unwrap();
    assert!(
        pe.oversubscribed,
        "2 workers + deliverer + builder on 3 cores"
    );
}
