//! `psmr bench`: the sweep's JSON and its refusal of bad values.

mod support;

use support::{assert_contains_all, assert_ok, psmr, temp_file};

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

/// `psmr bench FILE ARGS --json`, which must succeed: its report.
fn bench_json(file: &std::path::Path, args: &[&str]) -> serde_json::Value {
    let o = psmr(&[&["bench", file.to_str().unwrap()], args, &["--json"]].concat());
    assert_ok(&o);
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn bench_json_has_one_point_per_scheduler_threads_and_writes() {
    let v = bench_json(&file(), &["--threads", "1,2", "--writes", "0,0.3"]);
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

/// Issue 29: `psmr bench` judges each point's run once, with its overrides
/// applied (as the browser does); the file is not validated on its own
/// first. A `threads` value every point replaces (0, out of range) does not
/// stop the sweep; without `--threads` the file's value is the sweep's and
/// is refused as validation refuses it.
#[test]
fn bench_judges_the_file_only_with_each_points_overrides() {
    let text = SCENARIO.replace("\"threads\": 2", "\"threads\": 0");
    let f = temp_file("psmr-bench-tests", "threads-0.json", &text);
    let o = psmr(&["validate", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "the file alone is invalid");
    let v = bench_json(&f, &["--threads", "1,2", "--requests", "300"]);
    let points: Vec<(&str, u64)> = v["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["label"].as_str().unwrap(), p["threads"].as_u64().unwrap()))
        .collect();
    assert_eq!(points, [("sequential", 1), ("early", 1), ("early", 2)]);
    let o = psmr(&["bench", f.to_str().unwrap(), "--requests", "300"]);
    assert_eq!(o.status.code(), Some(2));
    // Worded as validation words the file's value, not as a `--threads`.
    let err = String::from_utf8_lossy(&o.stderr);
    assert_contains_all(&err, &["threads: expected 1..=64 worker threads", "got 0"]);
}
