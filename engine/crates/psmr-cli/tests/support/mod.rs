//! What the `psmr` binary's test files share: running the binary, checking
//! its exit code, writing scenario files. Each test file is its own crate
//! and uses only part of this module.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// A small valid scenario (linked list, 2 threads, 2000 requests,
/// sequential) that tests edit: line 5 is `workload`, line 6 `threads`,
/// line 7 `schedulers`.
pub const VALID: &str = r#"{
  "name": "cli test",
  "description": "small and sequential",
  "app": { "kind": "linked-list", "shards": 2, "size": "light" },
  "workload": { "requests": 2000, "writes": 0.1, "global": 0.05 },
  "threads": 2,
  "schedulers": [ { "id": "sequential" } ]
}"#;

/// The `psmr` binary built for these tests, not yet run.
pub fn psmr_command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_psmr"))
}

/// Runs `psmr args` to the end.
pub fn psmr(args: &[&str]) -> Output {
    psmr_command().args(args).output().expect("run psmr")
}

/// What the run wrote on stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts exit code 0; on failure shows stderr.
pub fn assert_ok(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
}

/// A folder of this test process for `group`'s files (created), under
/// Cargo's per-target scratch folder so test runs leave nothing in `/tmp`.
pub fn temp_dir(group: &str) -> PathBuf {
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{group}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` to `name` in `group`'s folder; returns its path.
pub fn temp_file(group: &str, name: &str, text: &str) -> PathBuf {
    let path = temp_dir(group).join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Writes `text` to a fresh scenario file named after the test.
pub fn scenario_file(test: &str, text: &str) -> PathBuf {
    temp_file("psmr-cli-tests", &format!("{test}.json"), text)
}

/// Asserts exit code 2 and no panic; returns stderr.
pub fn bad_input(o: &Output) -> String {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// Asserts that `text` holds each of `parts`; a failure names the first
/// part missing and shows `text`.
pub fn assert_contains_all(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "`{part}` missing in:\n{text}");
    }
}

/// What the run wrote on stdout.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs `psmr args` to the end: its exit code, stdout and stderr.
pub fn psmr_outcome(args: &[&str]) -> (Option<i32>, String, String) {
    let o = psmr(args);
    (o.status.code(), stdout(&o), stderr(&o))
}

/// Asserts that the run's stderr opens with the oracle's verdict on
/// scheduler `id` (`VIOLATION id: …`); returns stderr.
pub fn assert_violation(o: &Output, id: &str) -> String {
    let err = stderr(o);
    assert!(err.starts_with(&format!("VIOLATION {id}: ")), "{err}");
    err
}
