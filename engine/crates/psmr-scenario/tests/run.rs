//! Running scenarios: one stream for all schedulers, oracle verdicts in the
//! report, run errors as located diagnostics.

use psmr_core::threads::ThreadHost;
use psmr_scenario::runner::plan_run;
use psmr_scenario::{parse_scenario, run_scenario, Limits, RunMonitor, RunOptions};

const TEXT: &str = r#"{
  "name": "run test",
  "description": "two sequential entries and early",
  "app": { "kind": "kv-store", "shards": 2, "keys": 500 },
  "workload": { "requests": 3000, "writes": 0.2, "global": 0.1, "scans": 0.1 },
  "threads": 2,
  "schedulers": [
    { "id": "sequential" },
    { "id": "sequential", "label": "again" },
    { "id": "early" }
  ]
}"#;

fn host() -> ThreadHost {
    ThreadHost::with_capacity(2).unwrap()
}

fn opts(schedulers: &[&str]) -> RunOptions {
    RunOptions {
        schedulers: schedulers.iter().map(|s| s.to_string()).collect(),
        ..RunOptions::default()
    }
}

#[test]
fn every_scheduler_gets_the_same_stream_and_a_verdict() {
    let sc = parse_scenario(TEXT, "run.json").unwrap();
    let monitor = RunMonitor::new();
    let report = run_scenario(
        &sc,
        &opts(&["sequential", "again"]),
        &Limits::native(),
        &host(),
        &monitor,
    )
    .unwrap();
    assert_eq!(report.scenario, "run test");
    assert_eq!(report.runs.len(), 2);
    let (a, b) = (&report.runs[0], &report.runs[1]);
    assert_eq!(
        (a.label.as_str(), b.label.as_str()),
        ("sequential", "again")
    );
    assert!(a.correct && b.correct);
    assert_eq!(a.violation, None);
    assert_eq!(
        a.state_digest, b.state_digest,
        "same stream, same final state"
    );
    assert_eq!(a.metrics.requests, 3000);
    assert_eq!(a.speedup_vs_sequential, Some(1.0));
    assert!(!a.trace.is_empty(), "trace is on by default");
    let snap = monitor.snapshot();
    assert_eq!((snap.run_index, snap.runs_total), (1, 2));
    assert_eq!(snap.executed, 3000);
    let json = serde_json::to_value(&report).unwrap();
    for key in [
        "scheduler",
        "label",
        "threads",
        "requests",
        "throughput_ops_s",
        "latency_us",
        "correct",
        "violation",
        "state_digest",
        "cancelled",
        "metrics",
    ] {
        assert!(json["runs"][0].get(key).is_some(), "missing {key}");
    }
}

#[test]
fn overrides_change_the_stream() {
    let sc = parse_scenario(TEXT, "run.json").unwrap();
    let run = |seed| {
        let o = RunOptions {
            seed: Some(seed),
            requests: Some(500),
            trace: Some(false),
            ..opts(&["sequential"])
        };
        run_scenario(&sc, &o, &Limits::native(), &host(), &RunMonitor::new()).unwrap()
    };
    let (a, b) = (run(1), run(2));
    assert_eq!(a.runs[0].metrics.requests, 500);
    assert!(a.runs[0].trace.is_empty(), "trace off");
    assert_ne!(a.runs[0].state_digest, b.runs[0].state_digest);
}

#[test]
fn bad_overrides_and_small_hosts_are_diagnostics() {
    let sc = parse_scenario(TEXT, "run.json").unwrap();
    let run = |o: RunOptions| {
        run_scenario(&sc, &o, &Limits::native(), &host(), &RunMonitor::new()).unwrap_err()
    };
    let e = run(RunOptions {
        threads: Some(0),
        ..opts(&["sequential"])
    });
    assert_eq!(e[0].path, "threads");
    let e = run(RunOptions {
        threads: Some(4),
        ..opts(&["sequential"])
    });
    assert!(e[0].message.contains("needs 5 pool threads"), "{}", e[0]);
    let e = run(opts(&["nope"]));
    assert!(
        e[0].message.contains("unknown scheduler id `nope`"),
        "{}",
        e[0]
    );
}

#[test]
fn a_cancelled_monitor_runs_nothing_more() {
    let sc = parse_scenario(TEXT, "run.json").unwrap();
    let monitor = RunMonitor::new();
    monitor.cancel();
    let r = run_scenario(
        &sc,
        &opts(&["sequential"]),
        &Limits::native(),
        &host(),
        &monitor,
    )
    .unwrap();
    assert!(r.runs.is_empty());
}

#[test]
fn a_poller_sees_progress_and_can_cancel_mid_run() {
    // A paced stream long enough (about 20 s) that the poller acts mid-run.
    let text = r#"{
  "name": "slow", "description": "paced",
  "app": { "kind": "spin", "shards": 1, "ns": 0 },
  "workload": { "requests": 20000 },
  "threads": 1,
  "schedulers": [ { "id": "sequential" }, { "id": "sequential", "label": "never" } ],
  "run": { "pace_ns": 1000000 }
}"#;
    let sc = parse_scenario(text, "slow.json").unwrap();
    let monitor = RunMonitor::new();
    let host = ThreadHost::with_capacity(1).unwrap();
    let report = std::thread::scope(|s| {
        let run = s.spawn(|| {
            run_scenario(
                &sc,
                &RunOptions::default(),
                &Limits::native(),
                &host,
                &monitor,
            )
        });
        // Bounded wait: at most 10 s for the first executed request.
        let mut seen = None;
        for _ in 0..1000 {
            let snap = monitor.snapshot();
            if snap.executed > 0 {
                seen = Some(snap);
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        monitor.cancel();
        let snap = seen.expect("progress was visible while running");
        assert_eq!(snap.scheduler, "sequential");
        assert_eq!((snap.run_index, snap.runs_total), (0, 2));
        assert!(snap.delivered >= snap.executed);
        run.join().unwrap().unwrap()
    });
    assert_eq!(report.runs.len(), 1, "the second scheduler never starts");
    let r = &report.runs[0];
    assert!(r.cancelled);
    assert!(
        r.correct,
        "the delivered prefix is checked: {:?}",
        r.violation
    );
    assert!(r.metrics.requests < 20000);
    assert_eq!(r.speedup_vs_sequential, None, "no complete sequential run");
}

/// `thread_pace_ns` slows the listed worker: every request it executes
/// takes at least that long (a bound by construction); bad values are
/// located diagnostics.
#[test]
fn thread_pace_slows_one_worker() {
    let text = r#"{
  "name": "pace", "description": "one slow thread",
  "app": { "kind": "spin", "shards": 2, "ns": 0 },
  "workload": { "requests": 200, "writes": 0.0 },
  "threads": 2,
  "schedulers": [ { "id": "early", "early": { "mapping": { "kind": "naive" } } } ]
}"#;
    let sc = parse_scenario(text, "pace.json").unwrap();
    let host = ThreadHost::with_capacity(2).unwrap();
    let opts = RunOptions {
        thread_pace_ns: Some(vec![200_000]),
        trace: Some(false),
        ..RunOptions::default()
    };
    let r = run_scenario(&sc, &opts, &Limits::native(), &host, &RunMonitor::new()).unwrap();
    let run = &r.runs[0];
    assert!(run.correct);
    let t0 = run.metrics.threads.iter().find(|t| t.thread == 0).unwrap();
    assert!(t0.executed > 0);
    assert!(
        t0.exec_ms / t0.executed as f64 >= 0.2,
        "thread 0 spent {} ms on {} requests",
        t0.exec_ms,
        t0.executed
    );
    for bad in [vec![1, 2, 3], vec![0, u64::MAX]] {
        let e = run_scenario(
            &sc,
            &RunOptions {
                thread_pace_ns: Some(bad),
                ..RunOptions::default()
            },
            &Limits::native(),
            &host,
            &RunMonitor::new(),
        )
        .unwrap_err();
        assert_eq!(e[0].path, "run.pace_ns", "{e:?}");
        assert!(e[0].message.contains("thread_pace_ns"), "{e:?}");
    }
}

/// The labels of the entries `names` select from `sc`, or the messages of
/// the errors (one validation pass, `plan_run`).
fn picked(sc: &psmr_scenario::Scenario, names: &[&str]) -> Result<Vec<String>, Vec<String>> {
    match plan_run(sc, &opts(names), &Limits::native()) {
        Ok(p) => Ok(p.selected().iter().map(|s| s.spec.name()).collect()),
        Err(e) => Err(e
            .iter()
            .map(|d| format!("{}: {}", d.path, d.message))
            .collect()),
    }
}

/// An entry's name (its label, or the id of the entry without one) picks
/// it; an id only one entry has picks that entry; an id several labelled
/// entries share picks none: the error lists their labels, once.
#[test]
fn an_id_several_entries_share_is_named_by_label() {
    let sc = parse_scenario(TEXT, "run.json").unwrap();
    assert_eq!(
        picked(&sc, &["sequential", "again", "early"]).unwrap(),
        ["sequential", "again", "early"]
    );
    let text = TEXT.replace(
        r#"{ "id": "sequential" },"#,
        r#"{ "id": "sequential", "label": "first" },"#,
    );
    let sc = parse_scenario(&text, "run.json").unwrap();
    assert_eq!(
        picked(&sc, &["sequential"]).unwrap_err(),
        ["schedulers: --scheduler: `sequential` is the id of 2 entries of this scenario (first, again); name one by its label"]
    );
    assert_eq!(
        picked(&sc, &["again", "first", "early"]).unwrap(),
        ["again", "first", "early"]
    );
}

/// A worker count given with virtual cores is judged as given: out of the
/// limit it is one error at `threads` naming the override, never clamped;
/// without one, the cores give the workers.
#[test]
fn a_threads_override_out_of_range_is_an_error_on_virtual_cores_too() {
    let sc = parse_scenario(TEXT, "run.json").unwrap();
    let plan = |threads, limits: &Limits| {
        let o = RunOptions {
            threads,
            virtual_cores: Some(4),
            ..opts(&["sequential"])
        };
        plan_run(&sc, &o, limits)
    };
    for (t, limits) in [
        (0, Limits::native()),
        (65, Limits::native()),
        (17, Limits::browser()),
    ] {
        let e = plan(Some(t), &limits).unwrap_err();
        let max = limits.max_threads;
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].path, "threads");
        assert_eq!(
            e[0].message,
            format!("expected 1..={max} worker threads (limit max_threads = {max}), got {t} from the run's threads override (--threads)")
        );
    }
    assert_eq!(plan(Some(16), &Limits::browser()).unwrap().threads(), 16);
    assert_eq!(plan(None, &Limits::native()).unwrap().threads(), 4);
}
