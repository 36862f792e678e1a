//! Issue 25: a run on virtual cores gives the same trace, byte for byte,
//! natively and in the browser. This test runs one scenario per family with
//! `psmr run --virtual-cores 4 --digest` and compares each run's trace
//! digest with `e2e/fixtures/virtual-digests.json`; the e2e test
//! `virtual-cores.spec.ts` runs the same scenarios in Chromium's threaded
//! wasm and compares with the same file. So the two platforms agree exactly
//! when both tests pass.
//!
//! The file is written by this test, never by hand:
//! `PSMR_BLESS=1 cargo test -p psmr-cli --test virtual_digests` (after a
//! deliberate change of the trace, the cost table or a scheduler).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use serde_json::{json, Value};

/// Virtual cores of every run of the fixture.
const CORES: u32 = 4;

/// One scenario per family (file, requests): quickstart has sequential,
/// early, busy-wait and ws-optimistic; then late, epaxos and pepaxos,
/// repartitioning and coloring. Few requests keep the browser side short.
const SCENARIOS: [(&str, u32); 5] = [
    ("quickstart.json", 1000),
    ("classroom-late.json", 80),
    ("classroom-epaxos.json", 60),
    ("repart-classroom.json", 2000),
    ("coloring-classroom.json", 1000),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// `label -> digest` of each run of `file` on virtual cores.
fn digests(file: &str, requests: u32) -> BTreeMap<String, String> {
    let o = Command::new(env!("CARGO_BIN_EXE_psmr"))
        .arg("run")
        .arg(root().join("scenarios").join(file))
        .args(["--virtual-cores", &CORES.to_string()])
        .args(["--requests", &requests.to_string()])
        .arg("--digest")
        .output()
        .expect("run psmr");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{file}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    out.lines()
        .map(|l| {
            let (label, digest) = l.rsplit_once(' ').expect("LABEL DIGEST");
            assert_eq!(digest.len(), 16, "{l}");
            (label.to_string(), digest.to_string())
        })
        .collect()
}

fn fixture() -> Value {
    let runs: Vec<Value> = SCENARIOS
        .iter()
        .map(|(file, requests)| {
            json!({ "file": file, "requests": requests, "digests": digests(file, *requests) })
        })
        .collect();
    json!({
        "about": "Trace digests (FNV-1a of the packed trace) of runs on virtual cores, written by `PSMR_BLESS=1 cargo test -p psmr-cli --test virtual_digests`; e2e/tests/virtual-cores.spec.ts checks the browser gives the same.",
        "cores": CORES,
        "scenarios": runs,
    })
}

#[test]
fn native_virtual_traces_match_the_digests_the_browser_is_checked_against() {
    let path = root().join("e2e/fixtures/virtual-digests.json");
    let now = fixture();
    // Virtual time: a second run gives the same traces.
    assert_eq!(
        fixture(),
        now,
        "a run on virtual cores changed between two runs"
    );
    if std::env::var_os("PSMR_BLESS").is_some() {
        let text = serde_json::to_string_pretty(&now).unwrap() + "\n";
        std::fs::write(&path, text).unwrap();
        return;
    }
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (write it with PSMR_BLESS=1)", path.display()));
    let committed: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        now, committed,
        "the traces of runs on virtual cores changed; if meant, write the file again with PSMR_BLESS=1 \
         and the browser test will check the new digests"
    );
}
