//! Expectations judged in the browser (issue 12, the lab's Check button).
//!
//! The browser runs a scenario `repetitions` times through the ordinary run
//! exports (so it gets progress and can cancel), collects the runs'
//! `report_id`s, and hands them back here: the engine judges the reports it
//! kept under those ids ([`crate::session::Engine::kept_reports`]), so no
//! report is read back from JSON (the wasm carries no report deserializer,
//! issue 30). Judging is
//! [`psmr_scenario::expect::evaluate`], the very function `psmr check`
//! calls natively: one implementation of expectations, so a scenario file
//! passes or fails the same way in both places, given the same reports.
//!
//! The only browser-specific input is each report's `cores`, which the web
//! worker passes as a run option from `navigator.hardwareConcurrency`; speed
//! ratios needing more cores than that are "skipped", never failed.

// Natively only the tests call these; the wasm exports below are their users.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

use psmr_scenario::expect::{evaluate, repetitions, ExpectationResult};
use psmr_scenario::{parse_scenario_with, Diagnostic, Limits, Report, Scenario};

/// File name used in diagnostics when the browser gives none.
const CHECK_FILE: &str = "scenario.json";

/// Most reports one evaluation accepts (the engine's repetition bound).
const MAX_REPORTS: usize = psmr_scenario::parse::MAX_REPETITIONS as usize;

/// Why a check could not be judged.
#[derive(Debug, PartialEq)]
pub enum CheckError {
    /// The scenario text is invalid (located diagnostics, as `validate`).
    Invalid(Vec<Diagnostic>),
    /// The reports are not what the runner produces.
    Reports(String),
}

fn parse(text: &str, file: &str) -> Result<Scenario, CheckError> {
    parse_scenario_with(text, file, &Limits::browser()).map_err(CheckError::Invalid)
}

/// How many times the browser must run the scenario before judging it.
pub fn check_repetitions(text: &str, file: &str) -> Result<u32, CheckError> {
    Ok(repetitions(&parse(text, file)?))
}

/// Judge `text`'s expectations on `reports` (one per repetition, as the
/// engine kept them).
pub fn evaluate_reports(
    text: &str,
    file: &str,
    reports: &[Report],
) -> Result<Vec<ExpectationResult>, CheckError> {
    let sc = parse(text, file)?;
    if reports.is_empty() {
        return Err(CheckError::Reports(
            "no report to judge: run the scenario first".into(),
        ));
    }
    if reports.len() > MAX_REPORTS {
        return Err(CheckError::Reports(format!(
            "{} reports, at most {MAX_REPORTS} are judged at once",
            reports.len()
        )));
    }
    Ok(evaluate(&sc, reports))
}

#[cfg(target_arch = "wasm32")]
mod exports {
    use wasm_bindgen::prelude::*;

    use super::{check_repetitions, evaluate_reports, CheckError, CHECK_FILE};
    use crate::bindings::engine;

    /// A check error for JS: invalid scenarios throw their diagnostics as a
    /// JSON array (like `startRun`), other errors a plain message.
    fn to_js(e: CheckError) -> JsValue {
        match e {
            CheckError::Invalid(d) => {
                JsValue::from_str(&serde_json::to_string(&d).unwrap_or_else(|_| "[]".into()))
            }
            CheckError::Reports(m) => JsValue::from_str(&m),
        }
    }

    /// Runs the browser must make before judging `text` (expect.repetitions,
    /// else run.repetitions, else 1).
    #[wasm_bindgen(js_name = checkRepetitions)]
    pub fn check_repetitions_js(text: &str, file: Option<String>) -> Result<u32, JsValue> {
        check_repetitions(text, file.as_deref().unwrap_or(CHECK_FILE)).map_err(to_js)
    }

    /// JSON array of `{name, passed, skipped_reason?, message}`, one per
    /// expectation of `text`, judged on the kept reports of `report_ids`
    /// (the `report_id` of each run's outcome, one per repetition).
    #[wasm_bindgen(js_name = evaluateExpectations)]
    pub fn evaluate_expectations_js(
        text: &str,
        report_ids: &[u32],
        file: Option<String>,
    ) -> Result<String, JsValue> {
        let reports = engine()
            .kept_reports(report_ids)
            .map_err(|m| JsValue::from_str(&m))?;
        let results = evaluate_reports(text, file.as_deref().unwrap_or(CHECK_FILE), &reports)
            .map_err(to_js)?;
        serde_json::to_string(&results).map_err(|e| JsValue::from_str(&e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use psmr_core::threads::ThreadHost;
    use psmr_scenario::{parse_scenario, run_scenario, Report, RunMonitor, RunOptions};

    use super::*;
    use crate::testdata::SMALL;
    use std::sync::LazyLock;

    /// A small scenario (the crate's test stream, 400 requests, with
    /// early) with one expectation of each kind that can be judged on one
    /// core, and a ratio that needs more cores than any report below
    /// claims.
    static SCENARIO: LazyLock<String> = LazyLock::new(|| {
        SMALL
            .replace("\"requests\": 2000", "\"requests\": 400")
            .replace(
                r#"[ { "id": "sequential" } ]"#,
                r#"[ { "id": "sequential" }, { "id": "early" } ]"#,
            )
            .replace(r#""run": { "trace": true }"#, EXPECT)
    });

    const EXPECT: &str = r#""expect": {
    "repetitions": 2,
    "counters": [
      { "scheduler": "sequential", "counter": "steals", "op": "==", "value": 0 },
      { "scheduler": "early", "counter": "steals", "op": ">", "value": 1000000 }
    ],
    "ratios": [ { "of": "early", "over": "sequential", "at_least": 1.0, "min_cores": 64 } ]
  }"#;

    fn reports(text: &str, n: u32) -> Vec<Report> {
        let sc = parse_scenario(text, "t.json").expect("valid scenario");
        let host = ThreadHost::with_capacity(3).expect("pool");
        (0..n)
            .map(|_| {
                run_scenario(
                    &sc,
                    &RunOptions::default(),
                    &Limits::browser(),
                    &host,
                    &RunMonitor::new(),
                )
                .expect("runs")
            })
            .collect()
    }

    #[test]
    fn repetitions_come_from_the_expect_block() {
        assert_eq!(check_repetitions(&SCENARIO, "t.json"), Ok(2));
        let plain = SCENARIO.replace("\"repetitions\": 2,", "");
        assert_eq!(check_repetitions(&plain, "t.json"), Ok(1));
    }

    #[test]
    fn browser_judgement_equals_the_native_one() {
        let reps = reports(&SCENARIO, 2);
        let native = evaluate(&parse_scenario(&SCENARIO, "t.json").unwrap(), &reps);
        let browser = evaluate_reports(&SCENARIO, "t.json", &reps).unwrap();
        assert_eq!(browser, native);
        // The judgement is real: one counter holds, the impossible one
        // fails, the ratio is skipped for lack of cores.
        let by_name = |needle: &str| browser.iter().find(|r| r.name.contains(needle)).unwrap();
        assert!(by_name("steals(sequential)").passed);
        let impossible = by_name("steals(early)");
        assert!(impossible.failed(), "{impossible:?}");
        assert!(by_name("throughput").skipped_reason.is_some());
        assert!(browser
            .iter()
            .filter(|r| r.name.starts_with("correct("))
            .all(|r| r.passed));
    }

    /// Scenarios with more shards are left to the e2e check: building their
    /// schedulers runs the mapping optimizer to its time budget (seconds per
    /// scheduler), too slow for a unit test.
    const MAX_TEST_SHARDS: u64 = 4;

    /// Every shipped scenario (up to MAX_TEST_SHARDS shards): the CLI's `check_scenario` (native limits,
    /// the reports it ran) and the browser path (browser limits, the same
    /// reports) ask for the same number of runs and give the same verdicts. Requests are cut and pacing is off to keep the test short.
    #[test]
    fn shipped_scenarios_judge_the_same_as_psmr_check() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../scenarios");
        let host = ThreadHost::with_capacity(Limits::browser().max_threads + 1).expect("pool");
        let opts = RunOptions {
            requests: Some(120),
            pace_ns: Some(0),
            trace: Some(false),
            ..RunOptions::default()
        };
        let mut checked = 0;
        for entry in std::fs::read_dir(&dir).expect("scenarios folder") {
            let path = entry.unwrap().path();
            let file = path.file_name().unwrap().to_string_lossy().to_string();
            if !file.ends_with(".json") || file == "scenario.schema.json" {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let sc = parse_scenario(&text, &file).unwrap_or_else(|d| panic!("{file}: {d:?}"));
            let shards = serde_json::from_str::<serde_json::Value>(&text).unwrap()["app"]["shards"]
                .as_u64()
                .unwrap_or(1);
            if shards > MAX_TEST_SHARDS {
                continue; // checked in the browser by e2e/tests/scenarios.spec.ts
            }
            let check = |o: &RunOptions| {
                psmr_scenario::check_scenario(&sc, o, &Limits::native(), &host, &RunMonitor::new())
            };
            // Wide scenarios run on 2 workers where their mapping allows it:
            // oversubscribed spinning on a small shared machine is slow.
            let narrow = RunOptions {
                threads: Some(sc.threads.min(2)),
                ..opts.clone()
            };
            let cli = check(&narrow)
                .or_else(|_| check(&opts))
                .unwrap_or_else(|d| panic!("{file}: {d:?}"));
            let runs = check_repetitions(&text, &file).unwrap_or_else(|e| panic!("{file}: {e:?}"));
            assert_eq!(runs as usize, cli.reports.len(), "{file}: repetitions");
            let browser = evaluate_reports(&text, &file, &cli.reports)
                .unwrap_or_else(|e| panic!("{file}: {e:?}"));
            assert_eq!(browser, cli.results, "{file}: verdicts");
            assert!(!browser.is_empty(), "{file}: nothing judged");
            checked += 1;
        }
        assert!(
            checked >= 5,
            "only {checked} scenarios checked in {}",
            dir.display()
        );
    }

    #[test]
    fn invalid_scenarios_and_reports_are_refused_with_reasons() {
        match check_repetitions("{\n  \"threads\": \"two\"\n}", "bad.json") {
            Err(CheckError::Invalid(d)) => assert!(d[0].line >= 1 && d[0].file == "bad.json"),
            other => panic!("expected diagnostics, got {other:?}"),
        }
        // Over the browser's thread limit: valid natively, refused here.
        let wide = SCENARIO.replace("\"threads\": 2", "\"threads\": 40");
        assert!(matches!(
            check_repetitions(&wide, "t.json"),
            Err(CheckError::Invalid(_))
        ));
        assert!(matches!(
            evaluate_reports(&SCENARIO, "t.json", &[]),
            Err(CheckError::Reports(_))
        ));
        let one = reports(&SCENARIO, 1).remove(0);
        let at_bound = vec![one.clone(); MAX_REPORTS];
        assert!(evaluate_reports(&SCENARIO, "t.json", &at_bound).is_ok());
        let over = vec![one; MAX_REPORTS + 1];
        assert!(
            matches!(evaluate_reports(&SCENARIO, "t.json", &over), Err(CheckError::Reports(m)) if m.contains("at most"))
        );
    }
}
