//! A request stream and the order it must respect.
//!
//! Every family of schedulers consumes a [`Stream`]: the requests (each with
//! a class label, an operation and a footprint over the application's
//! cells) plus an *order source*:
//!
//! * [`Order::Total`]: a totally ordered delivery, as atomic broadcast gives
//!   it (papers 003, 000, 001). The canonical order is the delivery order.
//! * [`Order::Commits`]: committed ePaxos instances in commit order, each a
//!   batch of commands with dependencies on other instances (possibly ones
//!   committed later, cycles allowed) and a sequence number (paper 004). The
//!   canonical order is the one Algorithm 2 executes when instances commit
//!   in that order: strongly connected components of the dependency graph in
//!   reverse topological order, by sequence number inside a component, and
//!   equal sequence numbers by commit position. That tie rule is the lab's
//!   choice: every executor here reads this one commit stream, so all of
//!   them order ties alike; replicas of a deployment learn commits in
//!   different orders and would break ties by something they share (seq,
//!   then the instance's leader and its instance number there).
//! * [`Order::Events`]: an event forest (paper 002): root events are
//!   delivered, the others are registered at run time by the handler of
//!   their parent. The canonical order is a single-threaded event loop's:
//!   deliver a root, then run its tree breadth first, then the next root.
//!   Event ids are assigned in that order.
//!
//! The canonical order is what `sequential` executes and what the oracle's
//! reference is computed from. [`Stream::runnable`] says how much of it can
//! run after a number of deliveries: its prefix of that length is exactly
//! the set a scheduler must execute when a run is cancelled after those
//! deliveries (for commits: the instances whose dependency closure was
//! committed), and the closed-loop delivery model waits on it.
//!
//! All side tables are flat (CSR arrays): nothing is allocated per request.

use std::ops::Range;

use crate::cell::{CellSpace, DenseCells, Span, WRITE_BIT};
use crate::class::{ClassId, ClassTable};
use crate::request::{Op, Request, RequestId, NO_REQUEST};
use crate::scc::{Admit, Graph, Tarjan, TarjanError};

/// What kind of order a stream carries.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum StreamKind {
    /// A total delivery order.
    Total,
    /// Committed ePaxos instances with dependencies and sequence numbers.
    Commits,
    /// An event forest registered at run time.
    Events,
}

impl StreamKind {
    pub fn as_str(self) -> &'static str {
        match self {
            StreamKind::Total => "total",
            StreamKind::Commits => "commits",
            StreamKind::Events => "events",
        }
    }
}

/// Committed instances (paper 004): instance `i` holds the commands
/// (requests) `first[i]..first[i+1]`, depends on the instances
/// `deps[dep_start[i]..dep_start[i+1]]` and has sequence number `seq[i]`.
/// Instances are indexed in commit order, requests in instance order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommitTable {
    pub first: Vec<u32>,
    pub dep_start: Vec<u32>,
    pub deps: Vec<u32>,
    pub seq: Vec<u64>,
}

impl CommitTable {
    /// The table of `seq.len()` instances: instance `i` holds the commands
    /// `first[i]..first[i + 1]`, depends on the instances `deps[i]` and has
    /// sequence number `seq[i]` (checked only when a stream is built from
    /// it).
    pub fn new<D: AsRef<[u32]>>(first: Vec<u32>, deps: &[D], seq: Vec<u64>) -> Self {
        let mut table = CommitTable {
            first,
            dep_start: Vec::with_capacity(deps.len() + 1),
            deps: Vec::new(),
            seq,
        };
        table.dep_start.push(0);
        for d in deps {
            table.deps.extend_from_slice(d.as_ref());
            table.dep_start.push(table.deps.len() as u32);
        }
        table
    }

    pub fn instances(&self) -> usize {
        self.seq.len()
    }
    /// The requests (commands) of instance `i`.
    pub fn commands(&self, i: u32) -> Range<u32> {
        self.first[i as usize]..self.first[i as usize + 1]
    }
    pub fn deps(&self, i: u32) -> &[u32] {
        &self.deps[self.dep_start[i as usize] as usize..self.dep_start[i as usize + 1] as usize]
    }
    /// The instance holding request `r`.
    pub fn instance_of(&self, r: RequestId) -> u32 {
        (self.first.partition_point(|f| *f <= r) - 1) as u32
    }

    /// Check the table's shape against `requests` requests.
    fn validate(&self, requests: usize) -> Result<(), String> {
        let n = self.seq.len();
        if self.first.len() != n + 1 || self.dep_start.len() != n + 1 {
            return Err(format!(
                "commit table: {n} instances need {} command and dependency bounds",
                n + 1
            ));
        }
        if self.first[0] != 0 || self.first[n] as usize != requests {
            return Err(format!(
                "commit table: the instances' commands must cover requests 0..{requests}"
            ));
        }
        if let Some(i) = self.first.windows(2).position(|w| w[0] >= w[1]) {
            return Err(format!("commit table: instance {i} has no command"));
        }
        if self.dep_start[0] != 0
            || self.dep_start[n] as usize != self.deps.len()
            || self.dep_start.windows(2).any(|w| w[0] > w[1])
        {
            return Err("commit table: dependency bounds are not a valid index".into());
        }
        if let Some(d) = self.deps.iter().find(|d| **d as usize >= n) {
            return Err(format!(
                "commit table: dependency on instance {d}, there are {n}"
            ));
        }
        Ok(())
    }
}

/// The dependency graph over instances (`a -> b`: `a` depends on `b`).
impl Graph for CommitTable {
    fn node_count(&self) -> usize {
        self.instances()
    }
    fn successors(&self, v: u32) -> &[u32] {
        self.deps(v)
    }
}

/// An event forest (paper 002). Event ids follow the canonical order, so the
/// tree of root `roots[d]` is the contiguous id range `roots[d]..roots[d+1]`
/// (the last one ends at the stream's end). `parent[e]` is
/// [`NO_REQUEST`] for roots; the children of `e` are
/// `children[child_start[e]..child_start[e+1]]`, in registration order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventForest {
    pub roots: Vec<RequestId>,
    pub parent: Vec<RequestId>,
    pub child_start: Vec<u32>,
    pub children: Vec<RequestId>,
}

impl EventForest {
    /// Build from each event's parent (ids already in canonical order: a
    /// parent precedes its children, trees are contiguous and breadth first,
    /// children of one parent in increasing id = registration order).
    pub fn from_parents(parent: Vec<RequestId>) -> Result<EventForest, String> {
        let n = parent.len();
        let mut roots = Vec::new();
        let mut counts = vec![0u32; n + 1];
        for (e, &p) in parent.iter().enumerate() {
            if p == NO_REQUEST {
                roots.push(e as RequestId);
            } else if p as usize >= e {
                return Err(format!(
                    "event {e}: its parent {p} must come before it in the canonical order"
                ));
            } else {
                counts[p as usize + 1] += 1;
            }
        }
        if n > 0 && roots.first() != Some(&0) {
            return Err("event 0 must be a root".into());
        }
        for i in 0..n {
            counts[i + 1] += counts[i];
        }
        let child_start = counts;
        let mut fill = child_start.clone();
        let mut children = vec![0; child_start[n] as usize];
        for (e, &p) in parent.iter().enumerate() {
            if p != NO_REQUEST {
                children[fill[p as usize] as usize] = e as RequestId;
                fill[p as usize] += 1;
            }
        }
        let forest = EventForest {
            roots,
            parent,
            child_start,
            children,
        };
        forest.check_breadth_first()?;
        Ok(forest)
    }

    pub fn children(&self, e: RequestId) -> &[RequestId] {
        &self.children
            [self.child_start[e as usize] as usize..self.child_start[e as usize + 1] as usize]
    }

    /// Ids must be the breadth-first order of each tree, trees one after
    /// the other: then the canonical order is the id order.
    fn check_breadth_first(&self) -> Result<(), String> {
        let n = self.parent.len() as u32;
        let mut queue = std::collections::VecDeque::new();
        let mut expect = 0u32;
        for &r in &self.roots {
            queue.push_back(r);
            while let Some(e) = queue.pop_front() {
                if e != expect {
                    return Err(format!(
                        "event ids are not in canonical order: expected event {expect}, found {e}"
                    ));
                }
                expect += 1;
                queue.extend(self.children(e).iter().copied());
            }
        }
        if expect != n {
            return Err(format!(
                "{} events are not reachable from a root",
                n - expect
            ));
        }
        Ok(())
    }
}

/// The order source of a stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    Total,
    Commits(CommitTable),
    Events(EventForest),
}

/// A request stream: requests, footprints, order source, canonical order.
///
/// Invariants: `requests[i].id == i`; `canonical` is a permutation of the
/// ids; `runnable` has one entry per delivery plus one, is non-decreasing,
/// starts at 0 and ends at `requests.len()`; `expect` has one entry per
/// dense footprint entry (the version its cell must show when the request
/// starts, for total and commit streams).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stream {
    pub requests: Vec<Request>,
    pub space: CellSpace,
    span_start: Vec<u32>,
    spans: Vec<Span>,
    pub dense: DenseCells,
    expect: Vec<u32>,
    pub order: Order,
    pub canonical: Vec<RequestId>,
    runnable: Vec<u32>,
}

/// Accumulates requests and footprints; `finish_*` fixes the order source.
#[derive(Debug)]
pub struct StreamBuilder {
    space: CellSpace,
    requests: Vec<Request>,
    span_start: Vec<u32>,
    spans: Vec<Span>,
}

impl StreamBuilder {
    pub fn new(space: CellSpace, capacity: usize) -> Self {
        let mut span_start = Vec::with_capacity(capacity + 1);
        span_start.push(0);
        StreamBuilder {
            space,
            requests: Vec::with_capacity(capacity),
            span_start,
            spans: Vec::with_capacity(capacity),
        }
    }

    /// Append a request with its footprint; returns its id.
    pub fn push(&mut self, class: ClassId, op: Op, footprint: &[Span]) -> RequestId {
        let id = self.requests.len() as RequestId;
        self.requests.push(Request { id, class, op });
        self.spans.extend_from_slice(footprint);
        self.span_start.push(self.spans.len() as u32);
        id
    }

    pub fn len(&self) -> usize {
        self.requests.len()
    }
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
    }

    /// A totally ordered stream: canonical order = delivery order.
    pub fn finish_total(self) -> Stream {
        let n = self.requests.len() as u32;
        self.finish(Order::Total, (0..n).collect(), (0..=n).collect())
    }

    /// A commit stream; fails when the table does not fit the requests.
    pub fn finish_commits(self, table: CommitTable) -> Result<Stream, String> {
        table.validate(self.requests.len())?;
        let (canonical, runnable) = commits_canonical(&table);
        Ok(self.finish(Order::Commits(table), canonical, runnable))
    }

    /// An event forest (see [`EventForest::from_parents`]). Every event
    /// writes exactly one cell, its color.
    pub fn finish_events(self, forest: EventForest) -> Result<Stream, String> {
        let n = self.requests.len();
        if forest.parent.len() != n {
            return Err(format!(
                "event forest has {} events, the stream {n}",
                forest.parent.len()
            ));
        }
        for (e, w) in self.span_start.windows(2).enumerate() {
            let fp = &self.spans[w[0] as usize..w[1] as usize];
            if fp.len() != 1 || !fp[0].write || fp[0].lo != fp[0].hi {
                return Err(format!("event {e} must write exactly one color"));
            }
        }
        let canonical = (0..n as u32).collect();
        let mut runnable: Vec<u32> = forest.roots.clone();
        runnable.push(n as u32);
        // runnable[d] = events of the first d trees = first id of tree d.
        runnable[0] = 0;
        Ok(self.finish(Order::Events(forest), canonical, runnable))
    }

    fn finish(self, order: Order, canonical: Vec<RequestId>, runnable: Vec<u32>) -> Stream {
        let dense = DenseCells::build(&self.span_start, &self.spans);
        let expect = expected_versions(&dense, &canonical);
        Stream {
            requests: self.requests,
            space: self.space,
            span_start: self.span_start,
            spans: self.spans,
            dense,
            expect,
            order,
            canonical,
            runnable,
        }
    }
}

/// For every dense entry, the version its cell shows when the request
/// starts in the canonical execution: twice the number of canonically
/// earlier writes of the cell (a write leaves the version odd while it runs
/// and even again when done; see `exec::CellVersions`).
fn expected_versions(dense: &DenseCells, canonical: &[RequestId]) -> Vec<u32> {
    let mut writes = vec![0u32; dense.cells()];
    let mut expect = vec![0u32; dense.entries.len()];
    for &r in canonical {
        let range = dense.start[r as usize] as usize..dense.start[r as usize + 1] as usize;
        for i in range {
            let e = dense.entries[i];
            let c = (e & !WRITE_BIT) as usize;
            expect[i] = 2 * writes[c];
            if e & WRITE_BIT != 0 {
                writes[c] += 1;
            }
        }
    }
    expect
}

impl Stream {
    pub fn kind(&self) -> StreamKind {
        match self.order {
            Order::Total => StreamKind::Total,
            Order::Commits(_) => StreamKind::Commits,
            Order::Events(_) => StreamKind::Events,
        }
    }
    pub fn len(&self) -> usize {
        self.requests.len()
    }
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
    }
    /// The footprint of request `r`, as the generator gave it.
    pub fn footprint(&self, r: RequestId) -> &[Span] {
        &self.spans[self.span_start[r as usize] as usize..self.span_start[r as usize + 1] as usize]
    }
    /// Do requests `a` and `b` conflict?
    pub fn conflicts(&self, a: RequestId, b: RequestId) -> bool {
        crate::cell::conflicts(self.footprint(a), self.footprint(b))
    }
    /// Expected start version of each dense entry of `r`.
    pub fn expected(&self, r: RequestId) -> &[u32] {
        &self.expect
            [self.dense.start[r as usize] as usize..self.dense.start[r as usize + 1] as usize]
    }
    /// Delivery units: requests (total), instances (commits), roots (events).
    pub fn deliveries(&self) -> usize {
        self.runnable.len() - 1
    }
    /// Length of the canonical prefix that can execute once the first `d`
    /// deliveries were made.
    pub fn runnable(&self, d: usize) -> usize {
        self.runnable[d.min(self.runnable.len() - 1)] as usize
    }
    /// The requests delivery `d` admits (an instance's commands, a root).
    pub fn delivery(&self, d: u32) -> Range<RequestId> {
        match &self.order {
            Order::Total => d..d + 1,
            Order::Commits(t) => t.commands(d),
            Order::Events(f) => f.roots[d as usize]..f.roots[d as usize] + 1,
        }
    }
    /// Children an event registers when it executes (none for other kinds).
    pub fn children(&self, r: RequestId) -> &[RequestId] {
        match &self.order {
            Order::Events(f) => f.children(r),
            _ => &[],
        }
    }
    pub fn commits(&self) -> Option<&CommitTable> {
        match &self.order {
            Order::Commits(t) => Some(t),
            _ => None,
        }
    }
    pub fn events(&self) -> Option<&EventForest> {
        match &self.order {
            Order::Events(f) => Some(f),
            _ => None,
        }
    }
    /// The color (event streams) of `e`: its one written cell.
    pub fn color(&self, e: RequestId) -> u64 {
        self.footprint(e)[0].lo
    }
}

// The cover check sits with streams, not classes: a stream's requests
// carry class ids, so classes come first in the module order.
impl ClassTable {
    /// Does every request's class cover its footprint? Schedulers that
    /// route by class are correct only then (the rules R.1-R.5 reason about
    /// classes). Returns the first request that is not covered.
    pub fn check_covers(&self, stream: &Stream) -> Result<(), NotCovered> {
        for r in &stream.requests {
            if r.class as usize >= self.len() {
                return Err(NotCovered {
                    req: r.id,
                    class: format!("#{}", r.class),
                });
            }
            if !crate::cell::covers(&self.get(r.class).footprint, stream.footprint(r.id)) {
                return Err(NotCovered {
                    req: r.id,
                    class: self.get(r.class).name.clone(),
                });
            }
        }
        Ok(())
    }
}

/// A request whose footprint its class does not cover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotCovered {
    pub req: RequestId,
    pub class: String,
}

impl std::fmt::Display for NotCovered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "request #{} accesses cells its class {} does not cover",
            self.req, self.class
        )
    }
}

/// The canonical order of a commit stream, the engine's one definition:
/// Algorithm 2 run sequentially as instances commit in table order: after
/// each commit, every pending instance whose not-yet-executed dependency
/// closure is now fully committed executes, component by component in
/// reverse topological order, by `(seq, instance)` inside a component
/// (`instance` is the commit position: the lab's tie rule, see the module
/// comment). Returns the canonical order of requests and, per number of commits, how
/// many of them had executed.
///
/// An instance whose closure is not committed yet waits without holding up
/// later instances that do not depend on it (so after `d` commits exactly
/// the instances whose dependency closure lies in the first `d` have run,
/// and they form a prefix of this order). Conflicting instances are always
/// related through dependencies (ePaxos's interference property), so every
/// executor that follows Algorithm 2 orders them as this order does.
pub fn commits_canonical(t: &CommitTable) -> (Vec<RequestId>, Vec<u32>) {
    let n = t.instances();
    let mut state = CommitState {
        executed: vec![false; n],
        waiting_on: vec![Vec::new(); n],
        order: Vec::with_capacity(t.first.last().copied().unwrap_or(0) as usize),
        tarjan: Tarjan::default(),
        members: Vec::new(),
    };
    let mut runnable = Vec::with_capacity(n + 1);
    runnable.push(0);
    let mut retry: Vec<u32> = Vec::new();
    for k in 0..n as u32 {
        retry.push(k);
        retry.append(&mut state.waiting_on[k as usize]);
        // Retry in increasing instance order (popped from the back).
        retry.sort_unstable_by(|a, b| b.cmp(a));
        while let Some(i) = retry.pop() {
            state.try_execute(t, k, i);
        }
        runnable.push(state.order.len() as u32);
    }
    (state.order, runnable)
}

struct CommitState {
    executed: Vec<bool>,
    /// Instances to retry when this (uncommitted) instance commits.
    waiting_on: Vec<Vec<u32>>,
    order: Vec<RequestId>,
    tarjan: Tarjan,
    /// Scratch: one component's members, sorted by seq.
    members: Vec<u32>,
}

impl CommitState {
    /// Try to execute instance `i` once instances `0..=committed` are
    /// committed. If its closure reaches an uncommitted instance, `i` waits
    /// for that one's commit.
    fn try_execute(&mut self, t: &CommitTable, committed: u32, i: u32) {
        if self.executed[i as usize] || i > committed {
            return;
        }
        // Algorithm 2 lines 11-18: the graph of i's not-yet-executed
        // dependencies, abandoned at the first one not committed yet.
        let executed = &self.executed;
        let found = self.tarjan.run_from(t, i, |v| {
            if executed[v as usize] {
                Admit::Skip
            } else if v > committed {
                Admit::Stop
            } else {
                Admit::Visit
            }
        });
        let sccs = match found {
            Ok(sccs) => sccs,
            Err(TarjanError::Stopped { node }) => {
                self.waiting_on[node as usize].push(i);
                return;
            }
            Err(e) => unreachable!("a validated commit table: {e}"),
        };
        // Lines 20-25: components in reverse topological order, each by
        // (seq, instance).
        for scc in sccs.iter() {
            self.members.clear();
            self.members.extend_from_slice(scc);
            self.members
                .sort_unstable_by_key(|m| (t.seq[*m as usize], *m));
            for &m in &self.members {
                self.executed[m as usize] = true;
                self.order.extend(t.commands(m));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CommitTable;

    /// `CommitTable::new` keeps each instance's commands, dependencies
    /// (an instance with none included) and seq where `deps`, `commands`
    /// and `seq` find them.
    #[test]
    fn a_commit_table_from_dependency_lists() {
        let deps: [&[u32]; 3] = [&[], &[0, 2], &[1]];
        let t = CommitTable::new(vec![0, 2, 3, 5], &deps, vec![7, 8, 9]);
        assert_eq!(t.instances(), 3);
        for (i, d) in deps.iter().enumerate() {
            assert_eq!(t.deps(i as u32), *d, "instance {i}");
        }
        assert_eq!(t.commands(1), 2..3);
        assert_eq!(t.instance_of(4), 2);
        assert_eq!(t.seq, [7, 8, 9]);
    }
}
