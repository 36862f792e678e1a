//! An engine package of some families only (issue 30): a scenario naming a
//! scheduler, a parameter object or a workload of a family left out gets a
//! located error that names the family, never a panic. Runs only in such a
//! build, e.g. `cargo test -p psmr-scenario --no-default-features --features
//! early --test left_out` (the default build has every family).
#![cfg(not(feature = "late"))]

use psmr_scenario::parse_scenario;

const BASE: &str = r#"{
  "name": "t",
  "description": "d",
  "app": { "kind": "linked-list", "shards": 2, "size": "light" },
  "workload": { "requests": 100, "writes": 0.1, "global": 0.05 },
  "threads": 2,
  "schedulers": [ { "id": "sequential" }, { "id": "late" } ]
}"#;

#[test]
fn a_scheduler_of_a_family_left_out_is_a_located_error() {
    let e = parse_scenario(BASE, "t.json").expect_err("late is left out");
    assert_eq!(e.len(), 1, "{e:#?}");
    assert_eq!(e[0].path, "schedulers[1].id", "{}", e[0]);
    assert!(
        e[0].message
            .contains("scheduler 'late' is not in this engine package (family late)"),
        "{}",
        e[0]
    );
}

#[test]
fn a_parameter_object_of_a_family_left_out_is_refused_when_read() {
    let text = BASE.replace(
        r#"{ "id": "late" }"#,
        r#"{ "id": "late", "late": { "graph_bound": 8 } }"#,
    );
    let e = parse_scenario(&text, "t.json").expect_err("late is left out");
    assert!(
        e.iter().any(|d| d
            .message
            .contains("the `late` parameter object is not in this engine package (family late)")),
        "{e:#?}"
    );
}

#[cfg(not(feature = "repart"))]
#[test]
fn a_workload_of_a_family_left_out_is_refused_when_read() {
    let text = BASE
        .replace(
            r#""kind": "linked-list", "shards": 2, "size": "light""#,
            r#""kind": "kv-store", "shards": 2, "keys": 1000"#,
        )
        .replace(
            r#""writes": 0.1, "global": 0.05"#,
            r#""ycsb": { "workload": "a" }"#,
        )
        .replace(r#", { "id": "late" }"#, "");
    let e = parse_scenario(&text, "t.json").expect_err("ycsb is left out");
    assert!(
        e.iter().any(|d| d.message.contains("a YCSB workload (`workload.ycsb`) is not in this engine package (family repartitioning)")),
        "{e:#?}"
    );
}
