//! Commit-stream workloads (paper 004): the commands the usual generator
//! makes, ordered the way ePaxos would commit them.
//!
//! A workload with a `commits` object first generates its commands exactly
//! as a totally ordered workload would (same seed, same classes, same
//! operations), in *client order*. Then either
//!
//! * the ePaxos ordering simulator ([`crate::commit_sim::simulate`]) plays
//!   them through a few replicas and returns the instances in commit order,
//!   with their dependencies and sequence numbers; or
//! * `instances` gives that commit stream directly, in the JSON shape
//!   `psmr commits` writes (so a graph taken from another ePaxos
//!   implementation's log can be replayed on these commands).
//!
//! The resulting [`Stream`] holds the commands in commit order, instance by
//! instance (request `r` is client command `commands[r]` of the commit
//! stream), with an [`Order::Commits`](crate::stream::Order) table; its
//! canonical order is Algorithm 2's ([`crate::stream::commits_canonical`]).
//!
//! The simulator sees each command's footprint as dense cells of the total
//! stream ([`crate::cell::DenseCells`]): cells no footprint tells apart are
//! merged, which keeps exactly the conflicts of the footprints (two
//! commands interfere iff they share a dense cell and one writes it) and
//! keeps key ranges cheap.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cell::WRITE_BIT;
use crate::commit_sim::{
    simulate, CommitSimError, CommitSimSpec, CommitStream, CommitStreamJson, FlatFootprints,
    InstanceJson,
};
use crate::scc::{Admit, Tarjan};
use crate::stream::{Stream, StreamBuilder};

/// `workload.commits`: make the stream an ePaxos commit stream. Every
/// field is optional; the simulation's defaults are paper 004's setting
/// (docs/epaxos-commit-model.md).
#[serde_with_macros::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommitsSpec {
    /// Seed of the ordering simulation (default: the workload's seed).
    pub seed: Option<u64>,
    /// Replicas, each a command leader (1..=7; default 3, as paper 004).
    pub replicas: Option<u32>,
    /// Period of a leader's batch timer in ns; 0 proposes every command on
    /// arrival (default 5 ms, paper 004 section IV-C).
    pub batch_ns: Option<u64>,
    /// How late a batch tick may land, drawn per tick (default 1 ms, at
    /// most half of `batch_ns`).
    pub batch_jitter_ns: Option<u64>,
    /// A leader's queue this long is proposed at once (1..=100000; default
    /// 1000, paper 004).
    pub batch_max: Option<u32>,
    /// Mean gap between two client commands in ns (default 50000).
    pub arrival_gap_ns: Option<u64>,
    /// One-way message delay in ns (default 50000: paper 004's 0.1 ms round
    /// trip).
    pub delay_ns: Option<u64>,
    /// Extra per-message delay, uniform in 0..=this (ns; default 20000).
    pub delay_jitter_ns: Option<u64>,
    /// A commit stream to replay instead of simulating one: instances in
    /// commit order, each with its commands (indices into the workload's
    /// client order, together each of `0..requests` exactly once), its seq
    /// and its dependencies (positions in this list). The shape `psmr
    /// commits` writes. The simulation fields do not apply with it.
    pub instances: Option<Vec<InstanceJson>>,
}

impl CommitsSpec {
    /// The simulation parameters, defaults filled in; the seed defaults to
    /// `workload_seed`, and the default tick jitter shrinks to fit a short
    /// batch period.
    pub fn sim_spec(&self, workload_seed: u64) -> CommitSimSpec {
        let d = CommitSimSpec::default();
        let batch_ns = self.batch_ns.unwrap_or(d.batch_ns);
        CommitSimSpec {
            seed: self.seed.unwrap_or(workload_seed),
            replicas: self.replicas.unwrap_or(d.replicas),
            batch_ns,
            batch_jitter_ns: self
                .batch_jitter_ns
                .unwrap_or(d.batch_jitter_ns.min(batch_ns / 2)),
            batch_max: self.batch_max.unwrap_or(d.batch_max),
            arrival_gap_ns: self.arrival_gap_ns.unwrap_or(d.arrival_gap_ns),
            delay_ns: self.delay_ns.unwrap_or(d.delay_ns),
            delay_jitter_ns: self.delay_jitter_ns.unwrap_or(d.delay_jitter_ns),
        }
    }

    /// The simulation fields that are set (they do not apply together with
    /// `instances`).
    pub fn sim_fields(&self) -> Vec<&'static str> {
        [
            ("seed", self.seed.is_some()),
            ("replicas", self.replicas.is_some()),
            ("batch_ns", self.batch_ns.is_some()),
            ("batch_jitter_ns", self.batch_jitter_ns.is_some()),
            ("batch_max", self.batch_max.is_some()),
            ("arrival_gap_ns", self.arrival_gap_ns.is_some()),
            ("delay_ns", self.delay_ns.is_some()),
            ("delay_jitter_ns", self.delay_jitter_ns.is_some()),
        ]
        .iter()
        .filter(|f| f.1)
        .map(|f| f.0)
        .collect()
    }

    /// Check what the types cannot, without generating anything: ranges of
    /// the simulation parameters, or the shape of `instances` against
    /// `requests` commands. Errors name a path inside `commits`.
    pub fn check(&self, requests: u32) -> Result<(), CommitsError> {
        match &self.instances {
            Some(instances) => {
                if let Some(f) = self.sim_fields().first() {
                    return Err(CommitsError::new(
                        f,
                        "simulation parameters do not apply to a replayed commit stream \
                         (`instances`); remove one of the two"
                            .into(),
                    ));
                }
                replayed(instances, requests).map(|_| ())
            }
            None => {
                if requests as usize > crate::commit_sim::MAX_COMMANDS {
                    return Err(CommitsError::new(
                        "",
                        format!(
                            "a commit stream holds at most {} commands, the workload makes {requests}",
                            crate::commit_sim::MAX_COMMANDS
                        ),
                    ));
                }
                self.sim_spec(0).validate().map_err(CommitsError::from_sim)
            }
        }
    }
}

/// Why a commit workload could not be made: `path` is relative to
/// `workload.commits` (empty for the object itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommitsError {
    pub path: String,
    pub message: String,
}

impl CommitsError {
    fn new(path: &str, message: String) -> Self {
        CommitsError {
            path: path.to_string(),
            message,
        }
    }
    fn from_sim(e: CommitSimError) -> Self {
        match e {
            CommitSimError::Spec {
                field,
                expected,
                found,
            } => CommitsError::new(field, format!("expected {expected}, found {found}")),
            other => CommitsError::new("", other.to_string()),
        }
    }
}

impl std::fmt::Display for CommitsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// A replayed commit stream, checked against the workload's `requests`.
fn replayed(instances: &[InstanceJson], requests: u32) -> Result<CommitStream, CommitsError> {
    let json = CommitStreamJson {
        instances: instances.to_vec(),
    };
    let stream =
        CommitStream::from_json_shape(&json).map_err(|e| CommitsError::new(&e.path, e.message))?;
    if stream.command_count() != requests as usize {
        return Err(CommitsError::new(
            "instances",
            format!(
                "the instances hold {} commands, the workload makes {requests} requests; \
                 they must match (set workload.requests to {})",
                stream.command_count(),
                stream.command_count()
            ),
        ));
    }
    Ok(stream)
}

/// A replayed commit stream (`instances`, for the commands of `total` in
/// client order), checked for its shape and, as [`ordered_conflicts`]
/// says, for the workload's conflicts.
pub fn check_replayed(total: &Stream, instances: &[InstanceJson]) -> Result<(), CommitsError> {
    let stream = replayed(instances, total.len() as u32)?;
    ordered_conflicts(total, &stream)
}

/// Every two conflicting commands of `total` (they share a cell and one
/// writes it) in different instances of `commits` must be joined by a
/// chain of dependencies, one way or the other: ePaxos makes one of two
/// interfering instances depend on the other, and only such a chain makes
/// every executor (Algorithm 2) run them in the same order. A replayed
/// stream that misses a pair is refused, naming the pair: otherwise the
/// oracle would blame an executor for an order nothing constrained.
///
/// Cost: one Tarjan pass, a sort of the (cell, access) pairs, and per cell
/// one reachability search per writer and two per reader. In Tarjan's
/// reverse topological order a dependency never points to a later SCC, so
/// the writers of a cell, sorted by SCC, must form a chain (each reaching
/// the one before), and a reader must reach the last writer before it and
/// be reached by the first after it (or share an SCC with a writer).
pub fn ordered_conflicts(total: &Stream, commits: &CommitStream) -> Result<(), CommitsError> {
    let n = commits.len();
    let mut tarjan = Tarjan::new();
    let list = tarjan
        .run_all(commits, |_| Admit::Visit)
        .map_err(|e| CommitsError::new("instances", e.to_string()))?;
    let mut comp = vec![0u32; n];
    for (k, members) in list.iter().enumerate() {
        for &v in members {
            comp[v as usize] = k as u32;
        }
    }
    let mut inst_of = vec![0u32; total.len()];
    for i in 0..n {
        for &c in commits.commands(i) {
            inst_of[c as usize] = i as u32;
        }
    }
    let mut acc: Vec<Access> = Vec::new();
    for r in 0..total.len() as u32 {
        let inst = inst_of[r as usize];
        for &e in total.dense.of(r) {
            acc.push(Access {
                cell: e & !WRITE_BIT,
                comp: comp[inst as usize],
                inst,
                write: e & WRITE_BIT != 0,
                cmd: r,
            });
        }
    }
    acc.sort_unstable();
    let mut search = Reach::new(n);
    for group in acc.chunk_by(|a, b| a.cell == b.cell) {
        let writers: Vec<&Access> = group.iter().filter(|a| a.write).collect();
        for w in writers.windows(2) {
            search.joined(commits, &comp, w[1], w[0], total)?;
        }
        if writers.is_empty() {
            continue;
        }
        for a in group.iter().filter(|a| !a.write) {
            let i = writers.partition_point(|w| w.comp < a.comp);
            if writers.get(i).is_some_and(|w| w.comp == a.comp) {
                continue;
            }
            if i > 0 {
                search.joined(commits, &comp, a, writers[i - 1], total)?;
            }
            if let Some(w) = writers.get(i) {
                search.joined(commits, &comp, w, a, total)?;
            }
        }
    }
    Ok(())
}

/// One command's access to one dense cell, with its instance's SCC
/// (sorted by cell, then SCC).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Access {
    cell: u32,
    comp: u32,
    inst: u32,
    write: bool,
    cmd: u32,
}

/// Depth-first reachability over the dependencies, reusing its marks.
struct Reach {
    mark: Vec<u32>,
    stamp: u32,
    stack: Vec<u32>,
}

impl Reach {
    fn new(n: usize) -> Self {
        Reach {
            mark: vec![0; n],
            stamp: 0,
            stack: Vec::new(),
        }
    }

    /// `later`'s instance reaches `earlier`'s through dependencies (same
    /// instance or SCC counts), else the located error naming the pair.
    /// Nodes of SCCs before `earlier`'s are not searched: no dependency
    /// leads from them back up to it.
    fn joined(
        &mut self,
        g: &CommitStream,
        comp: &[u32],
        later: &Access,
        earlier: &Access,
        total: &Stream,
    ) -> Result<(), CommitsError> {
        if later.comp == earlier.comp {
            return Ok(());
        }
        self.stamp += 1;
        self.stack.clear();
        self.stack.push(later.inst);
        self.mark[later.inst as usize] = self.stamp;
        while let Some(v) = self.stack.pop() {
            for &d in g.deps(v as usize) {
                if comp[d as usize] == earlier.comp {
                    return Ok(());
                }
                if comp[d as usize] > earlier.comp && self.mark[d as usize] != self.stamp {
                    self.mark[d as usize] = self.stamp;
                    self.stack.push(d);
                }
            }
        }
        let (lo, hi) = total.dense.range(later.cell);
        Err(CommitsError::new(
            &format!("instances[{}].deps", later.inst),
            format!(
                "instances {} and {} conflict (commands {} and {} both touch {}, and one writes \
                 it) but no chain of dependencies joins them, so nothing orders them and \
                 executors may run them either way; ePaxos makes one of two conflicting \
                 instances depend on the other: add {} to instances[{}].deps",
                later.inst,
                earlier.inst,
                later.cmd,
                earlier.cmd,
                total.space.name(lo, hi),
                earlier.inst,
                later.inst
            ),
        ))
    }
}

/// The commit stream of `total` (the workload's commands in client order):
/// simulated with `spec`'s parameters (seed defaulting to `workload_seed`),
/// or `spec.instances` checked and taken as it is.
pub fn order(
    total: &Stream,
    spec: &CommitsSpec,
    workload_seed: u64,
) -> Result<CommitStream, CommitsError> {
    if let Some(instances) = &spec.instances {
        let stream = replayed(instances, total.len() as u32)?;
        ordered_conflicts(total, &stream)?;
        return Ok(stream);
    }
    let mut fp = FlatFootprints::new();
    let mut touches = Vec::with_capacity(4);
    for r in 0..total.len() as u32 {
        touches.clear();
        touches.extend(
            total
                .dense
                .of(r)
                .iter()
                .map(|e| ((e & !WRITE_BIT) as u64, e & WRITE_BIT != 0)),
        );
        fp.push(&touches).map_err(CommitsError::from_sim)?;
    }
    simulate(&fp, &spec.sim_spec(workload_seed))
        .map(|s| s.stream)
        .map_err(CommitsError::from_sim)
}

/// `total`'s requests in `commits`' commit order, as a commit stream.
pub fn reorder(total: &Stream, commits: &CommitStream) -> Result<Stream, CommitsError> {
    let parts = commits.parts();
    let mut b = StreamBuilder::new(total.space, total.len());
    for &c in parts.commands {
        let r = &total.requests[c as usize];
        b.push(r.class, r.op.clone(), total.footprint(c));
    }
    b.finish_commits(commits.table())
        .map_err(|m| CommitsError::new("", m))
}

/// Both steps: the commit stream of `total` under `spec`.
pub fn commit_stream(
    total: &Stream,
    spec: &CommitsSpec,
    workload_seed: u64,
) -> Result<Stream, CommitsError> {
    reorder(total, &order(total, spec, workload_seed)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{AppSpec, ListCost};
    use crate::stream::StreamKind;
    use crate::workload::{generate, WorkloadSpec};

    /// Seed of the list workloads below.
    const SEED: u64 = 5;

    /// No batching: one command an instance, so leaders collide.
    fn unbatched() -> CommitsSpec {
        CommitsSpec {
            batch_max: Some(1),
            ..Default::default()
        }
    }

    /// `requests` commands on one list of 1,000 entries, `writes` of them
    /// writes, in total order.
    fn list_total(requests: u32, writes: f64) -> Stream {
        let app = AppSpec::LinkedList {
            shards: 1,
            size: ListCost::Light,
        };
        generate(
            &app,
            &app.classes(),
            &WorkloadSpec::balanced(SEED, requests, writes, 0.0),
        )
    }

    /// [`list_total`]'s stream and its unbatched commit stream.
    fn list_commits(requests: u32, writes: f64) -> (Stream, CommitStream) {
        let total = list_total(requests, writes);
        let commits = order(&total, &unbatched(), SEED).unwrap();
        (total, commits)
    }

    #[test]
    fn the_commit_stream_reorders_the_same_commands() {
        let (total, commits) = list_commits(3000, 0.25);
        let s = reorder(&total, &commits).unwrap();
        assert_eq!(s.kind(), StreamKind::Commits);
        assert_eq!(s.len(), total.len());
        let parts = commits.parts();
        for (r, &c) in parts.commands.iter().enumerate() {
            assert_eq!(s.requests[r].op, total.requests[c as usize].op);
            assert_eq!(s.footprint(r as u32), total.footprint(c));
        }
        // The simulation is a function of the commands and the seed.
        assert_eq!(commits, order(&total, &unbatched(), SEED).unwrap());
        assert_ne!(commits, order(&total, &unbatched(), SEED + 1).unwrap());
    }

    /// Without batching at 25 % writes leaders collide: the stream has
    /// SCCs of two or more instances, and its canonical order covers every
    /// request once the last instance committed.
    #[test]
    fn collisions_make_cycles_and_everything_runs_in_the_end() {
        let (total, commits) = list_commits(2000, 0.25);
        let h = crate::commit_sim::scc_histogram(&commits).unwrap();
        assert!(h.largest > 1, "no collision at 25 % writes: {h:?}");
        let s = reorder(&total, &commits).unwrap();
        assert_eq!(s.canonical.len(), s.len());
        assert_eq!(s.runnable(s.deliveries()), s.len());
    }

    #[test]
    fn replay_checks_the_command_count_and_the_shape() {
        let inst = |commands: Vec<u32>, seq, deps: Vec<u32>| InstanceJson {
            commands,
            seq,
            deps,
        };
        let spec = CommitsSpec {
            instances: Some(vec![
                inst(vec![0, 2], 1, vec![1]),
                inst(vec![1], 1, vec![0]),
            ]),
            ..Default::default()
        };
        assert_eq!(spec.check(3), Ok(()));
        let e = spec.check(4).unwrap_err();
        assert_eq!(e.path, "instances");
        assert!(e.message.contains("hold 3 commands"), "{e}");
        let bad = CommitsSpec {
            instances: Some(vec![inst(vec![0], 1, vec![3])]),
            ..Default::default()
        };
        assert_eq!(bad.check(1).unwrap_err().path, "instances[0].deps[0]");
        let mixed = CommitsSpec {
            replicas: Some(5),
            ..spec.clone()
        };
        assert_eq!(mixed.check(3).unwrap_err().path, "replicas");
        let total = list_total(3, 0.5);
        let s = commit_stream(&total, &spec, 1).unwrap();
        assert_eq!(s.deliveries(), 2);
        assert_eq!(s.requests[1].op, total.requests[2].op);
    }

    /// Issue 28 item 12: a replayed stream whose dependencies leave two
    /// conflicting instances unordered is refused, the pair named; the
    /// same stream with the dependency (direct or through a chain) passes,
    /// and so does every simulated stream.
    #[test]
    fn replayed_streams_must_order_every_conflict() {
        let inst = |commands: Vec<u32>, deps: Vec<u32>| InstanceJson {
            commands,
            seq: 1,
            deps,
        };
        // All writes to one list: every two commands conflict.
        let total = list_total(3, 1.0);
        let unordered = [
            inst(vec![0], vec![]),
            inst(vec![1], vec![0]),
            inst(vec![2], vec![]),
        ];
        let e = check_replayed(&total, &unordered).unwrap_err();
        assert_eq!(e.path, "instances[2].deps", "{e}");
        assert!(e.message.contains("instances 2 and 1 conflict"), "{e}");
        assert!(e.message.contains("commands 2 and 1"), "{e}");
        let chained = [
            inst(vec![0], vec![]),
            inst(vec![1], vec![0]),
            inst(vec![2], vec![1]),
        ];
        assert_eq!(check_replayed(&total, &chained), Ok(()));
        // Through the scenario path too (`order`), and a cycle is ordered.
        let spec = CommitsSpec {
            instances: Some(unordered.to_vec()),
            ..Default::default()
        };
        assert_eq!(
            order(&total, &spec, 1).unwrap_err().path,
            "instances[2].deps"
        );
        let cycle = [
            inst(vec![0], vec![2]),
            inst(vec![1], vec![0]),
            inst(vec![2], vec![1]),
        ];
        assert_eq!(check_replayed(&total, &cycle), Ok(()));
        // Reads only: nothing conflicts, no dependency needed.
        let reads = list_total(3, 0.0);
        assert_eq!(check_replayed(&reads, &unordered), Ok(()));
        // Simulated streams order every conflict.
        let (total, commits) = list_commits(1500, 0.25);
        assert_eq!(ordered_conflicts(&total, &commits), Ok(()));
    }

    #[test]
    fn simulation_parameters_are_checked_with_their_field() {
        let spec = CommitsSpec {
            replicas: Some(9),
            ..Default::default()
        };
        let e = spec.check(10).unwrap_err();
        assert_eq!(e.path, "replicas");
        assert!(e.message.contains("1..=7"), "{e}");
        // A short batch period shrinks the default jitter to fit.
        let short = CommitsSpec {
            batch_ns: Some(0),
            ..Default::default()
        };
        assert_eq!(short.check(10), Ok(()));
        assert_eq!(short.sim_spec(3).batch_jitter_ns, 0);
        assert_eq!(short.sim_spec(3).seed, 3);
    }
}
