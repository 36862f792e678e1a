//! Helpers shared by the CLI's integration tests (`mod support;`).
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// Write `text` to a fresh file named after the test.
pub fn scenario_file(test: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("psmr-cli-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{test}.json"));
    std::fs::write(&path, text).unwrap();
    path
}

pub fn psmr(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_psmr"))
        .args(args)
        .output()
        .expect("run psmr")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Assert exit code 2 and no panic; return stderr.
pub fn bad_input(o: &Output) -> String {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
