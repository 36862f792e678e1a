//! `psmr run --virtual-cores N`: every line of the table says the numbers
//! are a model's, and the same run prints the same table twice.

use std::process::Command;

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let quickstart = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../scenarios/quickstart.json"
    );
    let o = Command::new(env!("CARGO_BIN_EXE_psmr"))
        .arg("run")
        .arg(quickstart)
        .args(args)
        .output()
        .expect("run psmr");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn every_row_of_a_virtual_run_is_labelled_a_model() {
    let args = ["--virtual-cores", "4", "--requests", "1000", "--no-trace"];
    let (code, out, err) = run(&args);
    assert_eq!(code, Some(0), "{err}");
    let label = "virtual 4 cores (model, reference cost table)";
    let mut lines = out.lines();
    let title = lines.next().unwrap();
    assert!(
        title.contains(label) && title.contains("not measured"),
        "{out}"
    );
    let rows: Vec<&str> = lines.skip(1).filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(rows.len(), 4, "{out}");
    assert!(
        rows.iter().all(|r| r.contains(label) && r.contains(" 4 ")),
        "{out}"
    );
    // Virtual time: the same numbers on a second run.
    assert_eq!(run(&args).1, out);
}

#[test]
fn a_virtual_run_refuses_json_until_the_report_can_label_it() {
    let (code, _, err) = run(&["--virtual-cores", "2", "--json"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--virtual-cores") && err.contains("--json"),
        "{err}"
    );
}
