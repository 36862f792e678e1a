//! Exploring schedules (issue 25): run one scheduler of a scenario on
//! virtual cores under schedule after schedule (the earliest-clock one
//! first, then seeded perturbations, psmr-core `virt::schedule`) until the
//! oracle reports a violation. The one loop behind `psmr explore` and the
//! browser's break-it mode (psmr-wasm); the caller hears of every schedule
//! tried and may stop the exploration there
//! (docs/protocols/virtual-cores.md, "Exploring schedules").

use std::ops::ControlFlow;

use psmr_core::exec::Delivery;
use psmr_core::threads::ThreadHost;
use psmr_core::virt::{ReplayToken, Schedule};
use serde::{Deserialize, Serialize};

use crate::diag::Diagnostic;
use crate::parse::{threads_error, Limits};
use crate::runner::{plan_run, run_plan, RunMonitor, RunOptions, RunPlan, RunReport};
use crate::scenario::{EntryMatch, Scenario};

/// What to explore: one scheduler entry and the budget of schedules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExploreOptions {
    /// Scheduler label or id to explore.
    pub scheduler: String,
    /// Select this fault-injection variant on that scheduler first
    /// ([`select_fault`]).
    #[serde(default)]
    pub fault: Option<String>,
    /// Most schedules to try (schedule 0 is the earliest-clock one).
    #[serde(default = "default_budget")]
    pub schedules: u32,
    /// Virtual cores (default: the scenario's threads).
    #[serde(default)]
    pub cores: Option<u32>,
    /// Seed of the stream (default: the scenario's).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Seed of the perturbed schedules (another exploration, same stream).
    #[serde(default)]
    pub explore_seed: u64,
    /// Delays (change points) per perturbed schedule (default: 1, 4, 16,
    /// ... in turn, up to a quarter of the run's points).
    #[serde(default)]
    pub depth: Option<u32>,
    /// Requests in the stream (default: the scenario's).
    #[serde(default)]
    pub requests: Option<u32>,
    /// Delivery model (default: the scenario's).
    #[serde(default)]
    pub delivery: Option<Delivery>,
}

fn default_budget() -> u32 {
    200
}

impl ExploreOptions {
    /// Explore `scheduler` with the default budget and nothing overridden.
    pub fn new(scheduler: &str) -> Self {
        ExploreOptions {
            scheduler: scheduler.to_string(),
            fault: None,
            schedules: default_budget(),
            cores: None,
            seed: None,
            explore_seed: 0,
            depth: None,
            requests: None,
            delivery: None,
        }
    }
}

/// The violating schedule an exploration found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Found {
    /// Index of the violating schedule (0 = earliest clock).
    pub schedule: u32,
    /// Its replay token (`psmr run --schedule`, the browser's replay).
    pub token: String,
    pub violation: String,
    pub detail: Option<psmr_core::oracle::Violation>,
    pub trace_digest: String,
}

/// What an exploration did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Explored {
    /// Virtual cores of every schedule.
    pub cores: u32,
    /// Seed of the stream.
    pub seed: u64,
    /// Schedules run (the violating one included).
    pub schedules: u32,
    /// Synchronization points of the earliest-clock run (the horizon of
    /// the perturbed ones).
    pub horizon: u64,
    /// Stopped before the budget by the caller (or a cancelled monitor)
    /// without a find.
    pub stopped: bool,
    /// `None` when no schedule violated correctness.
    pub found: Option<Found>,
}

/// `sc` with `fault` selected on the entry `name` (label or id; an id the
/// file does not list is added), not validated: the caller validates the
/// result once with its run's overrides (`runner::plan_run`), which
/// refuses a fault the scheduler does not declare; only a name that is no
/// entry nor id, or a build without fault injection, is refused here.
pub fn select_fault(sc: &Scenario, name: &str, fault: &str) -> Result<Scenario, Vec<Diagnostic>> {
    let mut sc = sc.clone();
    let i = match sc.match_scheduler(name) {
        EntryMatch::One(i) => i,
        EntryMatch::Several(entries) => {
            let m = sc.ambiguous_name(name, &entries);
            return Err(vec![
                sc.diagnostic("schedulers", format!("--scheduler: {m}"))
            ]);
        }
        EntryMatch::None => {
            let id = name.parse().map_err(|e: String| {
                vec![sc.diagnostic("schedulers", format!("--scheduler: {e}"))]
            })?;
            sc.schedulers.push(psmr_schedulers::SchedulerSpec::new(id));
            sc.schedulers.len() - 1
        }
    };
    set_fault(&mut sc.schedulers[i], fault).map_err(|e| vec![sc.diagnostic("schedulers", e)])?;
    Ok(sc)
}

#[cfg(feature = "fault-injection")]
fn set_fault(spec: &mut psmr_schedulers::SchedulerSpec, fault: &str) -> Result<(), String> {
    spec.fault = Some(fault.to_string());
    Ok(())
}

#[cfg(not(feature = "fault-injection"))]
fn set_fault(_: &mut psmr_schedulers::SchedulerSpec, fault: &str) -> Result<(), String> {
    Err(format!(
        "--fault {fault}: this psmr was built without the `fault-injection` feature"
    ))
}

/// The run's trace digest (`psmr_core::codec::digest`, the one `psmr run
/// --digest` and the browser print): every event in order with its virtual
/// time, so two runs of one token give the same digest.
pub fn run_digest(run: &RunReport) -> String {
    format!("{:016x}", psmr_core::codec::digest(&run.trace))
}

/// The depth (change points) of perturbed schedule `i` when none is
/// asked: 1, 4, 16, 64, ... in turn, up to a quarter of the `horizon`'s
/// points. A bug needing one preemption at one place is found soonest with
/// few delays (PCT's depth 1-3); one needing a thread to fall behind again
/// and again (a dependency chain overtaken step by step) needs many.
fn depth_of(i: u32, horizon: u64) -> u32 {
    4u32.pow(i.saturating_sub(1) % depth_levels(horizon))
}

/// Whether perturbed schedule `i` puts every delay on one thread: every
/// other round of the depth cycle ([`depth_of`]), so each depth is tried
/// both ways. Delays spread over whichever threads reach the change points
/// find a race that needs one thread preempted at one place; a race that
/// needs one thread to fall behind step after step (a chain overtaken link
/// by link, a queue drained while one worker lags) wants them on one
/// thread, where spread delays rarely line up.
fn on_one_thread(i: u32, horizon: u64) -> bool {
    let levels = depth_levels(horizon);
    (i.saturating_sub(1) / levels) % 2 == 1
}

/// How many depths the cycle of [`depth_of`] has: 1, 4, 16, ... up to a
/// quarter of the horizon.
fn depth_levels(horizon: u64) -> u32 {
    let cap = (horizon / 4).max(1);
    ((0..16u32)
        .take_while(|k| 4u64.checked_pow(*k).is_some_and(|d| d <= cap))
        .count() as u32)
        .max(1)
}

/// The seed of perturbed schedule `i` of exploration seed `e`: readable
/// in a token, and the perturbation hashes it (psmr-core `SplitMix64`), so
/// neighbouring seeds give unrelated delays.
fn schedule_seed(e: u64, i: u32) -> u64 {
    e.wrapping_mul(1_000_000).wrapping_add(u64::from(i))
}

/// A checked exploration: the one run every schedule repeats (its fault
/// selected, judged once with the exploration's overrides by
/// [`plan_run`]), and what varies the schedules.
pub struct ExplorePlan {
    run: RunPlan,
    cores: u32,
    seed: u64,
    budget: u32,
    depth: Option<u32>,
    explore_seed: u64,
}

impl ExplorePlan {
    /// Virtual cores of every schedule (a host holds the exploration with
    /// this many threads beside the scheduler's auxiliary roles).
    pub fn cores(&self) -> u32 {
        self.cores
    }
}

/// Check an exploration of `o.scheduler` of `sc` (its fault selected when
/// `o.fault` is set; a schedule in the file is ignored: exploring starts
/// from the earliest clock) in one pass, before any schedule runs.
pub fn plan_explore(
    sc: &Scenario,
    o: &ExploreOptions,
    limits: &Limits,
) -> Result<ExplorePlan, Vec<Diagnostic>> {
    // The fault is judged with the rest, in the plan's one pass.
    let mut sc = match &o.fault {
        Some(f) => select_fault(sc, &o.scheduler, f)?,
        None => sc.clone(),
    };
    sc.run.schedule = None;
    // No cores given: the file's worker count is the cores, and a count out
    // of range is the file's error, worded as validation words it.
    if o.cores.is_none() {
        if let Some(d) = threads_error(&sc, limits, false) {
            return Err(vec![d]);
        }
    }
    let cores = o.cores.unwrap_or(sc.threads.try_into().unwrap_or(u32::MAX));
    let seed = o.seed.unwrap_or(sc.workload.seed);
    // Every schedule runs the same checked plan: only the conductor's
    // schedule changes (the token's seed and cores do not).
    let earliest = ReplayToken {
        seed,
        cores,
        schedule: Schedule::EARLIEST,
    };
    let opts = RunOptions {
        schedulers: vec![o.scheduler.clone()],
        requests: o.requests,
        delivery: o.delivery,
        schedule: Some(earliest.to_string()),
        ..RunOptions::default()
    };
    Ok(ExplorePlan {
        run: plan_run(&sc, &opts, limits)?,
        cores,
        seed,
        budget: o.schedules.max(1),
        depth: o.depth,
        explore_seed: o.explore_seed,
    })
}

/// Run a checked exploration, schedule after schedule. After each schedule
/// that found nothing, `after(tried, budget)` may stop the exploration
/// (`Break`); a cancelled `monitor` stops it too (the schedule under way
/// ends early and its checked prefix counts as found nothing). Invariant:
/// `found` is the first violating schedule, and its token replays it
/// exactly (same trace digest).
pub fn run_explore(
    plan: ExplorePlan,
    host: &ThreadHost,
    monitor: &RunMonitor,
    mut after: impl FnMut(u32, u32) -> ControlFlow<()>,
) -> Result<Explored, Vec<Diagnostic>> {
    let (cores, seed, budget) = (plan.cores, plan.seed, plan.budget);
    let mut out = Explored {
        cores,
        seed,
        schedules: 0,
        horizon: 0,
        stopped: false,
        found: None,
    };
    let mut run = plan.run;
    for i in 0..budget {
        let schedule = if i == 0 {
            Schedule::EARLIEST
        } else {
            let depth = plan.depth.unwrap_or_else(|| depth_of(i, out.horizon));
            let s = Schedule::pct(schedule_seed(plan.explore_seed, i), depth, out.horizon);
            if on_one_thread(i, out.horizon) {
                s.on_one_thread()
            } else {
                s
            }
        };
        let token = ReplayToken {
            seed,
            cores,
            schedule,
        };
        run.set_schedule(schedule);
        let report = run_plan(&run, host, monitor)?;
        out.schedules = i + 1;
        if i == 0 {
            out.horizon = host.last_virtual_stats().map_or(1, |s| s.points.max(1));
        }
        let Some(run) = report.runs.first() else {
            out.stopped = monitor.is_cancelled();
            break;
        };
        if let Some(v) = &run.violation {
            out.found = Some(Found {
                schedule: i,
                token: token.to_string(),
                violation: v.clone(),
                detail: run.violation_detail.clone(),
                trace_digest: run_digest(run),
            });
            break;
        }
        let stop = after(out.schedules, budget).is_break() || monitor.is_cancelled();
        if stop && out.schedules < budget {
            out.stopped = true;
            break;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depths_cycle_through_powers_of_four_up_to_a_quarter_of_the_horizon() {
        let got: Vec<u32> = (1..=6).map(|i| depth_of(i, 260)).collect();
        assert_eq!(got, [1, 4, 16, 64, 1, 4]);
        assert_eq!(depth_of(3, 1), 1, "a tiny horizon keeps depth 1");
    }

    #[test]
    fn every_other_round_of_depths_puts_the_delays_on_one_thread() {
        let got: Vec<bool> = (1..=9).map(|i| on_one_thread(i, 260)).collect();
        assert_eq!(
            got,
            [false, false, false, false, true, true, true, true, false]
        );
        let tiny: Vec<bool> = (1..=4).map(|i| on_one_thread(i, 1)).collect();
        assert_eq!(tiny, [false, true, false, true]);
    }

    #[test]
    fn options_json_has_defaults_and_refuses_unknown_fields() {
        let o: ExploreOptions = serde_json::from_str(r#"{"scheduler": "early"}"#).unwrap();
        assert_eq!(o, ExploreOptions::new("early"));
        assert!(serde_json::from_str::<ExploreOptions>(r#"{"scheduler": "e", "x": 1}"#).is_err());
    }
}
