//! Commit streams and execution orders as JSON files, so a graph can be
//! moved between the lab and another ePaxos implementation and the orders
//! compared:
//!
//! * [`export_commits`]: a scenario's commit stream (instances in commit
//!   order with commands, seq and dependencies; the shape of
//!   `workload.commits.instances`) and its SCC size distribution;
//! * [`parse_commit_file`]: read such a file back, every error located in
//!   it (`FILE:LINE:COL: instances[3].deps[1]: ...`), checked against the
//!   scenario's number of commands and its conflicts (every conflicting
//!   pair ordered by the dependencies); [`with_commits`] puts it in a
//!   scenario;
//! * [`execution_orders`]: the canonical order and each run's observed
//!   order (from its trace), as requests and, for commit streams, instances.

use psmr_core::commit_sim::{scc_histogram, CommitStreamJson, InstanceJson, SccHistogram};
use psmr_core::stream::Stream;
use psmr_core::trace::exec_order;
use psmr_core::workload::generate;
use psmr_core::workload_commits::{order, CommitsSpec};
use serde::{Deserialize, Serialize};

use crate::diag::Diagnostic;
use crate::locate::Locator;
use crate::parse::parse_located;
use crate::runner::{stream_of, weighted_classes, Report};
use crate::scenario::Scenario;

/// What `psmr commits` writes: the stream, and (for people) its SCC sizes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CommitExport {
    #[serde(flatten)]
    pub stream: CommitStreamJson,
    /// How many SCCs of each size the dependency graph has (ignored when
    /// the file is read back).
    pub scc: SccHistogram,
}

/// The commit stream of `sc`'s workload (which must have `commits`).
pub fn export_commits(sc: &Scenario) -> Result<CommitExport, Vec<Diagnostic>> {
    let Some(spec) = &sc.workload.commits else {
        return Err(vec![sc.diagnostic(
            "workload",
            "this workload makes a total order; add a `commits` object to make a commit stream"
                .into(),
        )]);
    };
    let classes = weighted_classes(&sc.app, &sc.workload);
    let total = generate(&sc.app, &classes, &sc.workload);
    let stream = order(&total, spec, sc.workload.seed).map_err(|e| {
        let path = if e.path.is_empty() {
            "workload.commits".to_string()
        } else {
            format!("workload.commits.{}", e.path)
        };
        vec![sc.diagnostic(&path, e.message)]
    })?;
    let scc = scc_histogram(&stream)
        .map_err(|e| vec![sc.diagnostic("workload.commits", e.to_string())])?;
    Ok(CommitExport {
        stream: stream.to_json_shape(),
        scc,
    })
}

/// The file `psmr commits` writes may carry its `scc` summary; reading
/// takes only the instances.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CommitFile {
    instances: Vec<InstanceJson>,
    #[serde(default)]
    #[allow(dead_code)]
    scc: Option<serde_json::Value>,
}

/// Read a commit stream (`{"instances": [...]}`) from `text` (named `file`)
/// for `sc`'s workload made with `requests` commands. Syntax, type and
/// shape errors, and a conflicting pair of commands the dependencies leave
/// unordered ([`psmr_core::workload_commits::ordered_conflicts`]), are
/// located in that file. `sc` must be valid (its stream is generated):
/// [`read_commit_file`] and [`ReadCommits::check_conflicts`] are the two
/// halves for a caller that validates the scenario with the stream in it.
pub fn parse_commit_file(
    text: &str,
    file: &str,
    sc: &Scenario,
    requests: u32,
) -> Result<Vec<InstanceJson>, Vec<Diagnostic>> {
    let read = read_commit_file(text, file, requests)?;
    let mut workload = sc.workload.clone();
    workload.requests = requests;
    read.conflicts_in(&sc.app, workload)?;
    Ok(read.instances)
}

/// A commit stream read from its file, its syntax and shape checked; its
/// conflicts are checked against a scenario later
/// ([`ReadCommits::check_conflicts`]). Keeps the file's locations.
#[derive(Clone, Debug)]
pub struct ReadCommits {
    pub instances: Vec<InstanceJson>,
    file: String,
    locator: Locator,
}

/// The first half of [`parse_commit_file`]: syntax, type and shape errors
/// of the commit stream in `text` (named `file`) of `requests` commands,
/// located in that file; needs no scenario.
pub fn read_commit_file(
    text: &str,
    file: &str,
    requests: u32,
) -> Result<ReadCommits, Vec<Diagnostic>> {
    let (parsed, locator) = parse_located::<CommitFile>(text, file).map_err(|d| vec![d])?;
    let spec = CommitsSpec {
        instances: Some(parsed.instances),
        ..CommitsSpec::default()
    };
    let read = |instances| ReadCommits {
        instances,
        file: file.to_string(),
        locator,
    };
    match spec.check(requests) {
        Ok(()) => Ok(read(spec.instances.unwrap_or_default())),
        Err(e) => Err(vec![read(Vec::new()).located(e)]),
    }
}

impl ReadCommits {
    /// The second half of [`parse_commit_file`]: every pair of conflicting
    /// commands of the total stream `sc` (valid, with these instances as its
    /// commits: [`with_commits`]) makes is ordered by the dependencies;
    /// an unordered pair is located in the commit file.
    pub fn check_conflicts(&self, sc: &Scenario) -> Result<(), Vec<Diagnostic>> {
        self.conflicts_in(&sc.app, sc.workload.clone())
    }

    /// [`ReadCommits::check_conflicts`] against the total stream `app`
    /// and `workload` (its `commits` dropped) make.
    fn conflicts_in(
        &self,
        app: &psmr_core::app::AppSpec,
        mut workload: psmr_core::workload::WorkloadSpec,
    ) -> Result<(), Vec<Diagnostic>> {
        workload.commits = None;
        let classes = weighted_classes(app, &workload);
        let total = generate(app, &classes, &workload);
        psmr_core::workload_commits::check_replayed(&total, &self.instances)
            .map_err(|e| vec![self.located(e)])
    }

    fn located(&self, e: psmr_core::workload_commits::CommitsError) -> Diagnostic {
        Diagnostic::new(
            &self.file,
            self.locator.nearest(&e.path),
            &e.path,
            e.message,
        )
    }
}

/// `sc` with its commit stream replaced by `instances` (any simulation
/// parameters dropped).
pub fn with_commits(sc: &Scenario, instances: Vec<InstanceJson>) -> Scenario {
    let mut out = sc.clone();
    out.workload.commits = Some(CommitsSpec {
        instances: Some(instances),
        ..CommitsSpec::default()
    });
    out
}

/// One execution order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Order {
    /// Requests (commands) in the order they started.
    pub requests: Vec<u32>,
    /// Commit streams: instances in the order their first command started.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instances: Vec<u32>,
}

/// One run's observed order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunOrder {
    pub label: String,
    pub threads: usize,
    #[serde(flatten)]
    pub order: Order,
}

/// The canonical order of a scenario's stream and each run's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExecutionOrders {
    pub scenario: String,
    /// `total`, `commits` or `events`.
    pub kind: String,
    /// What `sequential` executes and the oracle's reference follows
    /// (commit streams: Algorithm 2 as instances commit).
    pub canonical: Order,
    pub runs: Vec<RunOrder>,
}

fn order_of(stream: &Stream, requests: Vec<u32>) -> Order {
    let instances = match stream.commits() {
        Some(t) => {
            let mut seen = vec![false; t.instances()];
            requests
                .iter()
                .map(|r| t.instance_of(*r))
                .filter(|i| !std::mem::replace(&mut seen[*i as usize], true))
                .collect()
        }
        None => Vec::new(),
    };
    Order {
        requests,
        instances,
    }
}

/// The canonical order of `sc` (the effective scenario the report was run
/// on) and the order each run of `report` executed, read from its trace.
/// A run without a complete trace (tracing off, or cut) is an error: its
/// order is not known.
pub fn execution_orders(
    sc: &Scenario,
    report: &Report,
) -> Result<ExecutionOrders, Vec<Diagnostic>> {
    let (_, stream) = stream_of(sc)?;
    let mut runs = Vec::with_capacity(report.runs.len());
    for r in &report.runs {
        if r.trace.is_empty() || r.trace_window.cut {
            return Err(vec![sc.diagnostic(
                "run.trace",
                format!(
                    "run `{}` has no complete trace, so its order is unknown; run with the trace on \
                     (and raise run.max_trace_events or use fewer requests if it was cut)",
                    r.label
                ),
            )]);
        }
        let requests = exec_order(&r.trace);
        runs.push(RunOrder {
            label: r.label.clone(),
            threads: r.threads,
            order: order_of(&stream, requests),
        });
    }
    Ok(ExecutionOrders {
        scenario: sc.name.clone(),
        kind: stream.kind().as_str().into(),
        canonical: order_of(&stream, stream.canonical.clone()),
        runs,
    })
}
