//! `psmr check`: run scenarios, judge their expectations, report as text,
//! JUnit XML and JSON.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use psmr_scenario::runner::{check_plan, plan_run};
use psmr_scenario::{CheckOutcome, Limits, RunMonitor, RunOptions};

use crate::inputs::{expand, Shard};
use crate::shared::{host_for, print_diagnostics, read_scenario, EXIT_BAD_INPUT, EXIT_FAILED};

/// One file's outcome: its results, or the diagnostics that stopped it.
struct FileOutcome {
    file: String,
    outcome: Result<CheckOutcome, Vec<String>>,
}

/// `opts`: the command line's overrides (requests, virtual cores, cost
/// table); the trace is off.
pub fn cmd_check(
    args: &[PathBuf],
    shard: Option<Shard>,
    opts: &RunOptions,
    junit: Option<&Path>,
    json: Option<&Path>,
) -> ExitCode {
    let files = match select_files(args, shard) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("psmr check: {e}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let outcomes: Vec<FileOutcome> = files.iter().map(|f| check_file(f, opts)).collect();
    let mut code = ExitCode::SUCCESS;
    let mut failures = 0;
    let mut bad_input = false;
    for o in &outcomes {
        match &o.outcome {
            Ok(c) => {
                for r in &c.results {
                    let verdict = if r.passed {
                        "PASS"
                    } else if r.failed() {
                        failures += 1;
                        "FAIL"
                    } else {
                        "SKIP"
                    };
                    let mut line = format!("{verdict} {}: {}", o.file, r.name);
                    if !r.message.is_empty() {
                        line.push_str(&format!(": {}", r.message));
                    }
                    if let Some(why) = &r.skipped_reason {
                        line.push_str(&format!(" (skipped: {why})"));
                    }
                    // Judged on a model's numbers: the line says so.
                    if let Some(model) = c.reports.first().and_then(|r| r.mode.label()) {
                        line.push_str(&format!(" [{model}]"));
                    }
                    println!("{line}");
                }
            }
            Err(_) => bad_input = true,
        }
    }
    if let Some(p) = junit {
        if let Err(e) = std::fs::write(p, junit_xml(&outcomes)) {
            eprintln!("psmr: cannot write {}: {e}", p.display());
            bad_input = true;
        }
    }
    if let Some(p) = json {
        if let Err(e) = std::fs::write(p, json_report(&outcomes)) {
            eprintln!("psmr: cannot write {}: {e}", p.display());
            bad_input = true;
        }
    }
    if failures > 0 {
        eprintln!("{failures} expectation(s) failed");
        code = ExitCode::from(EXIT_FAILED);
    }
    if bad_input {
        code = ExitCode::from(EXIT_BAD_INPUT);
    }
    code
}

/// The files this run judges: the arguments expanded, then this shard's
/// part. A shard with nothing to judge says so (a matrix wider than the
/// suite is not an error); an empty folder is.
fn select_files(args: &[PathBuf], shard: Option<Shard>) -> Result<Vec<PathBuf>, String> {
    let all = expand(args)?;
    if all.is_empty() {
        return Err("no scenario files (*.json) in the given folders".into());
    }
    let Some(shard) = shard else {
        return Ok(all);
    };
    let total = all.len();
    let mine = shard.take(all);
    println!(
        "shard {}/{}: {} of {total} files",
        shard.index,
        shard.count,
        mine.len()
    );
    Ok(mine)
}

fn check_file(f: &Path, opts: &RunOptions) -> FileOutcome {
    let file = f.display().to_string();
    let fail = |d: Vec<psmr_scenario::Diagnostic>| {
        print_diagnostics(&d);
        FileOutcome {
            file: file.clone(),
            outcome: Err(d.iter().map(|d| d.to_string()).collect()),
        }
    };
    // One validation pass, with the overrides applied.
    let planned = read_scenario(f)
        .and_then(|sc| plan_run(&sc, opts, &Limits::native()).map(|plan| (sc, plan)));
    let (sc, plan) = match planned {
        Ok(p) => p,
        Err(d) => return fail(d),
    };
    let host = match host_for(plan.threads()) {
        Ok(h) => h,
        Err(_) => {
            return FileOutcome {
                file: file.clone(),
                outcome: Err(vec!["cannot start the thread pool".into()]),
            }
        }
    };
    match check_plan(&sc, &plan, &host, &RunMonitor::new()) {
        Ok(c) => {
            for r in c.reports.iter().flat_map(|r| r.runs.iter()) {
                if let Some(v) = &r.violation {
                    eprintln!("VIOLATION {}: {v}", r.label);
                }
            }
            FileOutcome {
                file,
                outcome: Ok(c),
            }
        }
        Err(d) => fail(d),
    }
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// One `<testsuite>` per file, one `<testcase>` per expectation; a file
/// that could not run is one failing `<testcase name="run">`.
fn junit_xml(outcomes: &[FileOutcome]) -> String {
    let mut x = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"psmr check\">\n",
    );
    for o in outcomes {
        let file = xml_escape(&o.file);
        match &o.outcome {
            Ok(c) => {
                let failures = c.results.iter().filter(|r| r.failed()).count();
                let skipped = c
                    .results
                    .iter()
                    .filter(|r| r.skipped_reason.is_some())
                    .count();
                x.push_str(&format!(
                    "  <testsuite name=\"{file}\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\">\n",
                    c.results.len()
                ));
                for r in &c.results {
                    x.push_str(&format!(
                        "    <testcase classname=\"{file}\" name=\"{}\">",
                        xml_escape(&r.name)
                    ));
                    if let Some(why) = &r.skipped_reason {
                        x.push_str(&format!("<skipped message=\"{}\"/>", xml_escape(why)));
                    } else if r.failed() {
                        x.push_str(&format!(
                            "<failure message=\"{}\"/>",
                            xml_escape(&r.message)
                        ));
                    }
                    x.push_str(&format!(
                        "<system-out>{}</system-out></testcase>\n",
                        xml_escape(&r.message)
                    ));
                }
            }
            Err(errors) => {
                x.push_str(&format!(
                    "  <testsuite name=\"{file}\" tests=\"1\" failures=\"1\" skipped=\"0\">\n    <testcase classname=\"{file}\" name=\"run\"><failure message=\"{}\"/></testcase>\n",
                    xml_escape(&errors.join("\n"))
                ));
            }
        }
        x.push_str("  </testsuite>\n");
    }
    x.push_str("</testsuites>\n");
    x
}

fn json_report(outcomes: &[FileOutcome]) -> String {
    let files: Vec<serde_json::Value> = outcomes
        .iter()
        .map(|o| match &o.outcome {
            Ok(c) => serde_json::json!({
                "file": o.file,
                "scenario": c.scenario,
                "results": c.results,
                "reports": c.reports,
            }),
            Err(errors) => serde_json::json!({ "file": o.file, "errors": errors }),
        })
        .collect();
    serde_json::to_string_pretty(&serde_json::json!({ "files": files })).unwrap_or_default()
}
