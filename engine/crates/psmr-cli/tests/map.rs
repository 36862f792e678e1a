//! `psmr map FILE.json`: the optimizer on a class table written by hand.

mod support;

use support::{assert_contains_all, psmr, scenario_file as file, stderr, stdout};

/// Issue 30's reproducer: A and B independent, D conflicting with both,
/// S0-S3 conflicting with themselves and everything, equal weights.
const REPRODUCER: &str = r#"{
  "threads": 16,
  "time_limit_s": 5,
  "classes": [
    {"name": "A", "weight": 1}, {"name": "B", "weight": 1}, {"name": "D", "weight": 1},
    {"name": "S0", "weight": 1}, {"name": "S1", "weight": 1},
    {"name": "S2", "weight": 1}, {"name": "S3", "weight": 1}
  ],
  "conflicts": [["A", "D"], ["B", "D"],
    ["S0", "S0"], ["S1", "S1"], ["S2", "S2"], ["S3", "S3"],
    ["S0", "A"], ["S0", "B"], ["S0", "D"], ["S0", "S1"], ["S0", "S2"], ["S0", "S3"],
    ["S1", "A"], ["S1", "B"], ["S1", "D"], ["S1", "S2"], ["S1", "S3"],
    ["S2", "A"], ["S2", "B"], ["S2", "D"], ["S2", "S3"],
    ["S3", "A"], ["S3", "B"], ["S3", "D"]]
}"#;

/// Workload 1 of paper 003 section 6.5 on 2 shards, by footprints.
const WORKLOAD_1: &str = r#"{
  "threads": 4,
  "classes": [
    {"name": "R1", "weight": 0.40375, "footprint": [{"lo": 0, "hi": 0, "write": false}]},
    {"name": "W1", "weight": 0.07125, "footprint": [{"lo": 0, "hi": 0, "write": true}]},
    {"name": "R2", "weight": 0.40375, "footprint": [{"lo": 1, "hi": 1, "write": false}]},
    {"name": "W2", "weight": 0.07125, "footprint": [{"lo": 1, "hi": 1, "write": true}]},
    {"name": "Rg", "weight": 0.0425, "footprint": [{"lo": 0, "hi": 1, "write": false}]},
    {"name": "Wg", "weight": 0.0075, "footprint": [{"lo": 0, "hi": 1, "write": true}]}
  ]
}"#;

const BAD: &str = r#"{
  "threads": 0,
  "time_limit_s": -1,
  "classes": [
    {"name": "A", "weight": -2},
    {"name": "A", "footprint": [{"lo": 3, "hi": 1, "write": true}]}
  ],
  "conflicts": [["A", "Z"]]
}"#;

#[test]
fn map_proves_the_reproducer_optimum_and_checks_the_rules() {
    let f = file("reproducer", REPRODUCER);
    let o = psmr(&["map", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for want in [
        "7 classes on 16 threads, time limit 5 s",
        "O.3   0\n",
        "O.1a  0.7143\n",
        "O.1b  -0.2857\n",
        "O.2   0.8750\n",
        "cost  1.3036",
        "result: optimal (proven in",
        "rules R.1-R.5: ok\n",
    ] {
        assert!(out.contains(want), "{want:?} missing from:\n{out}");
    }
    let o = psmr(&["map", f.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["o3"], 0);
    assert!((v["cost"].as_f64().unwrap() - (3.0 / 7.0 + 7.0 / 8.0)).abs() < 1e-9);
    assert_eq!(v["optimal"], true);
    assert_eq!(v["gap"], 0.0);
    assert_eq!(v["rules"], "ok");
    // A and B concurrent on one shared thread, every other class with them.
    let cls = v["classes"].as_array().unwrap();
    assert_eq!(cls[0]["mode"], "conc");
    assert_eq!(cls[1]["mode"], "conc");
    for c in cls {
        assert_eq!(c["threads"], cls[0]["threads"], "{c}");
    }
    assert_eq!(cls[0]["threads"].as_array().unwrap().len(), 1);
}

#[test]
fn map_by_footprints_gives_the_papers_mapping_for_workload_1() {
    let f = file("workload1", WORKLOAD_1);
    let o = psmr(&["map", f.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let mode = |i: usize| v["classes"][i]["mode"].as_str().unwrap().to_string();
    let threads = |i: usize| v["classes"][i]["threads"].clone();
    // R1, R2 concurrent, each local write on its reads' threads, Wg on all.
    assert_eq!([mode(0), mode(2)], ["conc", "conc"]);
    assert_eq!(threads(1), threads(0));
    assert_eq!(threads(3), threads(2));
    assert_eq!(threads(5), serde_json::json!([0, 1, 2, 3]));
    assert_eq!(v["o3"], 0);
    assert_eq!(v["optimal"], true);
    assert!((v["cost"].as_f64().unwrap() - -1.215).abs() < 1e-9);
}

#[test]
fn map_errors_are_located() {
    let f = file("bad", BAD);
    let o = psmr(&["map", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    let name = f.display().to_string();
    for want in [
        "2:14: threads: expected 1..=64 threads, got 0",
        "3:19: time_limit_s: expected a positive number of seconds, got -1",
        "5:29: classes[0].weight: expected a non-negative weight, got -2",
        "6:14: classes[1].name: class `A` is defined twice",
        "6:33: classes[1].footprint[0]: empty range: lo 3 > hi 1",
        "8:23: conflicts[0][1]: unknown class `Z`",
    ] {
        assert!(
            err.contains(&format!("{name}:{want}")),
            "{want:?} missing from:\n{err}"
        );
    }
    let f = file(
        "typo",
        "{\"threads\": 2,\n \"classes\": [{\"name\": \"A\", \"wieght\": 1}]}",
    );
    let o = psmr(&["map", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.starts_with(&format!(
            "{}:2:28: classes[0].wieght: unknown field `wieght`",
            f.display()
        )),
        "{err}"
    );
    let f = file("syntax", "{\"threads\": 2,\n \"classes\": [}");
    let o = psmr(&["map", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_contains_all(&err, &[":2:14: ", "invalid JSON"]);
}

/// A reader that goes away (`psmr map --json | head`) ends the command
/// quietly: no panic on the closed pipe, exit 0. Here the pipe's read end
/// is closed before psmr starts, so its first write meets it.
#[test]
fn a_reader_that_goes_away_is_not_a_panic() {
    use std::process::{Command, Stdio};
    let f = file("map_pipe", WORKLOAD_1);
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let o = Command::new(env!("CARGO_BIN_EXE_psmr"))
        .args(["map", f.to_str().unwrap(), "--json"])
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(o.status.code(), Some(0), "{err}");
}
