//! What one invocation asks of a scenario: its overrides ([`RunOptions`]),
//! the scenario with them applied ([`effective`]) and the scheduler
//! entries it runs ([`select`]).

use std::str::FromStr;

use psmr_core::exec::Delivery;
use psmr_core::virt::{ReplayToken, Schedule};
use psmr_core::{Needs, SchedulerId};
use psmr_schedulers::{needs, SchedulerSpec};
use serde::{Deserialize, Serialize};

use crate::diag::Diagnostic;
use crate::locate::element;
use crate::scenario::{EntryMatch, Scenario};

/// Overrides of a scenario's settings for one invocation (CLI flags, the
/// lab's controls). `None` keeps the scenario's value.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunOptions {
    /// Scheduler labels or ids to run, in this order; empty = all of the
    /// scenario. An id the scenario does not list runs with its defaults;
    /// an id several labelled entries share is refused (name one by its
    /// label, `Scenario::match_scheduler`).
    #[serde(default)]
    pub schedulers: Vec<String>,
    pub threads: Option<usize>,
    pub requests: Option<u32>,
    pub seed: Option<u64>,
    pub trace: Option<bool>,
    pub pace_ns: Option<u64>,
    /// Another delivery model than the scenario's.
    #[serde(default)]
    pub delivery: Option<Delivery>,
    /// Pace per worker thread (index = worker id), replacing `pace_ns` for
    /// those threads: slow one thread down (a classroom what-if).
    #[serde(default)]
    pub thread_pace_ns: Option<Vec<u64>>,
    /// Run on a modelled machine of this many virtual cores under a
    /// conductor, in virtual time, with as many workers unless `threads`
    /// says otherwise; the roles and the driver share the cores (issue 25,
    /// docs/protocols/virtual-cores.md); overrides the scenario's
    /// `run.virtual_cores`. The report says so ([`crate::report::RunMode`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub virtual_cores: Option<u32>,
    /// The cost table of a virtual run and where it came from (default:
    /// the committed reference table, so runs are the same everywhere).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub costs: Option<psmr_core::virt::Costs>,
    /// Replay this schedule (a token of `psmr explore`): its seed and
    /// virtual cores replace `seed` and `virtual_cores`, and the conductor
    /// chooses by its schedule. `None`: the scenario's `run.schedule`, if
    /// any (docs/protocols/virtual-cores.md, "Exploring schedules").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<String>,
}

/// `opts` with the replay token it names (or `sc`'s `run.schedule`)
/// applied: the token's seed and cores, and its schedule. An invalid token
/// is a diagnostic at `run.schedule` (validation has already checked a
/// file's token, so only a caller's can be invalid here).
pub fn with_schedule(
    sc: &Scenario,
    opts: &RunOptions,
) -> Result<(RunOptions, Schedule), Vec<Diagnostic>> {
    let Some(text) = opts.schedule.as_deref().or(sc.run.schedule.as_deref()) else {
        return Ok((opts.clone(), Schedule::EARLIEST));
    };
    let token: ReplayToken = text
        .parse()
        .map_err(|e: String| vec![sc.diagnostic("run.schedule", e)])?;
    let opts = RunOptions {
        seed: Some(token.seed),
        virtual_cores: Some(token.cores),
        ..opts.clone()
    };
    Ok((opts, token.schedule))
}

/// One scheduler entry selected to run; `index` is its place in the file
/// (`None` for an id given only on the command line).
#[derive(Clone, Debug)]
pub struct Selected {
    pub index: Option<usize>,
    pub spec: SchedulerSpec,
    /// What its scheduler needs (asked once, when it is selected).
    pub needs: &'static Needs,
}

impl Selected {
    /// Field path of the entry, for diagnostics.
    pub fn path(&self) -> String {
        match self.index {
            Some(i) => element("schedulers", i),
            None => "schedulers".into(),
        }
    }
}

/// The schedulers `opts` selects, in run order.
pub fn select(sc: &Scenario, opts: &RunOptions) -> Result<Vec<Selected>, Vec<Diagnostic>> {
    select_with(sc, opts, &entry_needs(sc))
}

/// What the scheduler of each of `sc`'s entries needs, in file order.
pub fn entry_needs(sc: &Scenario) -> Vec<&'static Needs> {
    sc.schedulers.iter().map(|s| needs(s.id)).collect()
}

/// [`select`] with the entries' needs already asked (`entry_needs`); an id
/// named only by `opts` is asked here.
pub(crate) fn select_with(
    sc: &Scenario,
    opts: &RunOptions,
    entry_needs: &[&'static Needs],
) -> Result<Vec<Selected>, Vec<Diagnostic>> {
    if opts.schedulers.is_empty() {
        return Ok(sc
            .schedulers
            .iter()
            .enumerate()
            .map(|(i, s)| Selected {
                index: Some(i),
                spec: s.clone(),
                needs: entry_needs[i],
            })
            .collect());
    }
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for name in &opts.schedulers {
        match sc.match_scheduler(name) {
            EntryMatch::One(i) => {
                out.push(Selected {
                    index: Some(i),
                    spec: sc.schedulers[i].clone(),
                    needs: entry_needs[i],
                });
                continue;
            }
            EntryMatch::Several(entries) => {
                let m = sc.ambiguous_name(name, &entries);
                errors.push(sc.diagnostic("schedulers", format!("--scheduler: {m}")));
                continue;
            }
            EntryMatch::None => {}
        }
        match SchedulerId::from_str(name) {
            Ok(id) => out.push(Selected {
                index: None,
                spec: SchedulerSpec::new(id),
                needs: needs(id),
            }),
            Err(m) => errors.push(sc.diagnostic("schedulers", format!("--scheduler: {m}"))),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The scenario with `opts`' overrides applied (threads, requests, seed,
/// trace, pace, delivery, virtual cores), keeping the source for locating
/// errors. A virtual run's worker count is `opts.threads`, else its
/// `run.virtual_cores` (see `runner::run_scenario`).
pub fn effective(sc: &Scenario, opts: &RunOptions) -> Scenario {
    let mut e = sc.clone();
    if let Some(t) = opts.threads {
        e.threads = t;
    }
    if let Some(r) = opts.requests {
        e.workload.requests = r;
    }
    if let Some(s) = opts.seed {
        e.workload.seed = s;
    }
    if let Some(t) = opts.trace {
        e.run.trace = Some(t);
    }
    if let Some(p) = opts.pace_ns {
        e.run.pace_ns = Some(p);
    }
    if let Some(d) = opts.delivery {
        e.delivery = Some(d);
    }
    if let Some(v) = opts.virtual_cores {
        e.run.virtual_cores = Some(v);
    }
    e
}
