//! docs/cli.md documents every subcommand and flag.

use std::process::Command;

const DOC: &str = include_str!("../../../../docs/cli.md");

#[test]
fn every_subcommand_and_flag_is_documented() {
    for cmd in [
        "run",
        "explore",
        "validate",
        "check",
        "bench",
        "calibrate",
        "map",
        "schema",
    ] {
        assert!(
            DOC.contains(&format!("`psmr {cmd}")),
            "psmr {cmd} undocumented"
        );
        let help = Command::new(env!("CARGO_BIN_EXE_psmr"))
            .args([cmd, "--help"])
            .output()
            .unwrap();
        let help = String::from_utf8_lossy(&help.stdout);
        for flag in help
            .split_whitespace()
            .filter(|w| w.starts_with("--") && w.len() > 2)
            .map(|w| w.trim_end_matches(|c: char| !c.is_alphanumeric()))
            .filter(|w| !["--help", "--version"].contains(w))
        {
            assert!(DOC.contains(flag), "{flag} of psmr {cmd} undocumented");
        }
    }
}
