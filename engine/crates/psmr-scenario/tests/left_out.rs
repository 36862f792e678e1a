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

#[cfg(not(feature = "repartitioning"))]
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

/// The families compiled in still run, correct by the oracle and with the
/// final state of sequential's run (the early-only build; the digests of the
/// full build are checked by psmr-cli's virtual_digests).
#[cfg(feature = "early")]
#[test]
fn the_family_compiled_in_runs_correctly() {
    use psmr_core::threads::ThreadHost;
    use psmr_scenario::{run_scenario, Limits, RunMonitor, RunOptions};
    let text = BASE.replace(
        r#"{ "id": "late" }"#,
        r#"{ "id": "early" }, { "id": "busy-wait" }"#,
    );
    let sc = parse_scenario(&text, "t.json").unwrap();
    let report = run_scenario(
        &sc,
        &RunOptions::default(),
        &Limits::native(),
        &ThreadHost::with_capacity(2).unwrap(),
        &RunMonitor::new(),
    )
    .unwrap();
    assert_eq!(report.runs.len(), 3);
    for r in &report.runs {
        assert!(r.correct, "{}: {:?}", r.label, r.violation);
        assert_eq!(r.state_digest, report.runs[0].state_digest, "{}", r.label);
    }
}

/// Every parameter object is refused when read exactly when
/// `psmr_schedulers::compiled_in` says its family is out: the `cfg_attr`
/// on each object (which names its family's feature as a literal) agrees
/// with `compiled_in`, the one other place the name is written.
#[test]
fn a_parameter_object_is_refused_exactly_when_its_family_is_out() {
    use psmr_core::SchedulerId;
    use psmr_schedulers::{compiled_in, needs, SchedulerSpec};
    for id in SchedulerId::ALL {
        let n = needs(id);
        let Some((key, _)) = n.params else { continue };
        let text = format!(r#"{{ "id": "{id}", "{key}": {{}} }}"#);
        let read = serde_json::from_str::<SchedulerSpec>(&text);
        assert_eq!(
            read.is_err(),
            !compiled_in(n.family),
            "{id}'s `{key}` object (family {}): {read:?}",
            n.family.as_str()
        );
    }
}
