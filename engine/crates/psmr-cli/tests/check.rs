//! `psmr check`: pass/fail/skip lines, exit codes, JUnit and JSON files.

mod support;

use support::{assert_contains_all, psmr_outcome, temp_file};

fn scenario(test: &str, expect: &str) -> std::path::PathBuf {
    let text = format!(
        r#"{{
  "name": "check {test}",
  "description": "two sequential entries",
  "app": {{ "kind": "linked-list", "shards": 2, "size": "light" }},
  "workload": {{ "requests": 1500, "writes": 0.1, "global": 0.05 }},
  "threads": 1,
  "schedulers": [ {{ "id": "sequential" }}, {{ "id": "sequential", "label": "again" }} ],
  "expect": {expect}
}}"#
    );
    temp_file("psmr-check-tests", &format!("{test}.json"), &text)
}

fn check(args: &[&str]) -> (Option<i32>, String, String) {
    psmr_outcome(&[&["check"], args].concat())
}

#[test]
fn passing_and_skipped_expectations_exit_zero_and_write_reports() {
    let f = scenario(
        "pass",
        r#"{"repetitions": 3,
            "counters": [{"scheduler": "again", "counter": "steals", "op": "==", "value": 0}],
            "ratios": [{"of": "again", "over": "sequential", "at_least": 100, "min_cores": 100000}]}"#,
    );
    let dir = f.parent().unwrap();
    let (junit, json) = (dir.join("pass.xml"), dir.join("pass.out.json"));
    let (code, out, err) = check(&[
        f.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert_contains_all(&out, &["PASS", "correct(again)"]);
    assert!(
        out.contains("steals(again) == 0: steals = 0 (median of 3)"),
        "{out}"
    );
    assert!(out.contains("SKIP") && out.contains("100000"), "{out}");
    let xml = std::fs::read_to_string(junit).unwrap();
    assert!(
        xml.contains("tests=\"4\" failures=\"0\" skipped=\"1\""),
        "{xml}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    assert_eq!(v["files"][0]["reports"].as_array().unwrap().len(), 3);
    assert_eq!(v["files"][0]["results"].as_array().unwrap().len(), 4);
}

#[test]
fn a_failing_expectation_exits_one() {
    let f = scenario(
        "fail",
        r#"{"counters": [{"scheduler": "sequential", "counter": "steals", "op": ">", "value": 0}],
            "ratios": [{"of": "again", "over": "sequential", "at_least": 100, "min_cores": 1}]}"#,
    );
    let (code, out, err) = check(&[f.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}\n{err}");
    assert_eq!(out.matches("FAIL").count(), 2, "{out}");
    assert!(err.contains("2 expectation(s) failed"), "{err}");
}

#[test]
fn an_invalid_file_exits_two() {
    let f = scenario(
        "invalid",
        r#"{"counters": [{"scheduler": "nobody", "counter": "steals", "op": ">", "value": 0}]}"#,
    );
    let (code, _, err) = check(&[f.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("expect.counters[0].scheduler: no scheduler `nobody`"),
        "{err}"
    );
}

/// A folder of three scenarios split in two shards: every file is judged
/// by exactly one shard, and the JUnit of each shard names only its own.
#[test]
fn shards_of_a_folder_judge_every_file_once() {
    let dir = support::temp_dir("psmr-check-shards");
    for name in ["s1", "s2", "s3"] {
        let f = scenario(name, r#"{"correct": true}"#);
        std::fs::copy(&f, dir.join(format!("{name}.json"))).unwrap();
    }
    let mut judged = Vec::new();
    for shard in ["1/2", "2/2"] {
        let junit = dir.join(format!("shard-{}.xml", &shard[..1]));
        let (code, out, err) = check(&[
            dir.to_str().unwrap(),
            "--shard",
            shard,
            "--junit",
            junit.to_str().unwrap(),
        ]);
        assert_eq!(code, Some(0), "{out}\n{err}");
        assert!(out.starts_with(&format!("shard {shard}: ")), "{out}");
        let xml = std::fs::read_to_string(&junit).unwrap();
        for line in out.lines().filter(|l| l.starts_with("PASS")) {
            let file = line.split(": ").next().unwrap().trim_start_matches("PASS ");
            assert!(xml.contains(file), "{file} missing from {xml}");
            judged.push(file.to_string());
        }
    }
    judged.sort();
    judged.dedup();
    let names: Vec<_> = judged
        .iter()
        .map(|f| {
            std::path::Path::new(f)
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(names, ["s1.json", "s2.json", "s3.json"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_shard_is_refused_with_what_was_expected() {
    let f = scenario("shard-bad", r#"{"correct": true}"#);
    let (code, _out, err) = check(&[f.to_str().unwrap(), "--shard", "3/2"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("expected i/n with 1 <= i <= n"), "{err}");
}

/// `psmr check` judges the file once, with its overrides applied: a
/// file's request count that `--requests` replaces is not judged; without
/// the override it is one located error.
#[test]
fn a_file_value_an_override_replaces_is_not_judged() {
    let f = scenario("over-limit", "{}");
    let text = std::fs::read_to_string(&f)
        .unwrap()
        .replace("\"requests\": 1500", "\"requests\": 20000000");
    std::fs::write(&f, text).unwrap();
    let file = f.to_str().unwrap();
    let (code, out, err) = check(&[file, "--requests", "300"]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    let (code, out, err) = check(&[file]);
    assert_eq!(code, Some(2), "{out}\n{err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.contains("got 20000000")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert!(errors[0].contains(":5:29: workload.requests:"), "{err}");
}
