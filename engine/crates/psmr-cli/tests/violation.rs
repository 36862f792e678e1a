//! A deliberately broken scheduler is caught: `psmr run` exits 1 and names
//! the reversed pair on stderr; `psmr check` judges `"correct": false`.
//! Needs the broken variants: `cargo test -p psmr-cli --features fault-injection`.
#![cfg(feature = "fault-injection")]

mod support;

use support::{assert_contains_all, assert_violation, psmr, temp_file};

fn scenario(expect: &str) -> std::path::PathBuf {
    stealer_scenario("ws-aggressive", expect)
}

/// The skewed scenario with `id` running the broken stealer.
fn stealer_scenario(id: &str, expect: &str) -> std::path::PathBuf {
    // Heavy skew makes the broken stealer take requests from the loaded
    // worker's queue past a waiting write of their shard.
    let text = format!(
        r#"{{
  "name": "broken stealer", "description": "fault injection",
  "app": {{ "kind": "spin", "shards": 2, "ns": 5000 }},
  "workload": {{ "seed": 21, "requests": 600, "writes": 0.3, "global": 0.1,
                "skew": {{ "kind": "skewed", "hot": 0, "share": 0.95 }} }},
  "threads": 4,
  "schedulers": [ {{ "id": "{id}", "fault": "ws-ignore-flags" }} ],
  "run": {{ "trace": false }},
  "expect": {expect}
}}"#
    );
    // One file per call: tests run in parallel, and two writing the same
    // file could let one read it half written.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    write_scenario(&format!("{id}-{n}"), &text)
}

/// Run `args` until it exits 1 (the violation depends on thread timing),
/// at most `ATTEMPTS` times; return that run's output.
fn until_caught(args: &[&str]) -> std::process::Output {
    const ATTEMPTS: usize = 10;
    let mut last = None;
    for _ in 0..ATTEMPTS {
        let o = psmr(args);
        if o.status.code() == Some(1) {
            return o;
        }
        last = Some(o);
    }
    panic!("the broken stealer was never caught: {last:?}");
}

#[test]
fn run_exits_one_and_names_the_pair() {
    let f = scenario("{}");
    let o = until_caught(&["run", f.to_str().unwrap(), "--json"]);
    assert_violation(&o, "ws-aggressive");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let run = &v["runs"][0];
    assert_eq!(run["correct"], false);
    assert!(run["violation"].as_str().unwrap().contains('#'), "{run}");
    assert!(run["violation_detail"]["kind"].is_string(), "{run}");
}

#[test]
fn check_fails_correctness_and_passes_an_expected_violation() {
    let f = scenario("{}");
    let o = until_caught(&["check", f.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_contains_all(&out, &["FAIL", "correct(ws-aggressive)"]);
    let f = scenario(r#"{"correct": false}"#);
    let mut passed = false;
    for _ in 0..10 {
        let o = psmr(&["check", f.to_str().unwrap()]);
        if o.status.code() == Some(0) {
            passed = String::from_utf8_lossy(&o.stdout).contains("PASS");
            break;
        }
    }
    assert!(passed, "an expected violation was never observed");
}

/// PePaxos starting SCCs before the SCCs they depend on finished, and late
/// scheduling without edges, are caught the same way.
#[test]
fn broken_pepaxos_and_late_exit_one() {
    for (name, workload, entry) in [
        (
            "pepaxos",
            r#"{ "seed": 4, "requests": 300, "writes": 1.0, "commits": { "batch_max": 1 } }"#,
            r#"{ "id": "pepaxos", "fault": "pepaxos-skip-scc-wait" }"#,
        ),
        (
            "late",
            r#"{ "seed": 4, "requests": 300, "writes": 1.0 }"#,
            r#"{ "id": "late", "fault": "late-ignore-conflicts" }"#,
        ),
    ] {
        let text = format!(
            r#"{{
  "name": "broken {name}", "description": "fault injection",
  "app": {{ "kind": "spin", "shards": 1, "ns": 100000 }},
  "workload": {workload},
  "threads": 2,
  "schedulers": [ {entry} ],
  "run": {{ "trace": false }}
}}"#
        );
        let p = write_scenario(name, &text);
        assert_violation(&until_caught(&["run", p.to_str().unwrap()]), name);
    }
}

/// The event-coloring runtimes' broken variant (a stealer that takes the
/// color its victim is running) is caught too: many rounds are delivered at
/// once, so core 0 holds a queue of long `fork` events of color 0 while it
/// runs one; the idle core steals color 0 and runs the next fork while the
/// victim still runs the current one.
#[test]
fn a_runtime_stealing_the_running_color_is_caught() {
    for id in ["libasync", "mely"] {
        let text = format!(
            r#"{{
  "name": "broken {id}", "description": "fault injection",
  "app": {{ "kind": "handlers", "colors": 3 }},
  "workload": {{ "seed": 3, "requests": 300,
                "events": {{ "kind": "unbalanced", "round": 2, "long_share": 1.0,
                            "long_ns": [50000, 100000],
                            "handlers": {{ "fork": {{ "ns": 100000 }} }} }} }},
  "threads": 2,
  "schedulers": [ {{ "id": "{id}", "fault": "steal-running" }} ],
  "run": {{ "trace": false }}
}}"#
        );
        let p = write_scenario(id, &text);
        let err = assert_violation(&until_caught(&["run", p.to_str().unwrap(), "--json"]), id);
        assert!(err.contains("color"), "names the color: {err}");
    }
}

/// Write `text` as a scenario file named after `name`; returns its path.
fn write_scenario(name: &str, text: &str) -> std::path::PathBuf {
    temp_file("psmr-violation-tests", &format!("broken-{name}.json"), text)
}

/// A scenario with `app`, `workload`, `threads` and one entry `{id, fault}`.
fn broken(id: &str, fault: &str, app: &str, workload: &str, threads: usize) -> String {
    format!(
        r#"{{
  "name": "broken {id}", "description": "fault injection",
  "app": {app},
  "workload": {workload},
  "threads": {threads},
  "schedulers": [ {{ "id": "{id}", "fault": "{fault}" }} ],
  "run": {{ "trace": false }}
}}"#
    )
}

/// The broken variants that need no second thread to go wrong (sequential
/// swapping pairs, epaxos reversing its SCCs, repart-sw's scheduler
/// swapping pairs for its one worker) are caught on the first run: the
/// order they execute is fixed by the stream.
#[test]
fn single_threaded_faults_are_caught_on_every_run() {
    let list = r#"{ "kind": "linked-list", "shards": 2, "size": 100 }"#;
    let kv = r#"{ "kind": "kv-store", "shards": 4, "keys": 64 }"#;
    let ycsb = r#"{ "seed": 3, "requests": 2000, "ycsb": { "workload": "e-paper-001" } }"#;
    for (id, fault, app, workload) in [
        (
            "sequential",
            "seq-swap-pairs",
            list,
            r#"{ "seed": 2, "requests": 200, "writes": 0.5, "global": 0.1 }"#,
        ),
        (
            "epaxos",
            "epaxos-ignore-seq",
            list,
            r#"{ "seed": 7, "requests": 200, "writes": 1.0, "commits": { "batch_max": 1 } }"#,
        ),
        ("repart-sw", "repart-swap-pairs", kv, ycsb),
    ] {
        let p = write_scenario(fault, &broken(id, fault, app, workload, 2));
        let o = psmr(&["run", p.to_str().unwrap()]);
        let err = support::stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{fault} not caught: {err}");
        assert_violation(&o, id);
    }
}

/// The broken stealer is caught under every work-stealing variant, on the
/// skewed scenario of `run_exits_one_and_names_the_pair`.
#[test]
fn every_stealing_variant_with_the_broken_stealer_is_caught() {
    for id in ["ws-conservative", "ws-moderate", "ws-optimistic"] {
        let p = stealer_scenario(id, "{}");
        assert_violation(&until_caught(&["run", p.to_str().unwrap()]), id);
    }
}

/// The broken variants that race threads (early without its barrier,
/// busy-wait's waiters leaving before the release, repart-rr's scans
/// without their sync) are caught within `until_caught`'s runs: long
/// requests and a loaded shard make the race window wide.
#[test]
fn racing_faults_are_caught_within_ten_runs() {
    let spin = r#"{ "kind": "spin", "shards": 2, "ns": 20000 }"#;
    let skewed = r#"{ "seed": 5, "requests": 400, "writes": 0.3, "global": 0.2,
                     "skew": { "kind": "skewed", "hot": 1, "share": 0.8 } }"#;
    let kv = r#"{ "kind": "kv-store", "shards": 4, "keys": 64 }"#;
    let ycsb = r#"{ "seed": 3, "requests": 2000, "ycsb": { "workload": "e-paper-001" } }"#;
    for (id, fault, app, workload, threads) in [
        ("early", "early-no-barrier", spin, skewed, 2),
        ("busy-wait", "busy-wait-early-release", spin, skewed, 2),
        ("repart-rr", "repart-no-scan-sync", kv, ycsb, 4),
    ] {
        let p = write_scenario(fault, &broken(id, fault, app, workload, threads));
        assert_violation(&until_caught(&["run", p.to_str().unwrap()]), id);
    }
}

/// Validation refuses a fault the scheduler does not declare (before this,
/// `early` ignored it and ran correct), located at the `fault` value.
#[test]
fn validate_refuses_a_fault_of_another_scheduler() {
    let p = write_scenario(
        "undeclared",
        &broken(
            "early",
            "ws-ignore-flags",
            r#"{ "kind": "spin", "shards": 2, "ns": 100 }"#,
            r#"{ "requests": 10 }"#,
            2,
        ),
    );
    let o = psmr(&["validate", p.to_str().unwrap()]);
    let err = support::stderr(&o);
    assert_ne!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains(":6:")
            && err.contains("schedulers[0].fault: unknown fault `ws-ignore-flags` for `early`"),
        "{err}"
    );
}

/// `psmr run --fault` validates the file once, with the overrides and the
/// fault in it: a file's `threads` that `--threads` replaces is not judged
/// (the fault's own check used to judge the file without the overrides),
/// and a fault the scheduler does not declare is refused once, located.
#[test]
fn run_with_a_fault_judges_the_file_with_its_overrides_once() {
    let list = r#"{ "kind": "linked-list", "shards": 2, "size": 100 }"#;
    let workload = r#"{ "seed": 2, "requests": 200, "writes": 0.5, "global": 0.1 }"#;
    let text = broken("sequential", "seq-swap-pairs", list, workload, 999);
    let p = write_scenario("threads-replaced", &text);
    let file = p.to_str().unwrap();
    let run = |fault: &str| {
        psmr(&[
            "run",
            file,
            "--threads",
            "2",
            "--scheduler",
            "sequential",
            "--fault",
            fault,
        ])
    };
    assert_violation(&run("seq-swap-pairs"), "sequential");
    let o = run("ws-ignore-flags");
    let err = support::stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].contains(":6:")
            && lines[0]
                .contains("schedulers[0].fault: unknown fault `ws-ignore-flags` for `sequential`"),
        "{err}"
    );
}
