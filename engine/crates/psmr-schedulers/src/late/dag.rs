//! CBASE's dependency graph (paper 003 section 3.2, paper 000 section 2.3):
//! every delivered request that has not finished executing is a node; a
//! node has an edge to every node delivered before it that it conflicts
//! with. A node is *ready* when none of those is left; a worker takes a
//! ready node that is not running, executes it and removes it, which may
//! make its dependents ready.
//!
//! One mutex guards the whole graph, as the papers built and measured it
//! (paper 003 section 6.1): the scheduler's insert and every worker's take
//! and removal serialize on it, and an insert compares the new request with
//! every node in the graph, so its cost grows with the graph. That lock and
//! that scan are what early scheduling avoids.
//!
//! Layout: nodes live in a slab of `bound` slots (a removed node's slot and
//! its dependents list are reused, so a run allocates nothing once the
//! graph has been full); `live` lists the occupied slots (swap-remove, each
//! node knows its place); `ready` is the FIFO of ready, not yet taken nodes.
//!
//! Invariants, under the lock:
//! * `live.len() <= bound`; `ready.len() <= live.len()`;
//! * a node's `pending` is the number of live nodes whose `dependents`
//!   list names it; it is in `ready` or running only when `pending == 0`;
//! * every live node is in exactly one of: waiting (`pending > 0`),
//!   `ready`, running.
//!
//! Why conflicting requests keep delivery order: when the later request
//! `b` is inserted, the earlier conflicting `a` is either still live, and
//! then `b` gets an edge to it and cannot be taken before `a`'s removal,
//! which happens after `a` executed; or `a` was already removed, so it
//! finished executing. The lock orders `a`'s removal before `b`'s take, so
//! `a`'s execution happens before `b`'s.
//!
//! Why no wake-up is lost: workers and the scheduler test their condition
//! and start waiting without releasing the lock (`Condvar::wait` releases
//! it atomically), and `workers_waiting` / `scheduler_waiting` change only
//! under it. Each node made ready wakes one counted waiting worker (a
//! woken worker stays counted until it runs, so a second ready node wakes a
//! second worker); the end of the run (closed and empty) wakes them all;
//! the first removal after the scheduler starts waiting wakes it, once
//! (it clears `scheduler_waiting`), and that notify, like the end-of-run
//! one, is made after the unlock: its condition was decided under the lock.

use std::collections::VecDeque;
use std::sync::TryLockError;

use psmr_core::trace::Counter;
use psmr_core::{ClassId, EventKind, RequestId, WaitReason, NO_REQUEST};

use crate::probe::Probe;
use crate::sync::{Condvar, Mutex, MutexGuard};

/// One node of the graph.
#[derive(Debug, Default)]
struct Node {
    req: RequestId,
    /// Live nodes this one still depends on.
    pending: u32,
    /// Slots of the nodes that depend on this one.
    dependents: Vec<u32>,
    /// Index of this node's slot in `State::live`.
    live_at: u32,
}

#[derive(Debug)]
struct State {
    nodes: Vec<Node>,
    free: Vec<u32>,
    live: Vec<u32>,
    ready: VecDeque<u32>,
    closed: bool,
    workers_waiting: u32,
    scheduler_waiting: bool,
    /// Fault injection: insert without edges.
    ignore_conflicts: bool,
}

/// The shared dependency graph; see the module comment.
#[derive(Debug)]
pub struct Dag {
    bound: usize,
    state: Mutex<State>,
    /// Workers wait here for a ready node or the end of the run.
    work: Condvar,
    /// The scheduler waits here for room in a full graph.
    space: Condvar,
}

/// What one insert did, for the scheduler's accounting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inserted {
    /// Edges added (conflicting requests in the graph).
    pub edges: u32,
    /// Nodes in the graph when the request was compared with them.
    pub scanned: u32,
    /// Time spent blocked on a full graph (ns, 0 under the model checkers).
    pub blocked_ns: u64,
}

impl Dag {
    /// An empty graph that holds at most `bound` requests (at least 1).
    pub fn new(bound: usize) -> Self {
        let bound = bound.max(1);
        Dag {
            bound,
            state: Mutex::new(State {
                nodes: (0..bound).map(|_| Node::default()).collect(),
                free: (0..bound as u32).rev().collect(),
                live: Vec::with_capacity(bound),
                ready: VecDeque::with_capacity(bound),
                closed: false,
                workers_waiting: 0,
                scheduler_waiting: false,
                ignore_conflicts: false,
            }),
            work: Condvar::new(),
            space: Condvar::new(),
        }
    }

    /// With `ignore` (the broken variant, reachable only through fault
    /// injection), inserts add no edges, so conflicting requests may run
    /// together or out of order.
    pub fn ignoring_conflicts(self, ignore: bool) -> Self {
        lock_plain(&self.state).ignore_conflicts = ignore;
        self
    }

    pub fn bound(&self) -> usize {
        self.bound
    }

    /// Take the graph lock; a contended acquisition is traced as a `Lock`
    /// wait (the place everyone queues).
    fn lock<P: Probe>(&self, probe: &mut P, req: RequestId) -> MutexGuard<'_, State> {
        match self.state.try_lock() {
            Ok(g) => g,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) => {
                let t = probe.wait_begin(WaitReason::Lock, req, NO_REQUEST);
                let g = lock_plain(&self.state);
                probe.wait_done(WaitReason::Lock, req, t, 0);
                g
            }
        }
    }

    /// The scheduler inserts delivered request `req`: it blocks while the
    /// graph is full, then adds an edge from `req` to every node for which
    /// `conflicts(node's request)` holds (each a `DepEdge`), and marks `req`
    /// ready if there is none.
    pub fn insert<P: Probe>(
        &self,
        req: RequestId,
        conflicts: impl Fn(RequestId) -> bool,
        probe: &mut P,
    ) -> Inserted {
        let mut out = Inserted::default();
        let mut st = self.lock(probe, req);
        if st.live.len() >= self.bound {
            probe.count(Counter::FullGraphWaits, 1);
            let t = probe.wait_begin(WaitReason::FullGraph, req, NO_REQUEST);
            while st.live.len() >= self.bound {
                st.scheduler_waiting = true;
                st = self.space.wait(st).unwrap_or_else(|p| p.into_inner());
            }
            st.scheduler_waiting = false;
            out.blocked_ns = probe.now_ns().saturating_sub(t);
            probe.wait_done(WaitReason::FullGraph, req, t, 0);
        }
        // The graph is not full, so a slot is free.
        let Some(slot) = st.free.pop() else {
            unreachable!("live < bound leaves a free slot")
        };
        out.scanned = st.live.len() as u32;
        if !st.ignore_conflicts {
            for i in 0..st.live.len() {
                let s = st.live[i] as usize;
                let other = st.nodes[s].req;
                if conflicts(other) {
                    st.nodes[s].dependents.push(slot);
                    out.edges += 1;
                    probe.record(EventKind::DepEdge {
                        from: req,
                        to: other,
                    });
                }
            }
        }
        crate::sync::charge_scan(u64::from(out.scanned));
        let live_at = st.live.len() as u32;
        st.live.push(slot);
        let node = &mut st.nodes[slot as usize];
        node.req = req;
        node.pending = out.edges;
        node.live_at = live_at;
        probe.record(EventKind::GraphInsert {
            req,
            deps: out.edges,
        });
        if out.edges == 0 {
            self.make_ready(&mut st, slot, probe);
        }
        self.record_size(&st, probe);
        out
    }

    /// A worker takes the oldest ready node (its slot and request), waiting
    /// while there is none; `None` once the graph is closed and empty.
    pub fn take<P: Probe>(&self, probe: &mut P) -> Option<(u32, RequestId)> {
        let mut st = self.lock(probe, NO_REQUEST);
        let mut idle = None;
        let got = loop {
            if let Some(slot) = st.ready.pop_front() {
                break Some((slot, st.nodes[slot as usize].req));
            }
            if st.closed && st.live.is_empty() {
                break None;
            }
            if idle.is_none() {
                idle = Some(probe.wait_begin(WaitReason::EmptyQueue, NO_REQUEST, NO_REQUEST));
            }
            st.workers_waiting += 1;
            st = self.work.wait(st).unwrap_or_else(|p| p.into_inner());
            st.workers_waiting -= 1;
        };
        if let Some(t) = idle {
            probe.wait_done(WaitReason::EmptyQueue, NO_REQUEST, t, 0);
        }
        if let Some((_, req)) = got {
            // Virtual cores: the take's own work, under the graph lock.
            crate::sync::charge_own(|c| c.graph_take);
            probe.record(EventKind::Dequeued { req });
        }
        got
    }

    /// A worker removes the node in `slot` after executing it: each of its
    /// dependents loses one pending dependency and becomes ready at zero.
    pub fn remove<P: Probe>(&self, slot: u32, probe: &mut P) {
        let mut st = self.lock(probe, NO_REQUEST);
        let mut dependents = std::mem::take(&mut st.nodes[slot as usize].dependents);
        crate::sync::charge_scan(dependents.len() as u64);
        // Virtual cores: the removal's own work, under the graph lock.
        crate::sync::charge_own(|c| c.graph_remove);
        for &d in &dependents {
            let node = &mut st.nodes[d as usize];
            node.pending -= 1;
            if node.pending == 0 {
                self.make_ready(&mut st, d, probe);
            }
        }
        dependents.clear();
        let req = st.nodes[slot as usize].req;
        st.nodes[slot as usize].dependents = dependents;
        let at = st.nodes[slot as usize].live_at as usize;
        st.live.swap_remove(at);
        if let Some(&moved) = st.live.get(at) {
            st.nodes[moved as usize].live_at = at as u32;
        }
        st.free.push(slot);
        probe.record(EventKind::GraphRemove { req });
        self.record_size(&st, probe);
        // One wake per wait: the flag is cleared with the slot freed, so the
        // removals that follow before the scheduler runs do not notify again
        // (it sets the flag anew if it must wait again).
        let wake_scheduler = std::mem::take(&mut st.scheduler_waiting);
        let wake_all = st.closed && st.live.is_empty() && st.workers_waiting > 0;
        // Notify after the unlock: a thread woken while the lock is still
        // held would run only to block on it and be woken a second time by
        // the unlock (the convoy of docs/benchmarks/virtual.md, "Late's
        // convoy after a full graph"). No wake is lost: the decision was
        // taken under the lock, and a scheduler that tests the graph after
        // this unlock finds the free slot and does not wait.
        drop(st);
        if wake_scheduler {
            self.space.notify_one();
        }
        if wake_all {
            self.work.notify_all();
        }
    }

    /// No more inserts: workers end once the graph is empty.
    pub fn close(&self) {
        let mut st = lock_plain(&self.state);
        st.closed = true;
        if st.live.is_empty() && st.workers_waiting > 0 {
            self.work.notify_all();
        }
    }

    /// Requests in the graph now (a snapshot, for sampling).
    pub fn len(&self) -> usize {
        lock_plain(&self.state).live.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Put `slot` in the ready FIFO and wake one waiting worker.
    fn make_ready<P: Probe>(&self, st: &mut State, slot: u32, probe: &mut P) {
        st.ready.push_back(slot);
        probe.record(EventKind::Ready {
            req: st.nodes[slot as usize].req,
        });
        if st.workers_waiting > 0 {
            self.work.notify_one();
        }
    }

    fn record_size<P: Probe>(&self, st: &State, probe: &mut P) {
        probe.record(EventKind::GraphSize {
            size: st.live.len() as u32,
            bound: self.bound as u32,
        });
    }
}

/// Lock without tracing (setup, close, sampling). A poisoned lock means a
/// worker panicked mid-section; the graph's fields are updated together in
/// each section, so go on.
fn lock_plain(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A worker's life: take a ready request, execute it, remove it, until the
/// graph is closed and empty. `class_of` gives a request's class for the
/// probe.
pub fn worker_loop<P: Probe>(dag: &Dag, probe: &mut P, class_of: impl Fn(RequestId) -> ClassId) {
    while let Some((slot, req)) = dag.take(probe) {
        probe.execute(req, class_of(req));
        dag.remove(slot, probe);
    }
}
