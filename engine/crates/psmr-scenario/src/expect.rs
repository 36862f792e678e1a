//! Expectations of a scenario (issue 12): what `psmr check` and the lab's
//! Check button verify after running it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use crate::expectations::{
    known_counter, CmpOp, CounterExpectation, Expectations, RatioExpectation, THREAD_FIGURES,
};
use crate::report::{Report, RunMode, RunReport};
use crate::scenario::Scenario;

/// The outcome of one expectation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ExpectationResult {
    /// What was expected, e.g. `correct(early)` or
    /// `ratio(busy-wait / early) >= 1.5`.
    pub name: String,
    /// It was judged and it held.
    pub passed: bool,
    /// Set when it was not judged (too few cores, scheduler did not run);
    /// then `passed` is false but it is not a failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    // Absent, never null, in what the engine writes.
    #[schemars(with = "String")]
    pub skipped_reason: Option<String>,
    /// The measured values, in words.
    pub message: String,
}

impl ExpectationResult {
    /// Judged and did not hold.
    pub fn failed(&self) -> bool {
        !self.passed && self.skipped_reason.is_none()
    }
    fn judged(name: String, passed: bool, message: String) -> Self {
        ExpectationResult {
            name,
            passed,
            skipped_reason: None,
            message,
        }
    }
    fn skipped(name: String, reason: String, message: String) -> Self {
        ExpectationResult {
            name,
            passed: false,
            skipped_reason: Some(reason),
            message,
        }
    }
}

/// Repetitions `psmr check` runs for `sc`.
pub fn repetitions(sc: &Scenario) -> u32 {
    sc.expect
        .as_ref()
        .and_then(|e| e.repetitions)
        .unwrap_or_else(|| sc.run.repetitions())
        .max(1)
}

/// Judge `sc`'s expectations on `reports` (one per repetition, each with
/// the runs of one invocation). Values compared are medians over the
/// repetitions. A scenario without an `expect` block expects correctness.
pub fn evaluate(sc: &Scenario, reports: &[Report]) -> Vec<ExpectationResult> {
    let default = Expectations::default();
    let e = sc.expect.as_ref().unwrap_or(&default);
    let cores = reports
        .iter()
        .map(Cores::of)
        .min()
        .unwrap_or(Cores::Real(0));
    let mut out = Vec::new();
    if e.correct {
        for s in &sc.schedulers {
            out.push(correctness(&s.name(), reports));
        }
    } else {
        out.push(violation_expected(reports));
    }
    for c in &e.counters {
        out.push(counter(c, sc, reports));
    }
    for r in &e.ratios {
        out.push(ratio(r, sc, reports, cores));
    }
    out
}

/// The runs of the scheduler `name` (label or id) across repetitions.
fn runs_of<'r>(sc: &Scenario, reports: &'r [Report], name: &str) -> Vec<&'r RunReport> {
    let label = sc
        .find_scheduler(name)
        .map(|i| sc.schedulers[i].name())
        .unwrap_or_else(|| name.to_string());
    reports
        .iter()
        .flat_map(|r| r.runs.iter())
        .filter(|r| r.label == label && !r.cancelled)
        .collect()
}

fn correctness(label: &str, reports: &[Report]) -> ExpectationResult {
    let name = format!("correct({label})");
    let runs: Vec<&RunReport> = reports
        .iter()
        .flat_map(|r| r.runs.iter())
        .filter(|r| r.label == label)
        .collect();
    if runs.is_empty() {
        return ExpectationResult::skipped(name, "the scheduler did not run".into(), String::new());
    }
    match runs.iter().find(|r| !r.correct) {
        Some(bad) => ExpectationResult::judged(
            name,
            false,
            bad.violation.clone().unwrap_or_else(|| "incorrect".into()),
        ),
        None => ExpectationResult::judged(
            name,
            true,
            format!("{} run(s) agree with sequential execution", runs.len()),
        ),
    }
}

fn violation_expected(reports: &[Report]) -> ExpectationResult {
    let name = "violation expected".to_string();
    let bad = reports
        .iter()
        .flat_map(|r| r.runs.iter())
        .find(|r| !r.correct);
    match bad {
        Some(r) => ExpectationResult::judged(
            name,
            true,
            format!("{}: {}", r.label, r.violation.clone().unwrap_or_default()),
        ),
        None => ExpectationResult::judged(
            name,
            false,
            "every run was correct, the scenario expects a violation".into(),
        ),
    }
}

/// The value of `counter` in one run.
pub fn counter_value(run: &RunReport, counter: &str) -> Option<f64> {
    let executed = run.metrics.threads.iter().map(|t| t.executed);
    match counter {
        "executed_min" => executed.min().map(|v| v as f64),
        "executed_max" => executed.max().map(|v| v as f64),
        "threads_used" => Some(executed.filter(|e| *e > 0).count() as f64),
        name => run.metrics.counters.get(name).map(|v| *v as f64),
    }
}

/// Median (the mean of the middle two for an even count).
pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(|a, b| a.total_cmp(b));
    let n = values.len();
    Some(if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    })
}

fn counter(c: &CounterExpectation, sc: &Scenario, reports: &[Report]) -> ExpectationResult {
    let name = format!(
        "{}({}) {} {}",
        c.counter,
        c.scheduler,
        c.op.symbol(),
        c.value
    );
    let runs = runs_of(sc, reports, &c.scheduler);
    let mut values: Vec<f64> = runs
        .iter()
        .filter_map(|r| counter_value(r, &c.counter))
        .collect();
    let n = values.len();
    match median(&mut values) {
        None => ExpectationResult::skipped(
            name,
            format!("`{}` did not run to completion", c.scheduler),
            String::new(),
        ),
        Some(v) => ExpectationResult::judged(
            name,
            c.op.holds(v, c.value),
            format!("{} = {v} (median of {n})", c.counter),
        ),
    }
}

/// The cores a ratio's `min_cores` is judged against: on virtual cores the
/// run's modelled cores (a 16-virtual-core run on a 2-core machine has the
/// 16 cores the ratio needs), on real threads the machine's. Virtual
/// orders before real, so a mix of reports is judged by its virtual ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Cores {
    Virtual(usize),
    Real(usize),
}

impl Cores {
    fn of(r: &Report) -> Self {
        match &r.mode {
            RunMode::Virtual(v) => Cores::Virtual(v.cores),
            RunMode::Real => Cores::Real(r.cores),
        }
    }

    fn count(self) -> usize {
        match self {
            Cores::Virtual(n) | Cores::Real(n) => n,
        }
    }

    /// "the machine has 2 cores" or "the run has 16 virtual cores (model)".
    fn describe(self) -> String {
        match self {
            Cores::Virtual(n) => format!("the run has {n} virtual cores (model)"),
            Cores::Real(n) => format!("the machine has {n} cores"),
        }
    }
}

fn ratio(
    r: &RatioExpectation,
    sc: &Scenario,
    reports: &[Report],
    cores: Cores,
) -> ExpectationResult {
    let threshold = r.at_least * (1.0 - r.tolerance);
    let name = format!(
        "throughput({}) / throughput({}) >= {}",
        r.of, r.over, r.at_least
    );
    let median_of = |who: &str| {
        let mut v: Vec<f64> = runs_of(sc, reports, who)
            .iter()
            .map(|x| x.throughput_ops_s)
            .collect();
        median(&mut v)
    };
    let (Some(a), Some(b)) = (median_of(&r.of), median_of(&r.over)) else {
        return ExpectationResult::skipped(
            name,
            "one of the two schedulers did not run to completion".into(),
            String::new(),
        );
    };
    let ratio = if b > 0.0 { a / b } else { f64::INFINITY };
    let message = format!(
        "ratio {ratio:.3} (medians {a:.0} / {b:.0} ops/s), needs >= {threshold:.3} with tolerance {}",
        r.tolerance
    );
    let min_cores = r.min_cores.unwrap_or(sc.threads);
    if cores.count() < min_cores {
        return ExpectationResult::skipped(
            name,
            format!(
                "{}, this ratio is judged with at least {min_cores}",
                cores.describe()
            ),
            message,
        );
    }
    let message = match cores {
        Cores::Virtual(_) => format!("{message}; {}", cores.describe()),
        Cores::Real(_) => message,
    };
    ExpectationResult::judged(name, ratio >= threshold, message)
}
