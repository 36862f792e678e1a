//! `psmr`: run, validate, check and bench P-SMR Lab scenario files.
//!
//! Exit codes: 0 success; 1 a run violated correctness or an expectation
//! failed; 2 bad input (unreadable file, invalid scenario, bad flags, a
//! scheduler that cannot run).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use clap::{Parser, Subcommand};
use psmr_core::exec::Delivery;
use psmr_core::virt::Costs;
use psmr_scenario::commits::ReadCommits;
use psmr_scenario::runner::{plan_run, run_plan};
use psmr_scenario::{Diagnostic, Limits, Report, RunMonitor, RunOptions, Scenario};

mod check;
mod costs;
mod explore;
mod inputs;
mod map;
mod shared;
mod table;

use shared::{host_for, load, print_diagnostics, EXIT_BAD_INPUT, EXIT_FAILED, EXIT_INTERRUPTED};

#[derive(Parser, Debug)]
#[command(
    name = "psmr",
    version,
    about = "P-SMR Lab: run and check scheduler scenarios"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a scenario's schedulers on one request stream and report.
    Run {
        file: PathBuf,
        /// Scheduler label or id to run (repeatable; default: all of the file).
        #[arg(long = "scheduler", value_name = "ID")]
        schedulers: Vec<String>,
        /// Worker threads (overrides the file).
        #[arg(long)]
        threads: Option<usize>,
        /// Requests in the stream (overrides the file).
        #[arg(long)]
        requests: Option<u32>,
        /// Seed of the stream (overrides the file).
        #[arg(long)]
        seed: Option<u64>,
        /// Extra busy time per request, in ns (overrides the file).
        #[arg(long)]
        pace_ns: Option<u64>,
        /// Delivery model (overrides the file): `saturate`, `closed`,
        /// `closed:CLIENTS` or `rate:PER_SECOND`.
        #[arg(long, value_parser = shared::parse_delivery)]
        delivery: Option<Delivery>,
        /// Do not record the event trace.
        #[arg(long)]
        no_trace: bool,
        /// Run on a modelled machine of N virtual cores (N worker threads,
        /// or --threads; the driver and roles share the cores), one thread
        /// at a time in virtual time under a cost table: a model's numbers,
        /// labelled so in every row and in the JSON report's `mode`.
        #[arg(long, value_name = "N", value_parser = virtual_cores_arg())]
        virtual_cores: Option<u32>,
        /// Cost table of a virtual run: `reference` (default, the same
        /// everywhere), `calibrate` (measured now) or a JSON file.
        #[arg(long, value_name = "TABLE", value_parser = costs::parse_cost_table)]
        cost_table: Option<Costs>,
        /// Replay a schedule found by `psmr explore` (its token fixes the
        /// seed, the virtual cores and the schedule); prints the run's
        /// trace digest on standard error.
        #[arg(long, value_name = "TOKEN", conflicts_with_all = ["seed", "virtual_cores"])]
        schedule: Option<String>,
        /// Select this fault-injection variant on the one `--scheduler`
        /// (builds with the `fault-injection` feature).
        #[arg(long, value_name = "NAME")]
        fault: Option<String>,
        /// Print the JSON report instead of a table.
        #[arg(long)]
        json: bool,
        /// Print each run's trace digest (FNV-1a of the packed trace) instead
        /// of the table: `LABEL DIGEST`, one line per run. A run on virtual
        /// cores gives the same digest every time and in the browser.
        #[arg(long, conflicts_with_all = ["json", "no_trace"])]
        digest: bool,
        /// Replay the commit stream in this JSON file (`{"instances": [...]}`,
        /// as `psmr commits` writes it) instead of the workload's.
        #[arg(long, value_name = "PATH")]
        commits: Option<PathBuf>,
        /// Write the canonical order and each run's execution order (requests,
        /// and instances for a commit stream) as JSON to this file.
        #[arg(long, value_name = "PATH")]
        order: Option<PathBuf>,
        /// Write each run's packed trace (the web app's format, see
        /// `psmr_core::codec`) to `DIR/run-<i>.trace`, `i` the run's index in
        /// the report; creates DIR.
        #[arg(long, value_name = "DIR", conflicts_with = "no_trace")]
        trace_dir: Option<PathBuf>,
    },
    /// Run one scheduler on virtual cores under schedule after schedule
    /// (the earliest clock first, then seeded delays at synchronization
    /// points) until the oracle reports a violation; print it with a replay
    /// token. Exit 1 when a violation was found, 0 when none was.
    Explore(explore::ExploreArgs),
    /// Write a scenario's commit stream (instances in commit order with
    /// commands, seq and dependencies) and its SCC sizes as JSON.
    Commits {
        file: PathBuf,
        /// Requests (commands) in the stream (overrides the file).
        #[arg(long)]
        requests: Option<u32>,
        /// Seed of the stream (overrides the file).
        #[arg(long)]
        seed: Option<u64>,
        /// Write here instead of standard output.
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
    },
    /// Check scenario files; print `FILE:LINE:COL: field.path: message` per error.
    Validate {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Run scenarios and judge their expectations; one PASS/FAIL/SKIP line each.
    Check {
        /// Scenario files, or folders (their `*.json`, recursively, without the schema).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Judge only shard I of N of the sorted file list (1-based, as in
        /// Playwright's `--shard`), to split a suite across CI runners.
        #[arg(long, value_name = "I/N")]
        shard: Option<inputs::Shard>,
        /// Requests in the stream (overrides the files).
        #[arg(long)]
        requests: Option<u32>,
        /// Write a JUnit XML report here.
        #[arg(long, value_name = "PATH")]
        junit: Option<PathBuf>,
        /// Write the results (and every run's report) as JSON here.
        #[arg(long, value_name = "PATH")]
        json: Option<PathBuf>,
        /// Run every scenario on N virtual cores (overrides the files).
        #[arg(long, value_name = "N", value_parser = virtual_cores_arg())]
        virtual_cores: Option<u32>,
        /// Cost table of virtual runs (`reference`, `calibrate`, a file).
        #[arg(long, value_name = "TABLE", value_parser = costs::parse_cost_table)]
        cost_table: Option<Costs>,
    },
    /// Sweep threads × write share for each scheduler (trace off).
    Bench {
        file: PathBuf,
        /// Worker thread counts, comma-separated (default: powers of two up
        /// to the scenario's threads).
        #[arg(long, value_delimiter = ',')]
        threads: Vec<usize>,
        /// Write shares, comma-separated (default: the scenario's).
        #[arg(long, value_delimiter = ',')]
        writes: Vec<f64>,
        /// Scheduler label or id (repeatable; default: all of the file).
        #[arg(long = "scheduler", value_name = "ID")]
        schedulers: Vec<String>,
        /// Requests per stream (overrides the file).
        #[arg(long)]
        requests: Option<u32>,
        /// Sweep virtual cores up to N (powers of two, or the --threads
        /// list) instead of threads: every point a model's number.
        #[arg(long, value_name = "N", value_parser = virtual_cores_arg())]
        virtual_cores: Option<u32>,
        /// Cost table of virtual points (`reference`, `calibrate`, a file).
        #[arg(long, value_name = "TABLE", value_parser = costs::parse_cost_table)]
        cost_table: Option<Costs>,
        /// Print the JSON report instead of a table.
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// Print one CSV row per point instead of a table (each row says
        /// whether it is measured or a model's).
        #[arg(long)]
        csv: bool,
    },
    /// Measure the virtual cores' cost table on this machine (about 2 s)
    /// and print it beside the committed reference table.
    Calibrate {
        /// Print the table as JSON (what `--cost-table FILE` reads).
        #[arg(long)]
        json: bool,
        /// Wall time per measured kind, in ms (ten kinds).
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=5_000))]
        ms_per_kind: u64,
    },
    /// Map a class table onto threads with the optimizer (paper 003
    /// section 5.1): the mapping, O.1-O.3, optimal or the gap, R.1-R.5.
    Map {
        file: PathBuf,
        /// Print the result as JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print the JSON Schema of scenario files, or with --trace the trace
    /// vocabulary (event kinds, fields, wait reasons) as JSON, or with
    /// --catalog every scheduler (family, stream kinds, roles, parameters,
    /// faults, views) as JSON, or with --contract the JSON Schema of what
    /// the engine hands the web app (report, live snapshot, bench report,
    /// families, parameter objects).
    Schema {
        #[arg(long, conflicts_with_all = ["catalog", "contract"])]
        trace: bool,
        #[arg(long, conflicts_with = "contract")]
        catalog: bool,
        #[arg(long)]
        contract: bool,
    },
}

/// `--virtual-cores`: 1..=64 (the native limit of workers).
fn virtual_cores_arg() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=psmr_core::threads::MAX_WORKERS as i64)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Run {
            file,
            schedulers,
            threads,
            requests,
            seed,
            pace_ns,
            delivery,
            no_trace,
            virtual_cores,
            cost_table,
            schedule,
            fault,
            json,
            digest,
            commits,
            order,
            trace_dir,
        } => {
            let opts = RunOptions {
                schedulers,
                threads,
                requests,
                seed,
                // The execution orders and the digests are read from the trace.
                trace: if no_trace {
                    Some(false)
                } else if order.is_some() || digest || trace_dir.is_some() {
                    Some(true)
                } else {
                    None
                },
                pace_ns,
                delivery,
                thread_pace_ns: None,
                virtual_cores,
                costs: cost_table,
                schedule,
            };
            let files = RunFiles {
                commits: commits.as_deref(),
                order: order.as_deref(),
                fault: fault.as_deref(),
                trace_dir: trace_dir.as_deref(),
            };
            let output = if digest {
                Output::Digests
            } else if json {
                Output::Json
            } else {
                Output::Table
            };
            cmd_run(&file, &opts, output, &files)
        }
        Command::Explore(args) => explore::cmd_explore(&args),
        Command::Commits {
            file,
            requests,
            seed,
            out,
        } => cmd_commits(&file, requests, seed, out.as_deref()),
        Command::Validate { files } => cmd_validate(&files),
        Command::Check {
            files,
            shard,
            requests,
            junit,
            json,
            virtual_cores,
            cost_table,
        } => {
            let opts = RunOptions {
                requests,
                trace: Some(false),
                virtual_cores,
                costs: cost_table,
                ..RunOptions::default()
            };
            check::cmd_check(&files, shard, &opts, junit.as_deref(), json.as_deref())
        }
        Command::Bench {
            file,
            threads,
            writes,
            schedulers,
            requests,
            virtual_cores,
            cost_table,
            json,
            csv,
        } => {
            let opts = psmr_scenario::BenchOptions {
                threads,
                writes,
                schedulers,
                requests,
                virtual_cores,
                costs: cost_table,
            };
            let format = match (json, csv) {
                (true, _) => Format::Json,
                (_, true) => Format::Csv,
                _ => Format::Table,
            };
            cmd_bench(&file, &opts, format)
        }
        Command::Calibrate { json, ms_per_kind } => costs::cmd_calibrate(json, ms_per_kind),
        Command::Map { file, json } => map::cmd_map(&file, json),
        Command::Schema {
            trace,
            catalog,
            contract,
        } => {
            if catalog {
                print!("{}", psmr_schedulers::catalog::catalog_json());
            } else if trace {
                print!("{}", psmr_core::trace::vocabulary_json());
            } else if contract {
                print!("{}", psmr_scenario::contract::contract_schema());
            } else {
                print!("{}", Scenario::json_schema());
            }
            ExitCode::SUCCESS
        }
    }
}

fn cmd_validate(files: &[PathBuf]) -> ExitCode {
    let mut ok = true;
    for f in files {
        if let Err(d) = load(f) {
            print_diagnostics(&d);
            ok = false;
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_BAD_INPUT)
    }
}

/// Files `psmr run` reads or writes beside the scenario.
struct RunFiles<'p> {
    commits: Option<&'p std::path::Path>,
    order: Option<&'p std::path::Path>,
    /// `--fault`: a fault-injection variant for the one `--scheduler`.
    fault: Option<&'p str>,
    /// `--trace-dir`: where each run's packed trace goes.
    trace_dir: Option<&'p std::path::Path>,
}

fn bad_input(d: &[Diagnostic]) -> ExitCode {
    print_diagnostics(d);
    ExitCode::from(EXIT_BAD_INPUT)
}

/// `sc` with the commit stream of `path`, its syntax and shape checked
/// (errors located in that file); its conflicts are checked once the
/// scenario is ([`ReadCommits::check_conflicts`]).
fn replay_commits(
    sc: &Scenario,
    path: &std::path::Path,
    opts: &RunOptions,
) -> Result<(Scenario, ReadCommits), ExitCode> {
    let (text, name) = shared::read(path).map_err(|d| bad_input(&d))?;
    let requests = opts.requests.unwrap_or(sc.workload.requests);
    let read = psmr_scenario::commits::read_commit_file(&text, &name, requests)
        .map_err(|d| bad_input(&d))?;
    let sc = psmr_scenario::commits::with_commits(sc, read.instances.clone());
    Ok((sc, read))
}

/// Run a scenario once; `Err` carries the exit code of bad input. The
/// file, with the replayed commits and the fault in it, is validated once
/// with the overrides applied ([`plan_run`]); the commit file's conflicts
/// are then checked against the stream that runs.
fn run_once(
    file: &std::path::Path,
    opts: &RunOptions,
    files: &RunFiles<'_>,
) -> Result<(Scenario, Report), ExitCode> {
    let mut sc = shared::read_scenario(file).map_err(|d| bad_input(&d))?;
    let mut commits = None;
    if let Some(path) = files.commits {
        let (with, read) = replay_commits(&sc, path, opts)?;
        sc = with;
        commits = Some(read);
    }
    if let Some(fault) = files.fault {
        let [name] = opts.schedulers.as_slice() else {
            eprintln!("psmr: --fault needs exactly one --scheduler");
            return Err(ExitCode::from(EXIT_BAD_INPUT));
        };
        sc = psmr_scenario::explore::select_fault(&sc, name, fault).map_err(|d| bad_input(&d))?;
    }
    let plan = plan_run(&sc, opts, &Limits::native()).map_err(|d| bad_input(&d))?;
    if let Some(read) = &commits {
        read.check_conflicts(plan.scenario())
            .map_err(|d| bad_input(&d))?;
    }
    let host = host_for(plan.threads())?;
    let monitor = Arc::new(RunMonitor::new());
    cancel_on_ctrl_c(&monitor);
    let report = run_plan(&plan, &host, &monitor).map_err(|d| bad_input(&d))?;
    Ok((sc, report))
}

/// Ctrl-C during a run takes the engine's cancel path: the first press
/// stops delivery (the current scheduler's delivered prefix is still judged
/// by the oracle, later schedulers do not run, and the report of what ran
/// is printed); a second press exits at once with code 130.
fn cancel_on_ctrl_c(monitor: &Arc<RunMonitor>) {
    let monitor = Arc::clone(monitor);
    let presses = AtomicUsize::new(0);
    // A handler may already be set (a second run in this process): the
    // first one, cancelling its own monitor, is then kept.
    let _ = ctrlc::set_handler(move || {
        // Relaxed: the count only tells the first press from the next ones.
        if presses.fetch_add(1, Ordering::Relaxed) == 0 {
            eprintln!(
                "psmr: Ctrl-C: stopping delivery; what was delivered is judged \
                 (Ctrl-C again to quit at once)"
            );
            monitor.cancel();
        } else {
            std::process::exit(EXIT_INTERRUPTED.into());
        }
    });
}

/// Write `value` as pretty JSON to `path`.
fn write_json<T: serde::Serialize>(path: &std::path::Path, value: &T) -> Result<(), ExitCode> {
    let s = serde_json::to_string_pretty(value).map_err(|e| {
        eprintln!("psmr: cannot encode {}: {e}", path.display());
        ExitCode::from(EXIT_BAD_INPUT)
    })?;
    std::fs::write(path, s + "\n").map_err(|e| {
        eprintln!("psmr: cannot write {}: {e}", path.display());
        ExitCode::from(EXIT_BAD_INPUT)
    })
}

fn cmd_commits(
    file: &std::path::Path,
    requests: Option<u32>,
    seed: Option<u64>,
    out: Option<&std::path::Path>,
) -> ExitCode {
    let sc = match load(file) {
        Ok(sc) => sc,
        Err(d) => return bad_input(&d),
    };
    let opts = RunOptions {
        requests,
        seed,
        ..RunOptions::default()
    };
    let eff = psmr_scenario::runner::effective(&sc, &opts);
    let errors = psmr_scenario::validate(&eff, &Limits::native());
    if !errors.is_empty() {
        return bad_input(&errors);
    }
    let export = match psmr_scenario::commits::export_commits(&eff) {
        Ok(e) => e,
        Err(d) => return bad_input(&d),
    };
    let h = &export.scc;
    eprintln!(
        "{} instances, {} SCCs (size x count: {}), largest {}",
        h.instances,
        h.sccs,
        table::scc_sizes(h),
        h.largest
    );
    match out {
        Some(path) => match write_json(path, &export) {
            Ok(()) => ExitCode::SUCCESS,
            Err(code) => code,
        },
        None => match serde_json::to_string_pretty(&export) {
            Ok(s) => {
                println!("{s}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("psmr: cannot encode the stream: {e}");
                ExitCode::from(EXIT_BAD_INPUT)
            }
        },
    }
}

/// Print `report` as pretty JSON, or as the table `table` draws.
fn print_report<R: serde::Serialize>(
    report: &R,
    json: bool,
    table: fn(&R) -> String,
) -> Result<(), ExitCode> {
    if !json {
        return shared::emit(&table(report));
    }
    let s = serde_json::to_string_pretty(report).map_err(|e| {
        eprintln!("psmr: cannot encode the report: {e}");
        ExitCode::from(EXIT_BAD_INPUT)
    })?;
    shared::emit(&(s + "\n"))
}

/// What `psmr run` prints.
#[derive(Clone, Copy, PartialEq)]
enum Output {
    Table,
    Json,
    Digests,
}

/// `DIR/run-<i>.trace`: run `i`'s trace packed as the web app reads it
/// ([`psmr_core::codec::encode_bytes`]), for checks that replay CLI runs
/// with the web's own code (scripts/check-lesson-bookmarks.mjs).
fn write_traces(dir: &std::path::Path, report: &Report) -> Result<(), ExitCode> {
    let fail = |e: std::io::Error| {
        eprintln!("psmr: cannot write traces to {}: {e}", dir.display());
        ExitCode::from(EXIT_BAD_INPUT)
    };
    std::fs::create_dir_all(dir).map_err(fail)?;
    for (i, r) in report.runs.iter().enumerate() {
        let bytes = psmr_core::codec::encode_bytes(&r.trace);
        std::fs::write(dir.join(format!("run-{i}.trace")), bytes).map_err(fail)?;
    }
    Ok(())
}

/// `LABEL DIGEST` per run: [`psmr_core::codec::digest`] of its trace.
fn digests(report: &Report) -> String {
    report
        .runs
        .iter()
        .map(|r| format!("{} {:016x}\n", r.label, psmr_core::codec::digest(&r.trace)))
        .collect()
}

fn cmd_run(
    file: &std::path::Path,
    opts: &RunOptions,
    output: Output,
    files: &RunFiles<'_>,
) -> ExitCode {
    let (sc, report) = match run_once(file, opts, files) {
        Ok(r) => r,
        Err(code) => return code,
    };
    if let Some(path) = files.order {
        // A replay token's seed is the stream's.
        let scheduled = match psmr_scenario::options::with_schedule(&sc, opts) {
            Ok((o, _)) => o,
            Err(d) => return bad_input(&d),
        };
        let eff = psmr_scenario::runner::effective(&sc, &scheduled);
        let orders = match psmr_scenario::commits::execution_orders(&eff, &report) {
            Ok(o) => o,
            Err(d) => return bad_input(&d),
        };
        if let Err(code) = write_json(path, &orders) {
            return code;
        }
    }
    if let Some(dir) = files.trace_dir {
        if let Err(code) = write_traces(dir, &report) {
            return code;
        }
    }
    // A schedule (the flag's or the file's `run.schedule`) makes a virtual
    // run; its trace digest is what `psmr explore` printed.
    if opts.schedule.is_some() || sc.run.schedule.is_some() {
        for r in &report.runs {
            eprintln!("{}: trace digest {}", r.label, explore::run_digest(r));
        }
    }
    let table = if output == Output::Digests {
        digests
    } else {
        table::runs
    };
    if let Err(code) = print_report(&report, output == Output::Json, table) {
        return code;
    }
    let mut violated = false;
    for r in &report.runs {
        if let Some(v) = &r.violation {
            eprintln!("VIOLATION {}: {v}", r.label);
            violated = true;
        }
    }
    let cancelled =
        report.runs.iter().any(|r| r.cancelled) || report.runs.len() < selected_count(&sc, opts);
    if cancelled {
        eprintln!(
            "psmr: cancelled: {} of {} runs ran (a cancelled run is judged on what it delivered)",
            report.runs.len(),
            selected_count(&sc, opts)
        );
    }
    if violated {
        ExitCode::from(EXIT_FAILED)
    } else if cancelled {
        ExitCode::from(EXIT_INTERRUPTED)
    } else {
        ExitCode::SUCCESS
    }
}

/// How many runs `psmr run` was asked for (the scenario's schedulers, or
/// the `--scheduler` selection).
fn selected_count(sc: &Scenario, opts: &RunOptions) -> usize {
    psmr_scenario::runner::select(sc, opts).map_or(0, |s| s.len())
}

/// How `psmr bench` prints its report.
#[derive(Clone, Copy)]
enum Format {
    Table,
    Json,
    Csv,
}

/// Run a sweep. The scenario is read without validating: `plan_bench`
/// judges each point's run once, with its overrides applied.
fn cmd_bench(
    file: &std::path::Path,
    opts: &psmr_scenario::BenchOptions,
    format: Format,
) -> ExitCode {
    let sc = match shared::read_scenario(file) {
        Ok(sc) => sc,
        Err(d) => {
            print_diagnostics(&d);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    // Virtual points get pools of their own (see `run_scenario`).
    let virtual_sweep = opts.virtual_cores.or(sc.run.virtual_cores).is_some();
    let most = match virtual_sweep {
        true => 1,
        false => opts.threads.iter().copied().max().unwrap_or(sc.threads),
    };
    let host = match host_for(most) {
        Ok(h) => h,
        Err(code) => return code,
    };
    let cores = psmr_scenario::runner::available_cores();
    let report = match psmr_scenario::bench(
        &sc,
        opts,
        &Limits::native(),
        &host,
        cores,
        &RunMonitor::new(),
    ) {
        Ok(r) => r,
        Err(d) => {
            print_diagnostics(&d);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let printed = match format {
        Format::Table => print_report(&report, false, table::bench),
        Format::Json => print_report(&report, true, table::bench),
        Format::Csv => print_report(&report, false, table::bench_csv),
    };
    if let Err(code) = printed {
        return code;
    }
    let mut violated = false;
    for p in report.points.iter().filter(|p| !p.correct) {
        eprintln!(
            "VIOLATION {} (threads {}, writes {}): {}",
            p.label,
            p.threads,
            p.writes,
            p.violation.as_deref().unwrap_or("incorrect")
        );
        violated = true;
    }
    if violated {
        ExitCode::from(EXIT_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}
