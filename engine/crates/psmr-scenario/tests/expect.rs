//! Expectations judged on hand-made reports (no timing involved).

use psmr_core::metrics::{RunMetrics, ThreadTimes};
use psmr_core::virt::Costs;
use psmr_scenario::report::RunMode;
use psmr_scenario::{evaluate, parse_scenario, Report, RunReport, Scenario};

fn scenario(expect: &str) -> Scenario {
    let schedulers = r#"[ { "id": "early" }, { "id": "ws-optimistic", "label": "wso" } ]"#;
    parse_scenario(&scenario_text(schedulers, expect), "e.json").unwrap()
}

/// A small scenario with these `schedulers` and `expect` (JSON texts).
fn scenario_text(schedulers: &str, expect: &str) -> String {
    format!(
        r#"{{
  "name": "e", "description": "d",
  "app": {{ "kind": "spin", "shards": 2, "ns": 10 }},
  "workload": {{ "requests": 10 }},
  "threads": 4,
  "schedulers": {schedulers},
  "expect": {expect}
}}"#
    )
}

fn run(label: &str, throughput: f64, steals: u64, correct: bool) -> RunReport {
    let mut metrics = RunMetrics::default();
    metrics.counters.insert("steals".into(), steals);
    metrics.threads = [5, 0, 7]
        .iter()
        .enumerate()
        .map(|(i, e)| ThreadTimes {
            thread: i as u16,
            executed: *e,
            exec_ms: 0.0,
            wait_ms: 0.0,
            idle_ms: 0.0,
        })
        .collect();
    RunReport {
        scheduler: label.into(),
        family: "early".into(),
        label: label.into(),
        threads: 4,
        requests: 10,
        throughput_ops_s: throughput,
        latency_us: Default::default(),
        correct,
        violation: (!correct).then(|| "reversed pair".to_string()),
        violation_detail: None,
        state_digest: "0".into(),
        cancelled: false,
        metrics,
        speedup_vs_sequential: None,
        trace_truncated: false,
        trace_window: Default::default(),
        delivery: Default::default(),
        roles: Vec::new(),
        info: Default::default(),
        mode_label: None,
        trace: Vec::new(),
    }
}

fn report(cores: usize, runs: Vec<RunReport>) -> Report {
    Report {
        scenario: "e".into(),
        cores,
        stream: Default::default(),
        classes: Vec::new(),
        mode: Default::default(),
        runs,
    }
}

#[test]
fn correctness_is_judged_per_scheduler() {
    let sc = scenario("{}");
    let r = evaluate(
        &sc,
        &[report(
            8,
            vec![run("early", 1.0, 0, true), run("wso", 1.0, 0, false)],
        )],
    );
    assert_eq!(r.len(), 2);
    assert!(r[0].passed && r[0].name == "correct(early)");
    assert!(
        r[1].failed() && r[1].message.contains("reversed pair"),
        "{r:?}"
    );
}

#[test]
fn violation_expected_passes_only_with_a_violation() {
    let sc = scenario(r#"{"correct": false}"#);
    let ok = [report(8, vec![run("early", 1.0, 0, true)])];
    assert!(evaluate(&sc, &ok)[0].failed());
    let bad = [report(8, vec![run("early", 1.0, 0, false)])];
    assert!(evaluate(&sc, &bad)[0].passed);
}

/// Three repetitions of `early` (no steals) beside `wso`, which steals
/// `steals[i]` times in repetition `i`, on 8 cores.
fn repetitions_stealing(steals: [u64; 3]) -> Vec<Report> {
    steals
        .iter()
        .map(|s| {
            report(
                8,
                vec![run("early", 1.0, 0, true), run("wso", 1.0, *s, true)],
            )
        })
        .collect()
}

#[test]
fn counters_use_the_median_over_repetitions() {
    let sc = scenario(
        r#"{"counters": [
            {"scheduler": "wso", "counter": "steals", "op": ">=", "value": 3},
            {"scheduler": "ws-optimistic", "counter": "threads_used", "op": "==", "value": 2},
            {"scheduler": "early", "counter": "executed_max", "op": "<", "value": 7}
        ]}"#,
    );
    let reps = repetitions_stealing([1, 3, 100]);
    let r = evaluate(&sc, &reps);
    assert!(r[2].passed, "median 3 >= 3: {:?}", r[2]);
    assert!(r[2].message.contains("median of 3"));
    assert!(r[3].passed, "threads 0 and 2 executed: {:?}", r[3]);
    assert!(r[4].failed(), "max executed is 7: {:?}", r[4]);
    let low = repetitions_stealing([0, 1, 100]);
    assert!(evaluate(&sc, &low)[2].failed());
}

#[test]
fn ratios_are_skipped_without_enough_cores() {
    let sc = scenario(
        r#"{"ratios": [{"of": "wso", "over": "early", "at_least": 1.5, "tolerance": 0.1}]}"#,
    );
    let runs = |a| vec![run("early", 100.0, 0, true), run("wso", a, 0, true)];
    // Default min_cores is the scenario's threads (4).
    let r = evaluate(&sc, &[report(2, runs(10.0))]);
    assert!(!r[2].failed() && !r[2].passed, "{:?}", r[2]);
    assert!(r[2].skipped_reason.as_ref().unwrap().contains("2 cores"));
    let r = evaluate(&sc, &[report(4, runs(140.0))]);
    assert!(r[2].passed, "1.4 >= 1.5 * 0.9: {:?}", r[2]);
    let r = evaluate(&sc, &[report(4, runs(130.0))]);
    assert!(r[2].failed(), "1.3 < 1.35: {:?}", r[2]);
}

#[test]
fn missing_schedulers_are_skipped_not_failed() {
    let sc = scenario(
        r#"{"counters": [{"scheduler": "wso", "counter": "steals", "op": ">", "value": 0}]}"#,
    );
    let r = evaluate(&sc, &[report(8, vec![run("early", 1.0, 0, true)])]);
    assert!(r[1].skipped_reason.is_some() && !r[1].failed());
    assert!(r[2].skipped_reason.is_some() && !r[2].failed());
}

#[test]
fn a_virtual_run_is_judged_by_its_virtual_cores_and_says_so() {
    let sc = scenario(
        r#"{"ratios": [{"of": "wso", "over": "early", "at_least": 1.5, "tolerance": 0.1, "min_cores": 16}]}"#,
    );
    let runs = |a| vec![run("early", 100.0, 0, true), run("wso", a, 0, true)];
    let on_virtual = |machine, cores, a| Report {
        mode: RunMode::virtual_run(cores, &Costs::reference()),
        ..report(machine, runs(a))
    };
    // 16 virtual cores on a 2-core machine: judged, and the message says
    // the cores were the model's.
    let r = evaluate(&sc, &[on_virtual(2, 16, 140.0)]);
    assert!(r[2].passed, "{:?}", r[2]);
    assert!(
        r[2].message.contains("16 virtual cores (model)"),
        "{:?}",
        r[2]
    );
    let r = evaluate(&sc, &[on_virtual(2, 16, 130.0)]);
    assert!(r[2].failed(), "1.3 < 1.35: {:?}", r[2]);
    // 8 virtual cores on a 64-core machine: skipped, naming the virtual 8.
    let r = evaluate(&sc, &[on_virtual(64, 8, 140.0)]);
    assert!(!r[2].failed() && !r[2].passed, "{:?}", r[2]);
    let why = r[2].skipped_reason.as_ref().unwrap();
    assert!(why.contains("the run has 8 virtual cores (model)"), "{why}");
    // Real threads on 16 cores keep the machine's wording.
    let r = evaluate(&sc, &[report(16, runs(140.0))]);
    assert!(
        r[2].passed && !r[2].message.contains("virtual"),
        "{:?}",
        r[2]
    );
}

/// An expectation naming an id two labelled entries share is refused with
/// the labels to choose from (which entry it judges would be a guess).
#[test]
fn an_expectation_on_an_id_two_entries_share_is_refused() {
    let text = scenario_text(
        r#"[ { "id": "early", "label": "a" }, { "id": "early", "label": "b" } ]"#,
        r#"{ "counters": [ { "scheduler": "early", "counter": "steals", "op": ">=", "value": 0 } ] }"#,
    );
    let e = parse_scenario(&text, "e.json").unwrap_err();
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].path, "expect.counters[0].scheduler");
    assert!(
        e[0].message
            .contains("`early` is the id of 2 entries of this scenario (a, b)"),
        "{}",
        e[0]
    );
    let ok = text.replace(r#""scheduler": "early""#, r#""scheduler": "b""#);
    assert!(parse_scenario(&ok, "e.json").is_ok());
}
