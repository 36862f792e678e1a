//! `--virtual-cores N` on `run`, `check` and `bench`, `--cost-table` and
//! `psmr calibrate`: every line, row and report of a virtual run says the
//! numbers are a model's and where its cost table came from, and the same
//! run prints the same numbers twice.

mod support;

use support::{assert_contains_all, psmr_outcome as psmr, temp_dir};

const QUICKSTART: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../scenarios/quickstart.json"
);

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["run", QUICKSTART];
    all.extend(args);
    psmr(&all)
}

/// The JSON report of 300 requests of quickstart's sequential run on 2
/// virtual cores, under the cost table file `table` or the reference.
fn sequential_300(table: Option<&std::path::Path>) -> serde_json::Value {
    let mut args = vec![
        "--virtual-cores",
        "2",
        "--requests",
        "300",
        "--no-trace",
        "--scheduler",
        "sequential",
        "--json",
    ];
    if let Some(p) = table {
        args.extend(["--cost-table", p.to_str().unwrap()]);
    }
    let (code, out, err) = run(&args);
    assert_eq!(code, Some(0), "{err}");
    serde_json::from_str(&out).unwrap()
}

/// A file of this test run's own.
fn temp(name: &str) -> std::path::PathBuf {
    temp_dir("psmr-virtual-tests").join(name)
}

const REFERENCE: &str = "virtual 4 cores (model, reference cost table)";

#[test]
fn every_row_of_a_virtual_run_is_labelled_a_model() {
    let args = ["--virtual-cores", "4", "--requests", "1000", "--no-trace"];
    let (code, out, err) = run(&args);
    assert_eq!(code, Some(0), "{err}");
    let mut lines = out.lines();
    let title = lines.next().unwrap();
    assert_contains_all(title, &[REFERENCE, "not measured"]);
    let rows: Vec<&str> = lines.skip(1).filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(rows.len(), 4, "{out}");
    assert!(
        rows.iter()
            .all(|r| r.contains(REFERENCE) && r.contains(" 4 ")),
        "{out}"
    );
    // Virtual time: the same numbers on a second run.
    assert_eq!(run(&args).1, out);
}

#[test]
fn the_json_report_of_a_virtual_run_carries_its_mode_and_a_real_one_does_not() {
    let (code, out, err) = run(&["--virtual-cores", "2", "--requests", "500", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mode = &v["mode"]["virtual"];
    assert_eq!(mode["cores"], 2, "{out}");
    assert_eq!(mode["source"]["kind"], "reference");
    assert_eq!(mode["cost_table"]["wake_up"], 3000);
    let label = "virtual 2 cores (model, reference cost table)";
    assert_eq!(mode["label"], label);
    let runs = v["runs"].as_array().unwrap();
    assert!(runs.iter().all(|r| r["mode_label"] == label), "{out}");
    // Real threads stay the default: no mode, no labels.
    let (code, out, err) = run(&["--requests", "300", "--json", "--threads", "2"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v.get("mode").is_none(), "{out}");
    assert!(v["runs"][0].get("mode_label").is_none(), "{out}");
}

#[test]
fn a_cost_table_file_is_used_and_named_in_the_label() {
    // What `psmr calibrate --json` writes, with one cost changed: the run
    // follows the file and the label carries its provenance.
    let (code, out, err) = psmr(&["calibrate", "--json", "--ms-per-kind", "2"]);
    assert_eq!(code, Some(0), "{err}");
    let mut table: serde_json::Value = serde_json::from_str(&out).unwrap();
    let source = &table["source"];
    assert_eq!(source["kind"], "calibrated", "{out}");
    let (where_, when) = (
        source["where"].as_str().unwrap().to_string(),
        source["when"].as_str().unwrap().to_string(),
    );
    assert_contains_all(&where_, &["native", "cores"]);
    assert!(when.ends_with('Z') && when.len() == 20, "{when}");
    table["table"]["execute_base"] = 5_000.into();
    let path = temp("calibrated.json");
    std::fs::write(&path, table.to_string()).unwrap();
    let v = sequential_300(Some(&path));
    let label = format!("virtual 2 cores (model, calibrated on {where_}, {when})");
    assert_eq!(v["mode"]["virtual"]["label"], label.as_str(), "{v}");
    assert_eq!(v["runs"][0]["mode_label"], label.as_str());
    // 300 requests of at least 5 us each in virtual time: at most 200,000
    // ops/s, far below the reference table's.
    let ops = v["runs"][0]["throughput_ops_s"].as_f64().unwrap();
    assert!(ops <= 200_000.0, "{ops}");
    let bad = temp("bad.json");
    std::fs::write(&bad, r#"{"spin": 1}"#).unwrap();
    let (code, _, err) = run(&[
        "--virtual-cores",
        "2",
        "--cost-table",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert_contains_all(&err, &["bad.json", "missing field"]);
}

#[test]
fn the_delivering_threads_own_work_is_charged_per_request() {
    // The reference table charges nothing for it; a table that charges
    // 10 us per delivery makes a sequential run (which delivers and
    // executes on one thread) at most 100,000 ops/s.
    let ops = |path: Option<&std::path::Path>| {
        sequential_300(path)["runs"][0]["throughput_ops_s"]
            .as_f64()
            .unwrap()
    };
    let mut table = serde_json::to_value(psmr_core::virt::CostTable::reference()).unwrap();
    assert_eq!(table["deliver"], 0);
    table["deliver"] = 10_000.into();
    let path = temp("deliver.json");
    std::fs::write(&path, table.to_string()).unwrap();
    let (reference, charged) = (ops(None), ops(Some(&path)));
    assert!(reference > 100_000.0, "{reference}");
    assert!(charged <= 100_000.0, "{charged}");
}

#[test]
fn work_in_picoseconds_replaces_the_whole_nanosecond_unit() {
    // The quickstart's list walks are thousands of units a request: at
    // 100 ns a unit (in picoseconds) a sequential run slows far below the
    // reference's 2 ns, at 0.5 ns a unit it runs faster than it.
    let ops = |ps: Option<u64>| {
        let mut table = serde_json::to_value(psmr_core::virt::CostTable::reference()).unwrap();
        assert_eq!(table["work_unit_ps"], 0);
        let path = temp(&format!("work-unit-ps-{ps:?}.json"));
        if let Some(ps) = ps {
            table["work_unit_ps"] = ps.into();
        }
        std::fs::write(&path, table.to_string()).unwrap();
        sequential_300(Some(&path))["runs"][0]["throughput_ops_s"]
            .as_f64()
            .unwrap()
    };
    let (whole, slow, fast) = (ops(None), ops(Some(100_000)), ops(Some(500)));
    assert!(slow * 10.0 < whole, "{slow} {whole}");
    assert!(fast > whole, "{fast} {whole}");
}

const COLORING: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../scenarios/coloring-unbalanced.json"
);

/// Throughput of `requests` of `scenario` under `scheduler` with
/// `threads` workers on 2 virtual cores: under the reference table, and
/// under the reference with the table entry `entry` set to 10 us (a
/// scheduler's own work at one place; 0 in the reference).
fn ops_without_and_with(
    scenario: &str,
    scheduler: &str,
    threads: &str,
    requests: &str,
    entry: &str,
) -> (f64, f64) {
    let ops = |table: Option<&std::path::Path>| {
        let mut args = vec![
            "run",
            scenario,
            "--virtual-cores",
            "2",
            "--threads",
            threads,
            "--requests",
            requests,
            "--no-trace",
            "--scheduler",
            scheduler,
            "--json",
        ];
        if let Some(p) = table {
            args.extend(["--cost-table", p.to_str().unwrap()]);
        }
        let (code, out, err) = psmr(&args);
        assert_eq!(code, Some(0), "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["runs"][0]["throughput_ops_s"].as_f64().unwrap()
    };
    let mut table = serde_json::to_value(psmr_core::virt::CostTable::reference()).unwrap();
    assert_eq!(table[entry], 0, "{entry}");
    table[entry] = 10_000.into();
    let path = temp(&format!("{entry}.json"));
    std::fs::write(&path, table.to_string()).unwrap();
    (ops(None), ops(Some(&path)))
}

#[test]
fn the_work_stealing_deliverers_routing_is_charged_per_request() {
    // One deliverer routes all 300 requests: 10 us each is 3 ms of its
    // virtual time, so at most 100,000 ops/s.
    let (reference, charged) =
        ops_without_and_with(QUICKSTART, "ws-optimistic", "1", "300", "route");
    assert!(reference > 100_000.0, "{reference}");
    assert!(charged <= 100_000.0, "{charged}");
}

#[test]
fn cbase_take_and_remove_are_charged_per_request() {
    // One worker takes and removes every one of the 300 requests: 10 us
    // at each place is 3 ms of its virtual time, at most 100,000 ops/s.
    for entry in ["graph_take", "graph_remove"] {
        let (reference, charged) = ops_without_and_with(QUICKSTART, "late", "1", "300", entry);
        assert!(reference > 100_000.0, "{entry}: {reference}");
        assert!(charged <= 100_000.0, "{entry}: {charged}");
    }
}

#[test]
fn the_coloring_runtimes_pop_and_register_are_charged_per_event() {
    // Every event is popped once (by one of 2 workers) and registered once
    // (by the driver or a worker): 10 us each over 2 cores is at least
    // 5 us of run per event, so at most 200,000 ops/s.
    for entry in ["event_pop", "event_register"] {
        let (reference, charged) =
            ops_without_and_with(COLORING, "libasync-no-steal", "2", "2000", entry);
        assert!(reference > 200_000.0, "{entry}: {reference}");
        assert!(charged <= 200_000.0, "{entry}: {charged}");
    }
}

#[test]
fn calibrate_prints_every_kind_beside_the_reference() {
    let (code, out, err) = psmr(&["calibrate", "--ms-per-kind", "2"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("cost table calibrated on "), "{out}");
    for kind in [
        "lock_uncontended",
        "lock_contended",
        "atomic_rmw",
        "line_transfer",
        "queue_handoff",
        "wake_up",
        "spin",
        "yield_now",
        "work_unit",
        "work_unit_ps",
        "execute_base",
        "wake_notify",
        "clock_read",
        "deliver",
        "route",
        "event_pop",
        "event_register",
        "graph_take",
        "graph_remove",
        "spin_keeps_core",
        "wake_preempt",
        "mutex_spins",
        "context_switch",
        "time_slice",
    ] {
        let row = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(kind))
            .unwrap_or_else(|| panic!("{kind} missing: {out}"));
        assert_eq!(row.split_whitespace().count(), 4, "{row}");
    }
    assert!(out.contains("reference"), "{out}");
}

#[test]
fn virtual_cores_out_of_range_are_refused() {
    for n in ["0", "65"] {
        let (code, _, err) = run(&["--virtual-cores", n]);
        assert_eq!(code, Some(2), "{n}: {err}");
        assert!(err.contains("--virtual-cores"), "{err}");
    }
}

#[test]
fn check_on_virtual_cores_labels_every_verdict() {
    let (code, out, err) = psmr(&[
        "check",
        QUICKSTART,
        "--requests",
        "500",
        "--virtual-cores",
        "4",
    ]);
    assert_eq!(code, Some(0), "{err}{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(!lines.is_empty(), "{out}");
    assert!(
        lines.iter().all(|l| l.ends_with(&format!("[{REFERENCE}]"))),
        "{out}"
    );
}

#[test]
fn bench_on_virtual_cores_labels_every_row_of_its_table_and_csv() {
    let args = [
        "bench",
        QUICKSTART,
        "--requests",
        "400",
        "--virtual-cores",
        "4",
        "--scheduler",
        "sequential",
        "--scheduler",
        "early",
    ];
    let (code, out, err) = psmr(&args);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.lines().next().unwrap().contains("not measured"),
        "{out}"
    );
    // sequential (on 1 virtual core), then early on 1, 2 and 4.
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("virtual "))
        .skip(1)
        .collect();
    assert_eq!(rows.len(), 4, "{out}");
    for (row, n) in rows.iter().zip([1, 1, 2, 4]) {
        let label = format!("virtual {n} cores (model, reference cost table)");
        assert!(row.ends_with(&label), "{row}");
    }
    let mut csv_args = args.to_vec();
    csv_args.push("--csv");
    let (code, csv, err) = psmr(&csv_args);
    assert_eq!(code, Some(0), "{err}");
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().ends_with(",numbers"), "{csv}");
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 4, "{csv}");
    for (row, n) in rows.iter().zip([1, 1, 2, 4]) {
        let label = format!("\"virtual {n} cores (model, reference cost table)\"");
        assert!(row.ends_with(&label), "{row}");
        assert!(row.contains(&format!(",{n},")), "{row}");
    }
    // The same sweep twice: the same model numbers.
    assert_eq!(psmr(&csv_args).1, csv);
    // A real sweep says its rows are measured.
    let (code, csv, err) = psmr(&[
        "bench",
        QUICKSTART,
        "--requests",
        "300",
        "--threads",
        "1",
        "--scheduler",
        "sequential",
        "--csv",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let row = csv.lines().nth(1).unwrap();
    assert!(
        row.ends_with("cores\"") && row.contains("\"measured, "),
        "{row}"
    );
}

#[test]
fn a_scenario_field_runs_it_on_virtual_cores_and_bad_values_are_located() {
    let text = std::fs::read_to_string(QUICKSTART).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["run"]["virtual_cores"] = 3.into();
    let path = temp("virtual.json");
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let p = path.to_str().unwrap();
    let (code, out, err) = psmr(&["run", p, "--requests", "300", "--no-trace"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("virtual 3 cores (model, reference cost table)"),
        "{out}"
    );
    // The command line's count wins over the file's.
    let (_, out, _) = psmr(&["run", p, "--requests", "300", "--virtual-cores", "2"]);
    assert!(out.contains("virtual 2 cores (model"), "{out}");
    v["run"]["virtual_cores"] = 65.into();
    let text = serde_json::to_string_pretty(&v).unwrap();
    std::fs::write(&path, &text).unwrap();
    let (code, _, err) = psmr(&["validate", p]);
    assert_eq!(code, Some(2), "{err}");
    let line = text
        .lines()
        .position(|l| l.contains("\"virtual_cores\""))
        .unwrap()
        + 1;
    assert!(
        err.contains(&format!("virtual.json:{line}:"))
            && err.contains("run.virtual_cores")
            && err.contains("expected 1..=64 virtual cores"),
        "{err}"
    );
}
