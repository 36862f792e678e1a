//! `psmr explore`: every broken variant is found within 200 schedules on
//! its family's classroom scenario; no correct scheduler is ever reported;
//! a token replays the same run, byte for byte; a saved counterexample
//! pins its violation. Needs the broken variants:
//! `cargo test -p psmr-cli --features fault-injection --test explore`.
#![cfg(feature = "fault-injection")]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The fixed budget of the issue: a broken variant must be found within it.
const BUDGET: u32 = 200;

fn scenario(name: &str) -> String {
    format!("{}/../../../scenarios/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn psmr(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_psmr"))
        .args(args)
        .output()
        .expect("run psmr")
}

fn explore_json(file: &str, scheduler: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["explore", file, "--scheduler", scheduler, "--json"];
    args.extend_from_slice(extra);
    let o = psmr(&args);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{args:?}: {}{out}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

/// Every fault, on its family's classroom scenario (requests reduced where
/// the shipped stream is long; `repart-no-switch-sync` needs more requests
/// than Base's `delta_p` of 2500 for a map switch to happen at all;
/// `steal-running` needs two events of one color queued at once, which the
/// shipped single closed-loop client never delivers, so two clients).
const FAULTS: &[(&str, &str, &str, &[&str])] = &[
    (
        "seq-swap-pairs",
        "quickstart.json",
        "sequential",
        &["--requests", "300"],
    ),
    ("early-no-barrier", "classroom-spin.json", "early", &[]),
    (
        "busy-wait-early-release",
        "classroom-spin.json",
        "busy-wait",
        &[],
    ),
    (
        "ws-ignore-flags",
        "ws-classroom.json",
        "ws-conservative",
        &[],
    ),
    ("ws-ignore-flags", "ws-classroom.json", "ws-aggressive", &[]),
    ("ws-ignore-flags", "ws-classroom.json", "ws-moderate", &[]),
    ("ws-ignore-flags", "ws-classroom.json", "ws-optimistic", &[]),
    ("late-ignore-conflicts", "classroom-late.json", "late", &[]),
    ("epaxos-ignore-seq", "classroom-epaxos.json", "epaxos", &[]),
    (
        "pepaxos-skip-scc-wait",
        "classroom-epaxos.json",
        "pepaxos",
        &[],
    ),
    (
        "pepaxos-per-instance-wait",
        "classroom-epaxos.json",
        "pepaxos",
        &[],
    ),
    (
        "repart-no-scan-sync",
        "repart-classroom.json",
        "RR",
        &["--requests", "1000"],
    ),
    (
        "repart-swap-pairs",
        "repart-classroom.json",
        "SW",
        &["--requests", "1000"],
    ),
    (
        "repart-no-switch-sync",
        "repart-classroom.json",
        "Base dp=2500",
        &["--requests", "6000"],
    ),
    (
        "repart-no-switch-sync",
        "repart-classroom.json",
        "Async W=500 Q=64",
        &["--requests", "650"],
    ),
    (
        "steal-running",
        "coloring-classroom.json",
        "libasync-steal",
        &["--requests", "2002", "--delivery", "closed:2"],
    ),
    (
        "steal-running",
        "coloring-classroom.json",
        "mely-time-left",
        &["--requests", "2002", "--delivery", "closed:2"],
    ),
];

#[test]
fn every_fault_is_found_within_the_budget() {
    let budget = BUDGET.to_string();
    let mut missed = Vec::new();
    for (fault, file, label, extra) in FAULTS {
        let mut args = vec!["--fault", fault, "--schedules", &budget];
        args.extend_from_slice(extra);
        let v = explore_json(&scenario(file), label, &args);
        let found = &v["found"];
        if found.is_null() {
            missed.push(format!("{fault} on {label} ({file}): {v}"));
            continue;
        }
        assert!(v["schedules"].as_u64().unwrap() <= u64::from(BUDGET), "{v}");
        assert!(!found["violation"].as_str().unwrap().is_empty(), "{v}");
        assert!(found["token"].as_str().unwrap().starts_with('s'), "{v}");
    }
    assert!(missed.is_empty(), "not found within {BUDGET}: {missed:#?}");
}

/// Every scheduler id, correct, on its family's classroom scenario (few
/// requests): no schedule of 30 makes the oracle complain.
#[test]
fn no_correct_scheduler_is_ever_reported() {
    let cases: &[(&str, &[&str], &[&str])] = &[
        ("quickstart.json", &["sequential"], &["--requests", "300"]),
        (
            "classroom-spin.json",
            &["early", "busy-wait"],
            &["--requests", "150"],
        ),
        (
            "ws-classroom.json",
            &[
                "ws-conservative",
                "ws-moderate",
                "ws-aggressive",
                "ws-optimistic",
            ],
            &["--requests", "150"],
        ),
        ("classroom-late.json", &["late"], &[]),
        ("classroom-epaxos.json", &["epaxos", "pepaxos"], &[]),
        (
            "repart-classroom.json",
            &["repart-rr", "repart-sw", "repart-base", "repart-async"],
            &["--requests", "600"],
        ),
        (
            "coloring-classroom.json",
            &["libasync", "mely"],
            &["--requests", "1001", "--delivery", "closed:2"],
        ),
    ];
    for (file, ids, extra) in cases {
        for id in *ids {
            let mut args = vec!["--schedules", "30"];
            args.extend_from_slice(extra);
            let v = explore_json(&scenario(file), id, &args);
            assert!(v["found"].is_null(), "{id} on {file}: {v}");
            assert_eq!(v["schedules"], 30, "{v}");
        }
    }
}

fn temp(name: &str) -> PathBuf {
    // Cargo's per-target scratch folder: test runs leave nothing in /tmp.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("psmr-explore-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A perturbed schedule's token, found by exploring; `psmr run --schedule`
/// replays it: the same trace digest, the same table, twice; `--save`
/// writes a scenario that `psmr check` passes by the violation it pins.
#[test]
fn a_token_replays_the_same_run_and_a_saved_counterexample_pins_it() {
    let file = scenario("classroom-epaxos.json");
    let saved = temp("pinned.json");
    let saved_s = saved.to_str().unwrap();
    let args = [
        "--fault",
        "pepaxos-per-instance-wait",
        "--schedules",
        "200",
        "--save",
        saved_s,
    ];
    let v = explore_json(&file, "pepaxos", &args);
    let found = &v["found"];
    let token = found["token"].as_str().expect("found within the budget");
    assert!(
        found["schedule"].as_u64().unwrap() > 0,
        "a perturbed one: {v}"
    );
    let replay = |t: &str| {
        psmr(&[
            "run",
            &file,
            "--scheduler",
            "pepaxos",
            "--fault",
            "pepaxos-per-instance-wait",
            "--schedule",
            t,
        ])
    };
    let a = replay(token);
    let b = replay(token);
    assert_eq!(
        a.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&a.stderr)
    );
    let err = String::from_utf8_lossy(&a.stderr);
    let digest = found["trace_digest"].as_str().unwrap();
    assert!(err.contains(&format!("trace digest {digest}")), "{err}");
    assert!(err.contains(found["violation"].as_str().unwrap()), "{err}");
    assert_eq!((&a.stdout, &a.stderr), (&b.stdout, &b.stderr));
    // Another schedule of the same exploration is another run.
    let other = token.replace('x', "x9");
    let c = replay(&other);
    assert!(
        !String::from_utf8_lossy(&c.stderr).contains(&format!("trace digest {digest}")),
        "{}",
        String::from_utf8_lossy(&c.stderr)
    );
    // The saved counterexample: valid, and its expected violation holds.
    let o = psmr(&["validate", saved_s]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(
        text.contains(&format!("\"schedule\": \"{token}\"")),
        "{text}"
    );
    let o = psmr(&["check", saved_s]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("PASS") && out.contains("violation expected"),
        "{out}"
    );
    // Run, the pinned file is a virtual run, labelled a model.
    let o = psmr(&["run", saved_s]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("virtual 3 cores (model, reference cost table)"),
        "{out}"
    );
    // As JSON too: the report says it is a virtual run (a model's numbers).
    let o = psmr(&["run", saved_s, "--json"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("\"virtual\"") && out.contains("virtual 3 cores (model"),
        "{out}"
    );
    // Without its schedule the same file runs the earliest-clock schedule,
    // which this fault survives: the pin is what makes it fail.
    let unpinned = temp("unpinned.json");
    std::fs::write(
        &unpinned,
        text.replace(
            &format!("\"schedule\": \"{token}\""),
            "\"schedule\": \"s7c3\"",
        ),
    )
    .unwrap();
    let o = psmr(&["check", unpinned.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn a_malformed_token_is_refused() {
    let o = psmr(&[
        "run",
        &scenario("classroom-spin.json"),
        "--schedule",
        "s3c2d1",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("run.schedule") && err.contains("s3c2d1"),
        "{err}"
    );
}
