//! Every scenario committed under `scenarios/` passes `psmr validate`.

mod support;

use std::path::PathBuf;

use support::{assert_ok, psmr_command};

fn scenario_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../scenarios"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("scenarios/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(".json") && !name.ends_with(".schema.json")
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_committed_scenario_validates() {
    let files = scenario_files();
    assert!(
        files.iter().any(|f| f.ends_with("quickstart.json")),
        "quickstart.json is the lab's default scenario"
    );
    assert!(files.len() >= 3, "{files:?}");
    let out = psmr_command()
        .arg("validate")
        .args(&files)
        .output()
        .unwrap();
    assert_ok(&out);
}

#[test]
fn the_default_scenario_runs_correctly_on_a_short_stream() {
    let quickstart = scenario_files()
        .into_iter()
        .find(|f| f.ends_with("quickstart.json"))
        .unwrap();
    let out = psmr_command()
        .args(["run", "--requests", "2000", "--no-trace", "--json"])
        .arg(&quickstart)
        .output()
        .unwrap();
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> = v["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["scheduler"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["sequential", "early", "busy-wait", "ws-optimistic"]);
}
