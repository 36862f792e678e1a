//! The `psmr` binary end to end: exit codes, located errors, the JSON
//! contract.

mod support;

use std::path::PathBuf;

use support::{assert_ok, bad_input, psmr, scenario_file, VALID};

/// `psmr validate` on `text`, written to a file named after `test`: exit
/// code 2 and no panic. Returns the file and stderr.
fn validate_refuses(test: &str, text: &str) -> (PathBuf, String) {
    let f = scenario_file(test, text);
    let err = bad_input(&psmr(&["validate", f.to_str().unwrap()]));
    (f, err)
}

/// `psmr validate` refuses [`VALID`] with `from` replaced by `to` (a file
/// named after `test`), and says `want` (e.g. `:6:14: threads: ...`).
fn refuses_edit(test: &str, from: &str, to: &str, want: &str) {
    let (_, err) = validate_refuses(test, &VALID.replace(from, to));
    assert!(err.contains(want), "{err}");
}

/// The file's `threads` is judged after `--threads` / `--virtual-cores`
/// replace it: an illegal file value an override replaces runs, an
/// illegal override is located at the `threads` line it replaces.
#[test]
fn threads_are_validated_after_the_overrides() {
    let text = VALID.replace("\"threads\": 2", "\"threads\": 999");
    let f = scenario_file("threads_over_limit", &text);
    let file = f.to_str().unwrap();
    refused_at_threads(&psmr(&["run", file, "--requests", "50"]));
    for args in [["--threads", "3"], ["--virtual-cores", "3"]] {
        let o = psmr(&["run", file, "--requests", "50", "--json", args[0], args[1]]);
        assert_ok(&o);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["runs"][0]["threads"], 3, "{args:?}");
    }
    // `psmr explore` too (issue 29): its plan judges the file once, with
    // the exploration's cores in place of the file's threads.
    let explore = [
        "explore",
        file,
        "--scheduler",
        "sequential",
        "--requests",
        "50",
    ];
    refused_at_threads(&psmr(&explore));
    let o = psmr(&[&explore[..], &["--cores", "3", "--schedules", "2"]].concat());
    assert_ok(&o);
    let legal = scenario_file("threads_override_over_limit", VALID);
    let legal = legal.to_str().unwrap();
    for args in [
        &["--threads", "999"][..],
        &["--threads", "999", "--virtual-cores", "3"],
    ] {
        let o = psmr(&[&["run", legal][..], args].concat());
        let err = refused_at_threads(&o);
        assert!(
            err.contains("got 999 from the run's threads override (--threads)"),
            "{args:?}: {err}"
        );
    }
}

/// Exit code 2 with the 999 threads located at line 6 of `VALID`, said
/// once (the run validates once); returns stderr.
fn refused_at_threads(o: &std::process::Output) -> String {
    let err = bad_input(o);
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("got 999")).collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].contains(":6:14: threads:"), "{err}");
    err
}

/// `--scheduler ID` where several labelled entries have that id is an
/// error listing their labels (not the first of them, silently); a label
/// runs its entry.
#[test]
fn an_id_two_entries_share_is_refused_with_their_labels() {
    let text = VALID.replace(
        r#"[ { "id": "sequential" } ]"#,
        r#"[ { "id": "sequential", "label": "one" }, { "id": "sequential", "label": "two" } ]"#,
    );
    let f = scenario_file("two_sequential", &text);
    let file = f.to_str().unwrap();
    let err = bad_input(&psmr(&["run", file, "--scheduler", "sequential"]));
    assert!(
        err.contains("schedulers: --scheduler: `sequential` is the id of 2 entries of this scenario (one, two); name one by its label"),
        "{err}"
    );
    let o = psmr(&[
        "run",
        file,
        "--requests",
        "50",
        "--json",
        "--scheduler",
        "two",
    ]);
    assert_ok(&o);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["runs"].as_array().unwrap().len(), 1);
    assert_eq!(v["runs"][0]["label"], "two");
}

#[test]
fn run_json_reports_the_contract_fields() {
    let f = scenario_file("run_json", VALID);
    let o = psmr(&["run", f.to_str().unwrap(), "--json", "--seed", "5"]);
    assert_ok(&o);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["scenario"], "cli test");
    assert!(v["cores"].as_u64().unwrap() >= 1);
    let run = &v["runs"][0];
    assert_eq!(run["scheduler"], "sequential");
    assert_eq!(run["label"], "sequential");
    assert_eq!(run["threads"], 2);
    assert_eq!(run["requests"], 2000);
    assert_eq!(run["correct"], true);
    assert!(run["violation"].is_null());
    assert!(run["throughput_ops_s"].as_f64().unwrap() > 0.0);
    assert!(
        run["latency_us"]["p99"].as_f64().unwrap() >= run["latency_us"]["p50"].as_f64().unwrap()
    );
    assert_eq!(run["state_digest"].as_str().unwrap().len(), 16);
    assert_eq!(run["cancelled"], false);
    assert_eq!(run["metrics"]["requests"], 2000);
    assert_eq!(run["speedup_vs_sequential"], 1.0);
}

#[test]
fn run_table_names_each_scheduler() {
    let f = scenario_file("run_table", VALID);
    let o = psmr(&["run", f.to_str().unwrap(), "--requests", "300"]);
    assert_ok(&o);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("sequential") && out.contains("ok"), "{out}");
}

#[test]
fn wrong_type_is_located() {
    let (f, err) = validate_refuses(
        "wrong_type",
        &VALID.replace("\"threads\": 2", "\"threads\": \"two\""),
    );
    let want = format!(
        "{}:6:14: threads: invalid type: string \"two\", expected usize",
        f.display()
    );
    assert!(err.contains(&want), "{err}");
}

#[test]
fn unknown_field_is_located_at_its_key() {
    refuses_edit(
        "unknown_field",
        "\"requests\": 2000",
        "\"requests\": 2000, \"wirtes\": 0.5",
        ":5:35: workload.wirtes: unknown field `wirtes`",
    );
}

#[test]
fn unknown_scheduler_id_in_file_and_flag() {
    let f = scenario_file("unknown_id", &VALID.replace("sequential", "sequentail"));
    let err = bad_input(&psmr(&["run", f.to_str().unwrap()]));
    assert!(
        err.contains("schedulers[0].id: unknown variant `sequentail`"),
        "{err}"
    );
    let f = scenario_file("unknown_flag", VALID);
    let err = bad_input(&psmr(&["run", f.to_str().unwrap(), "--scheduler", "nope"]));
    assert!(err.contains("unknown scheduler id `nope`"), "{err}");
}

#[test]
fn threads_zero_and_thousand_are_refused() {
    for t in ["0", "1000"] {
        refuses_edit(
            &format!("threads_{t}"),
            "\"threads\": 2",
            &format!("\"threads\": {t}"),
            ":6:14: threads: expected 1..=64",
        );
        let f = scenario_file(&format!("threads_flag_{t}"), VALID);
        let err = bad_input(&psmr(&["run", f.to_str().unwrap(), "--threads", t]));
        assert!(err.contains("threads: expected 1..=64"), "{err}");
    }
}

#[test]
fn malformed_json_is_located() {
    refuses_edit(
        "malformed",
        "\"threads\": 2,",
        "\"threads\": 2",
        ":7:3: invalid JSON: expected `,` or `}`",
    );
}

/// Every scheduler id is built; pairing one with a stream kind it cannot
/// run (an event runtime on a total order) is refused at validation, located
/// at the entry's id, before anything runs.
#[test]
fn a_scheduler_on_a_stream_it_cannot_run_is_a_clear_error() {
    let f = scenario_file(
        "wrong_stream",
        &VALID.replace(
            "{ \"id\": \"sequential\" }",
            "{ \"id\": \"sequential\" }, { \"id\": \"mely\" }",
        ),
    );
    let o = psmr(&["run", f.to_str().unwrap()]);
    let err = bad_input(&o);
    assert!(err.contains(":7:51: schedulers[1].id: "), "{err}");
    assert!(
        err.contains("events"),
        "names the stream kind it runs: {err}"
    );
    assert!(o.stdout.is_empty(), "no partial report");
}

#[test]
fn unreadable_files_and_several_files() {
    let good = scenario_file("several_good", VALID);
    let bad = scenario_file("several_bad", "{");
    let o = psmr(&[
        "validate",
        good.to_str().unwrap(),
        "/nonexistent/x.json",
        bad.to_str().unwrap(),
    ]);
    let err = bad_input(&o);
    assert!(
        err.contains("/nonexistent/x.json:1:1: cannot read the file"),
        "{err}"
    );
    assert!(err.contains(&format!("{}:1:", bad.display())), "{err}");
    assert!(!err.contains("several_good"), "{err}");
    assert_eq!(
        psmr(&["validate", good.to_str().unwrap()]).status.code(),
        Some(0)
    );
}

/// `psmr ARGS` succeeds and prints `committed` byte for byte; `regenerate`
/// says how to refresh the committed copy.
fn assert_prints_committed(args: &[&str], committed: &str, regenerate: &str) {
    let o = psmr(args);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        committed,
        "regenerate: {regenerate}"
    );
}

/// The committed schema describes the normal build; fault injection adds a
/// field to scheduler entries.
#[test]
#[cfg(not(feature = "fault-injection"))]
fn schema_command_prints_the_committed_schema() {
    assert_prints_committed(
        &["schema"],
        include_str!("../../../../scenarios/scenario.schema.json"),
        "cargo run -q -p psmr-cli -- schema > ../scenarios/scenario.schema.json",
    );
}

/// The web app decodes traces with the committed vocabulary: it must be
/// the engine's.
#[test]
fn schema_trace_prints_the_committed_vocabulary() {
    assert_prints_committed(
        &["schema", "--trace"],
        include_str!("../../../../web/src/trace/vocabulary.json"),
        "cargo run -q -p psmr-cli -- schema --trace > ../web/src/trace/vocabulary.json",
    );
}

/// The catalog of schedulers committed for the web app is the engine's.
#[test]
fn schema_catalog_prints_the_committed_catalog() {
    assert_prints_committed(
        &["schema", "--catalog"],
        include_str!("../../../../web/src/engine/catalog.json"),
        "cargo run -q -p psmr-cli -- schema --catalog > ../web/src/engine/catalog.json",
    );
}

/// The web app's report and parameter types are generated from the
/// committed contract: it must be the engine's.
#[test]
fn schema_contract_prints_the_committed_contract() {
    assert_prints_committed(
        &["schema", "--contract"],
        include_str!("../../../../web/src/engine/contract.schema.json"),
        "cargo run -q -p psmr-cli -- schema --contract > ../web/src/engine/contract.schema.json \
         && (cd ../web && node scripts/gen-contract.mjs)",
    );
}

#[test]
fn delivery_flag_is_parsed_and_reported() {
    let o = psmr(&[
        "run",
        "../../../scenarios/quickstart.json",
        "--scheduler",
        "sequential",
        "--requests",
        "300",
        "--delivery",
        "closed:3",
        "--json",
    ]);
    assert_ok(&o);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["runs"][0]["delivery"]["model"], "closed");
    assert_eq!(v["runs"][0]["delivery"]["clients"], 3);
    assert_eq!(v["runs"][0]["family"], "sequential");
    let bad = psmr(&[
        "run",
        "../../../scenarios/quickstart.json",
        "--delivery",
        "closed:0",
    ]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn trace_dir_writes_each_runs_packed_trace() {
    // Two runs on virtual cores (deterministic): the file of each is the
    // packed trace whose FNV-1a digest `--digest` prints.
    let text = VALID.replace(
        r#"[ { "id": "sequential" } ]"#,
        r#"[ { "id": "sequential" }, { "id": "early" } ]"#,
    );
    let f = scenario_file("trace_dir", &text);
    let dir = support::temp_dir("psmr-cli-trace-dir").join("out");
    let _ = std::fs::remove_dir_all(&dir);
    let common = [
        f.to_str().unwrap(),
        "--requests",
        "200",
        "--virtual-cores",
        "2",
        "--seed",
        "5",
    ];
    let o = psmr(
        &[
            &["run", "--json", "--trace-dir", dir.to_str().unwrap()],
            &common[..],
        ]
        .concat(),
    );
    assert_ok(&o);
    let d = psmr(&[&["run", "--digest"], &common[..]].concat());
    assert_ok(&d);
    let digests: Vec<String> = support::stdout(&d)
        .lines()
        .map(|l| l.split(' ').nth(1).unwrap().to_string())
        .collect();
    assert_eq!(digests.len(), 2);
    for (i, want) in digests.iter().enumerate() {
        let bytes = std::fs::read(dir.join(format!("run-{i}.trace"))).unwrap();
        assert!(
            !bytes.is_empty() && bytes.len().is_multiple_of(6 * 4),
            "run {i}: {} bytes",
            bytes.len()
        );
        let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        });
        assert_eq!(&format!("{h:016x}"), want, "run {i}");
    }
    assert!(!dir.join("run-2.trace").exists());
    let both = psmr(&[
        "run",
        f.to_str().unwrap(),
        "--no-trace",
        "--trace-dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(both.status.code(), Some(2));
}
