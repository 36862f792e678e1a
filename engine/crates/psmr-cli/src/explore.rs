//! `psmr explore`: run one scheduler of a scenario on virtual cores under
//! schedule after schedule until the oracle reports a violation (the loop
//! is `psmr_scenario::explore`, shared with the browser's break-it mode);
//! print it with a replay token, and optionally save a scenario that pins
//! it (docs/protocols/virtual-cores.md, "Exploring schedules").

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use std::ops::ControlFlow;

use psmr_core::threads::{ThreadHost, MAX_ROLES};
use psmr_core::virt::ReplayToken;
use psmr_scenario::explore::{plan_explore, run_explore, select_fault, ExploreOptions, Found};
use psmr_scenario::{Diagnostic, Limits, RunMonitor, Scenario};
use serde::Serialize;

pub use psmr_scenario::explore::run_digest;

use crate::shared::{print_diagnostics, read_scenario, EXIT_BAD_INPUT, EXIT_FAILED};

/// What `psmr explore` was asked.
#[derive(clap::Args, Debug)]
pub struct ExploreArgs {
    pub file: PathBuf,
    /// Scheduler label or id to explore.
    #[arg(long = "scheduler", value_name = "ID")]
    pub scheduler: String,
    /// Select this fault-injection variant on that scheduler.
    #[arg(long, value_name = "NAME")]
    pub fault: Option<String>,
    /// Most schedules to try (schedule 0 is the earliest-clock one).
    #[arg(long, default_value_t = 200)]
    pub schedules: u32,
    /// Virtual cores (default: the scenario's threads).
    #[arg(long, value_name = "N")]
    pub cores: Option<u32>,
    /// Seed of the stream (overrides the file).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Seed of the perturbed schedules (another exploration, same stream).
    #[arg(long, value_name = "E", default_value_t = 0)]
    pub explore_seed: u64,
    /// Delays (change points) per perturbed schedule (default: 1, 4,
    /// 16, ... in turn, up to a quarter of the run's points).
    #[arg(long, value_name = "D")]
    pub depth: Option<u32>,
    /// Requests in the stream (overrides the file).
    #[arg(long)]
    pub requests: Option<u32>,
    /// Delivery model (overrides the file), as for `psmr run`.
    #[arg(long, value_parser = crate::shared::parse_delivery)]
    pub delivery: Option<psmr_core::exec::Delivery>,
    /// Print the outcome as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write a scenario that pins the violation found (its schedule in
    /// `run.schedule`, `"expect": {"correct": false}`).
    #[arg(long, value_name = "PATH")]
    pub save: Option<PathBuf>,
}

/// The outcome, as `--json` prints it.
#[derive(Serialize)]
struct Outcome {
    scenario: String,
    scheduler: String,
    fault: Option<String>,
    cores: u32,
    seed: u64,
    explore_seed: u64,
    /// The fixed depth asked for (`None`: each schedule's own, see the token).
    depth: Option<u32>,
    /// Schedules run (the violating one included).
    schedules: u32,
    /// Wall time of the whole exploration, in seconds.
    seconds: f64,
    /// Synchronization points of the earliest-clock run (the horizon of
    /// the perturbed ones).
    horizon: u64,
    /// `None` when no schedule violated correctness.
    found: Option<Found>,
}

pub fn cmd_explore(a: &ExploreArgs) -> ExitCode {
    match explore(a) {
        Ok(code) => code,
        Err(d) => {
            print_diagnostics(&d);
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

/// Read the file, plan the exploration (the scenario's one validation
/// pass, with the fault and overrides applied: `plan_explore`), size the
/// host by the plan's cores, and run it.
fn explore(a: &ExploreArgs) -> Result<ExitCode, Vec<Diagnostic>> {
    let sc = read_scenario(&a.file)?;
    let o = ExploreOptions {
        scheduler: a.scheduler.clone(),
        fault: a.fault.clone(),
        schedules: a.schedules,
        cores: a.cores,
        seed: a.seed,
        explore_seed: a.explore_seed,
        depth: a.depth,
        requests: a.requests,
        delivery: a.delivery,
    };
    let plan = plan_explore(&sc, &o, &Limits::native())?;
    let host = ThreadHost::with_capacity(plan.cores() as usize + MAX_ROLES)
        .map_err(|e| vec![sc.diagnostic("threads", e)])?;
    let start = Instant::now();
    let done = run_explore(plan, &host, &RunMonitor::new(), |_, _| {
        ControlFlow::Continue(())
    })?;
    let out = Outcome {
        scenario: sc.name.clone(),
        scheduler: a.scheduler.clone(),
        fault: a.fault.clone(),
        cores: done.cores,
        seed: done.seed,
        explore_seed: a.explore_seed,
        depth: a.depth,
        schedules: done.schedules,
        seconds: start.elapsed().as_secs_f64(),
        horizon: done.horizon,
        found: done.found,
    };
    if let (Some(path), Some(f)) = (&a.save, &out.found) {
        // The plan judged the scenario with this fault selected.
        let sc = match &a.fault {
            Some(fault) => select_fault(&sc, &a.scheduler, fault)?,
            None => sc,
        };
        save(&sc, a, f, path)?;
    }
    print_outcome(&out, a);
    Ok(if out.found.is_some() {
        ExitCode::from(EXIT_FAILED)
    } else {
        ExitCode::SUCCESS
    })
}

fn print_outcome(o: &Outcome, a: &ExploreArgs) {
    if a.json {
        println!("{}", serde_json::to_string_pretty(o).unwrap_or_default());
        return;
    }
    let fault = o
        .fault
        .as_deref()
        .map_or(String::new(), |f| format!(" (fault {f})"));
    println!(
        "explore {}: {}{fault} on {} virtual cores (model, reference cost table), stream seed {}, \
         exploration seed {}, depth {}",
        a.file.display(),
        o.scheduler,
        o.cores,
        o.seed,
        o.explore_seed,
        o.depth
            .map_or("1, 4, 16, ... in turn".to_string(), |d| d.to_string())
    );
    match &o.found {
        None => println!(
            "no violation in {} schedule(s) ({:.2} s; {} points in the earliest-clock run)",
            o.schedules, o.seconds, o.horizon
        ),
        Some(f) => {
            println!(
                "VIOLATION on schedule {} of {} tried ({:.2} s): {}",
                f.schedule, o.schedules, o.seconds, f.violation
            );
            if let Some(d) = &f.detail {
                println!("  {}", pair_and_cell(d));
            }
            println!("  token: {}", f.token);
            println!("  trace digest: {}", f.trace_digest);
            println!(
                "  replay: psmr run {} --scheduler {}{} --schedule {}",
                a.file.display(),
                o.scheduler,
                replay_flags(a),
                f.token
            );
            if let Some(p) = &a.save {
                println!(
                    "  saved: {} (psmr check passes while the violation stays)",
                    p.display()
                );
            }
        }
    }
}

/// The flags besides the token that `psmr run` needs to replay `a`'s
/// exploration (the token fixes seed and cores, not these).
fn replay_flags(a: &ExploreArgs) -> String {
    use psmr_core::exec::Delivery;
    let mut out = String::new();
    if let Some(f) = &a.fault {
        out.push_str(&format!(" --fault {f}"));
    }
    if let Some(r) = a.requests {
        out.push_str(&format!(" --requests {r}"));
    }
    match a.delivery {
        None => {}
        Some(Delivery::Saturate) => out.push_str(" --delivery saturate"),
        Some(Delivery::Closed { clients: None }) => out.push_str(" --delivery closed"),
        Some(Delivery::Closed { clients: Some(n) }) => {
            out.push_str(&format!(" --delivery closed:{n}"));
        }
        Some(Delivery::Rate { per_s }) => out.push_str(&format!(" --delivery rate:{per_s}")),
    }
    out
}

/// The offending pair and the cell they share, when the violation has them.
fn pair_and_cell(v: &psmr_core::oracle::Violation) -> String {
    use psmr_core::oracle::Violation as V;
    match v {
        V::Order {
            first,
            second,
            cell,
            ..
        }
        | V::ColorOrder {
            first,
            second,
            cell,
        } => format!("pair: #{first} then #{second}; cell: {}", cell.text),
        V::Missing { req }
        | V::Duplicate { req, .. }
        | V::Unexpected { req }
        | V::Admission { req, .. }
        | V::Response { req, .. } => format!("request: #{req}"),
        V::State { .. } => "the final state".to_string(),
    }
}

/// Write the counterexample as a scenario: the file with only the explored
/// scheduler (its fault selected), the token's seed and cores, the
/// requests explored, `run.schedule` = the token, and an expectation that
/// the oracle reports a violation.
fn save(sc: &Scenario, a: &ExploreArgs, f: &Found, path: &Path) -> Result<(), Vec<Diagnostic>> {
    let mut out = sc.clone();
    let i = out
        .find_scheduler(&a.scheduler)
        .map_or(Vec::new(), |i| vec![out.schedulers[i].clone()]);
    if !i.is_empty() {
        out.schedulers = i;
    }
    let token: ReplayToken = f
        .token
        .parse()
        .map_err(|e: String| vec![sc.diagnostic("", e)])?;
    out.workload.seed = token.seed;
    out.threads = token.cores as usize;
    if let Some(r) = a.requests {
        out.workload.requests = r;
    }
    if let Some(d) = a.delivery {
        out.delivery = Some(d);
    }
    out.run.schedule = Some(f.token.clone());
    out.run.repetitions = None;
    out.name = format!("{} (explored counterexample)", sc.name);
    out.description = format!(
        "{} Explored counterexample: schedule {} ({}) of psmr explore on virtual cores makes the \
         oracle report: {}",
        sc.description, f.schedule, f.token, f.violation
    );
    out.expect = Some(psmr_scenario::expect::Expectations {
        correct: false,
        ..Default::default()
    });
    let text = serde_json::to_string_pretty(&out).unwrap_or_default() + "\n";
    std::fs::write(path, text).map_err(|e| {
        vec![Diagnostic::new(
            &path.display().to_string(),
            (1, 1),
            "",
            format!("cannot write the file: {e}"),
        )]
    })
}
