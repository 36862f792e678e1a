//! # psmr-scenario
//!
//! Scenario files and everything done with them, shared by the CLI and the
//! browser engine:
//!
//! * [`scenario`]: the JSON format ([`Scenario`]) and its JSON Schema;
//! * [`parse`]: [`parse_scenario`] with located [`Diagnostic`]s, and the
//!   engine [`Limits`];
//! * [`locate`]: the JSON locator mapping field paths to line/column;
//! * [`runner`]: [`run_scenario`] (one stream, every scheduler, each run
//!   checked by the oracle), [`RunOptions`], [`RunMonitor`], [`Report`];
//! * [`expectations`]: the `expect` object of a scenario (issue 12), and
//!   [`expect`]: judging it on reports;
//! * [`options`]: a run's overrides ([`RunOptions`]) and selected entries;
//! * [`report`]: [`Report`], the CLI's JSON contract;
//! * [`bench`]: the threads × write-rate sweep;
//! * [`explore`]: schedule after schedule on virtual cores until the
//!   oracle reports a violation (`psmr explore`, the browser's break-it mode);
//! * [`commits`]: commit streams and execution orders as JSON files.

pub mod bench;
pub mod commits;
pub mod contract;
pub mod diag;
mod errpath;
pub mod expect;
pub mod expectations;
pub mod explore;
pub mod locate;
pub mod options;
pub mod parse;
pub mod report;
pub mod runner;
pub mod scenario;

pub use bench::{bench, plan_bench, run_bench, BenchOptions, BenchPlan, BenchPoint, BenchReport};
pub use diag::Diagnostic;
pub use expect::{evaluate, ExpectationResult};
pub use parse::{parse_located, parse_scenario, parse_scenario_with, validate, Limits};
pub use runner::{
    check_scenario, run_scenario, CheckOutcome, MonitorSnapshot, Report, RunMonitor, RunOptions,
    RunReport,
};
pub use scenario::{EntryMatch, RunSettings, Scenario};
