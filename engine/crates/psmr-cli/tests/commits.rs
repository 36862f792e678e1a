//! `psmr commits` writes a commit stream; `psmr run --commits` replays it
//! and `--order` writes the execution orders, which agree with the
//! canonical order on every conflicting pair.

mod support;

use std::path::PathBuf;

use support::{assert_ok, psmr, temp_dir, temp_file};

const COMMITS: &str = r#"{
  "name": "commits cli test",
  "description": "a small simulated commit stream without batching",
  "app": { "kind": "linked-list", "shards": 1, "size": 100 },
  "workload": { "seed": 2, "requests": 400, "writes": 0.25,
                "commits": { "batch_max": 1 } },
  "threads": 2,
  "schedulers": [ { "id": "sequential" }, { "id": "epaxos" }, { "id": "pepaxos" } ]
}"#;

const GROUP: &str = "psmr-commits-tests";

/// Writes `text` to `name` in this file's folder.
fn file(name: &str, text: &str) -> PathBuf {
    temp_file(GROUP, name, text)
}

#[test]
fn a_written_stream_replays_and_orders_are_written() {
    let d = temp_dir(GROUP);
    let sc = file("commits.json", COMMITS);
    let stream = d.join("stream.json");
    let (sc_s, stream_s) = (sc.to_str().unwrap(), stream.to_str().unwrap());
    let o = psmr(&["commits", sc_s, "--out", stream_s]);
    assert_ok(&o);
    assert!(String::from_utf8_lossy(&o.stderr).contains("SCCs"));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stream).unwrap()).unwrap();
    let instances = v["instances"].as_array().unwrap();
    let commands: usize = instances
        .iter()
        .map(|i| i["commands"].as_array().unwrap().len())
        .sum();
    assert_eq!(commands, 400);
    assert!(v["scc"]["sccs"].as_u64().unwrap() > 0);

    // Replaying the written stream gives the same run as simulating it.
    let order = d.join("order.json");
    let o = psmr(&[
        "run",
        sc_s,
        "--commits",
        stream_s,
        "--order",
        order.to_str().unwrap(),
        "--json",
    ]);
    assert_ok(&o);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let direct: serde_json::Value =
        serde_json::from_slice(&psmr(&["run", sc_s, "--no-trace", "--json"]).stdout).unwrap();
    assert_eq!(
        report["runs"][0]["state_digest"], direct["runs"][0]["state_digest"],
        "the replayed stream is the simulated one"
    );
    let orders: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&order).unwrap()).unwrap();
    assert_eq!(orders["kind"], "commits");
    let canonical = &orders["canonical"]["instances"];
    assert_eq!(canonical.as_array().unwrap().len(), instances.len());
    let runs = orders["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3);
    // sequential and epaxos execute exactly the canonical order.
    for r in &runs[..2] {
        assert_eq!(&r["instances"], canonical, "{}", r["label"]);
        assert_eq!(r["requests"], orders["canonical"]["requests"]);
    }
}

/// `psmr run SCENARIO --requests N --commits STREAM`.
fn replay(sc: &std::path::Path, requests: &str, stream: &std::path::Path) -> std::process::Output {
    psmr(&[
        "run",
        sc.to_str().unwrap(),
        "--requests",
        requests,
        "--commits",
        stream.to_str().unwrap(),
    ])
}

#[test]
fn a_bad_commit_file_is_located_in_it() {
    let sc = file("commits-bad.json", COMMITS);
    let bad = file(
        "bad-stream.json",
        "{\"instances\": [\n  {\"commands\": [0], \"seq\": 1, \"deps\": [7]}\n]}",
    );
    let o = replay(&sc, "1", &bad);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad-stream.json:2:")
            && err.contains("instances[0].deps[0]: instance 7 does not exist"),
        "{err}"
    );
    assert!(!err.contains("panicked"));
}

/// Issue 28 item 12: a replayed stream whose dependencies leave two
/// conflicting commands unordered is refused before any run, located in
/// the stream file at the instance that misses the dependency and naming
/// the pair; with the dependency the same stream runs.
#[test]
fn a_stream_missing_a_conflict_is_refused_with_the_pair() {
    let sc = file(
        "commits-conflict.json",
        &COMMITS.replace("\"writes\": 0.25", "\"writes\": 1.0"),
    );
    let missing = "{\"instances\": [\n  {\"commands\": [0], \"seq\": 1},\n  {\"commands\": [1], \"seq\": 2}\n]}";
    let run = |name: &str, text: &str| replay(&sc, "2", &file(name, text));
    let o = run("missing-dep.json", missing);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("missing-dep.json:3:")
            && err.contains("instances[1].deps")
            && err.contains("instances 1 and 0 conflict"),
        "{err}"
    );
    let fixed = missing.replace("\"seq\": 2}", "\"seq\": 2, \"deps\": [0]}");
    assert_ok(&run("with-dep.json", &fixed));
}

#[test]
fn commits_of_a_total_workload_is_an_error() {
    let sc = file(
        "total.json",
        &COMMITS
            .replace(",\n                \"commits\": { \"batch_max\": 1 }", "")
            .replace(
                "{ \"id\": \"epaxos\" }, { \"id\": \"pepaxos\" }",
                "{ \"id\": \"late\" }",
            ),
    );
    let o = psmr(&["commits", sc.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("add a `commits` object"));
}
