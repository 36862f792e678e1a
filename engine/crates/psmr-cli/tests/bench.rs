//! `psmr bench`: the sweep's JSON and its refusal of bad values.

mod support;

use support::{assert_ok, psmr, temp_file};

const SCENARIO: &str = r#"{
  "name": "bench cli", "description": "small",
  "app": { "kind": "spin", "shards": 2, "ns": 100 },
  "workload": { "requests": 800, "writes": 0.1, "global": 0.05 },
  "threads": 2,
  "schedulers": [ { "id": "sequential" }, { "id": "early" } ]
}"#;

fn file() -> std::path::PathBuf {
    temp_file("psmr-bench-tests", "bench.json", SCENARIO)
}

#[test]
fn bench_json_has_one_point_per_scheduler_threads_and_writes() {
    let f = file();
    let o = psmr(&[
        "bench",
        f.to_str().unwrap(),
        "--threads",
        "1,2",
        "--writes",
        "0,0.3",
        "--json",
    ]);
    assert_ok(&o);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let points = v["points"].as_array().unwrap();
    // Per write share: the sequential baseline and early at 1 and 2 threads.
    assert_eq!(points.len(), 6);
    let cores = v["cores"].as_u64().unwrap();
    for p in points {
        for key in [
            "throughput_ops_s",
            "speedup_vs_sequential",
            "scheduler_ns_per_request",
            "exec_us_per_request",
            "worker_wait_share",
            "correct",
        ] {
            assert!(p.get(key).is_some(), "{key} missing in {p}");
        }
        let threads = p["threads"].as_u64().unwrap();
        assert_eq!(p["oversubscribed"], threads + 1 > cores);
        assert_eq!(p["correct"], true);
    }
}

#[test]
fn bench_refuses_bad_sweeps() {
    let f = file();
    let o = psmr(&["bench", f.to_str().unwrap(), "--writes", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("workload.writes: --writes 2"));
    let o = psmr(&["bench", f.to_str().unwrap(), "--threads", "x"]);
    assert_eq!(o.status.code(), Some(2), "clap refuses a non-number");
}
