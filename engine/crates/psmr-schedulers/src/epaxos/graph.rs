//! The sequential part of ePaxos execution, shared by `epaxos` (Algorithm
//! 2) and `pepaxos` (Algorithm 3): take committed instances in commit
//! order, build each one's dependency graph over instances not yet taken,
//! find its SCCs in reverse topological order, sort each by seq, and hand
//! them to a [`Sink`] (execute them here, or give them to workers).
//!
//! Instance states (Algorithm 3 lines 6-8) are shared atomics:
//! `PENDING` (not committed) → `COMMITTED` (the commit thread) →
//! `EXECUTING` (taken into a graph by the builder; Algorithm 3 line 17) →
//! `EXECUTED` (after its commands ran). Only the builder moves an instance
//! to `EXECUTING`, so it never takes one twice.
//!
//! Where we differ from the pseudo-code: Algorithm 2 line 13 (3 line 19)
//! *waits* inside the graph search until an uncommitted dependency
//! commits. Dependencies may name instances committed later, so a builder
//! that waits there would also hold up every later instance that does not
//! depend on it (and, with closed-loop clients, could wait for a commit
//! that waits for those). Instead the search is abandoned at the first
//! uncommitted instance `u` ([`Admit::Stop`]), the instance is parked on
//! `u` (a `CommitWait` event), and retried when `u` commits. The graph is
//! built only once all of it is committed, so it is the same graph the
//! waiting search would have built; nothing blocks the commit thread or
//! the builder. This is the order `stream::commits_canonical` defines.

use psmr_core::scc::{Admit, Tarjan, TarjanError};
use psmr_core::stream::CommitTable;
use psmr_core::{EventKind, RequestId};

use crate::probe::Probe;
use crate::roles::RoleSignal;
use crate::sync::{AtomicU32, Ordering};

/// Not committed yet.
pub const PENDING: u32 = 0;
/// Committed, not taken into a graph.
pub const COMMITTED: u32 = 1;
/// Taken into a graph: its SCC is being executed (Algorithm 3 line 17).
pub const EXECUTING: u32 = 2;
/// Its commands ran.
pub const EXECUTED: u32 = 3;

/// The instances' shared state: one state per instance, the number of
/// instances committed (a prefix of commit order) and the commit thread's
/// signal to the builder.
#[derive(Debug)]
pub struct Instances {
    state: Vec<AtomicU32>,
    committed: AtomicU32,
    pub signal: RoleSignal,
}

impl Instances {
    pub fn new(n: usize) -> Self {
        Instances {
            state: (0..n).map(|_| AtomicU32::new(PENDING)).collect(),
            committed: AtomicU32::new(0),
            signal: RoleSignal::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.state.len()
    }

    pub fn is_empty(&self) -> bool {
        self.state.is_empty()
    }

    /// The commit thread commits instance `i`, the next in commit order.
    /// Never blocks for long (the signal's lock is held for a counter bump).
    ///
    /// Release: the builder's Acquire load of the count or the state sees
    /// the commit (the table itself is immutable, so nothing else needs
    /// publishing).
    pub fn commit(&self, i: u32) {
        self.state[i as usize].store(COMMITTED, Ordering::Release);
        self.committed.store(i + 1, Ordering::Release);
        self.signal.notify();
    }

    /// The run is over: the builder ends once it has taken what committed.
    pub fn stop(&self) {
        self.signal.stop();
    }

    /// Instances committed so far (Acquire: pairs with [`Instances::commit`]).
    pub fn committed(&self) -> u32 {
        self.committed.load(Ordering::Acquire)
    }

    /// Instance `i`'s state. Acquire: a worker that sees `EXECUTED` sees
    /// everything the executing worker did before its Release store.
    pub fn state(&self, i: u32) -> u32 {
        self.state[i as usize].load(Ordering::Acquire)
    }

    /// The builder takes `i` (Algorithm 3 line 17). Relaxed: only the
    /// builder reads `EXECUTING`, and the hand-over of the SCC to a worker
    /// (a queue under a mutex) orders it before the worker's `EXECUTED`.
    fn take(&self, i: u32) {
        self.state[i as usize].store(EXECUTING, Ordering::Relaxed);
    }

    /// A worker executed every command of `i` (Algorithm 2 line 25, 3 line
    /// 32). Release: pairs with the Acquire in [`Instances::state`] of a
    /// worker waiting on `i` from another SCC.
    pub fn executed(&self, i: u32) {
        crate::sync::charge_store(&self.state[i as usize]);
        self.state[i as usize].store(EXECUTED, Ordering::Release);
    }
}

/// Where the builder's SCCs go.
pub trait Sink<P: Probe> {
    /// SCC `group` (run-wide counter), at `position` in its graph's reverse
    /// topological order, with `members` sorted by `(seq, instance)`.
    /// Returns the time (ns) spent not scheduling (executing, or waiting
    /// for a credit), to leave out of the builder's busy time.
    fn scc(&mut self, group: u32, position: u32, members: &[u32], probe: &mut P) -> u64;
}

/// The builder's private state; see the module comment.
#[derive(Debug)]
pub struct Builder<'t> {
    table: &'t CommitTable,
    tarjan: Tarjan,
    /// Instances parked on each (uncommitted) instance, retried at its
    /// commit. Every parked instance sits in exactly one list.
    waiting_on: Vec<Vec<u32>>,
    retry: Vec<u32>,
    members: Vec<u32>,
    sccs: Vec<(u32, u32)>,
    flat: Vec<u32>,
    next_group: u32,
    /// Time spent building graphs and handing SCCs over (ns).
    pub busy_ns: u64,
}

impl<'t> Builder<'t> {
    pub fn new(table: &'t CommitTable) -> Self {
        Builder {
            table,
            tarjan: Tarjan::new(),
            waiting_on: vec![Vec::new(); table.instances()],
            retry: Vec::new(),
            members: Vec::new(),
            sccs: Vec::new(),
            flat: Vec::new(),
            next_group: 0,
            busy_ns: 0,
        }
    }

    /// SCCs handed to the sink so far.
    pub fn groups(&self) -> u32 {
        self.next_group
    }

    /// The first command of instance `i`: how the trace names instances.
    pub fn first(&self, i: u32) -> RequestId {
        self.table.first[i as usize]
    }

    /// Instance `k` committed (and every instance before it): try it, then
    /// every instance parked on it, in increasing order (Algorithm 2 line
    /// 27 / 3 line 39, with parking instead of waiting).
    pub fn on_commit<P: Probe, S: Sink<P>>(
        &mut self,
        inst: &Instances,
        k: u32,
        sink: &mut S,
        probe: &mut P,
    ) {
        let t0 = probe.now_ns();
        let mut away_ns = 0;
        self.retry.clear();
        self.retry.push(k);
        let mut parked = std::mem::take(&mut self.waiting_on[k as usize]);
        self.retry.append(&mut parked);
        self.waiting_on[k as usize] = parked;
        self.retry.sort_unstable_by(|a, b| b.cmp(a));
        while let Some(i) = self.retry.pop() {
            away_ns += self.try_take(inst, k, i, sink, probe);
        }
        self.busy_ns += probe.now_ns().saturating_sub(t0).saturating_sub(away_ns);
    }

    /// Build `i`'s graph over instances committed up to `k` and not taken
    /// yet; park `i` if it reaches a later one; else take every member and
    /// hand the SCCs over in reverse topological order. Returns the sink's
    /// time away.
    ///
    /// The builder handles commits one at a time, each as of its own
    /// moment: while handling commit `k` it treats later instances as not
    /// committed even if the commit thread is already past them. So what
    /// it does is a function of the commit stream alone (not of how far
    /// behind it runs), and `epaxos` executes exactly the canonical order.
    fn try_take<P: Probe, S: Sink<P>>(
        &mut self,
        inst: &Instances,
        k: u32,
        i: u32,
        sink: &mut S,
        probe: &mut P,
    ) -> u64 {
        // Algorithm 3 lines 18-22: executed or executing instances are not
        // part of the graph; an uncommitted one stops the search.
        // Virtual cores: the search costs a `scan_step` per dependency it
        // follows (each reached node is asked once per edge into it), and
        // one per member taken and handed over (the copy and the sort).
        let mut followed = 0u64;
        let found = self.tarjan.run_from(self.table, i, |v| {
            followed += 1;
            if v > k {
                Admit::Stop
            } else if inst.state(v) >= EXECUTING {
                Admit::Skip
            } else {
                Admit::Visit
            }
        });
        crate::sync::charge_scan(followed);
        let list = match found {
            Ok(list) => list,
            Err(TarjanError::Stopped { node }) => {
                self.waiting_on[node as usize].push(i);
                probe.record(EventKind::CommitWait {
                    instance: i,
                    on: node,
                });
                return 0;
            }
            Err(e) => unreachable!("a validated commit table: {e}"),
        };
        // Copy the SCCs out of the search state and take every member (as
        // Algorithm 3 marks them while it builds the graph), then hand the
        // SCCs over.
        self.flat.clear();
        self.sccs.clear();
        for scc in list.iter() {
            let at = self.flat.len() as u32;
            self.flat.extend_from_slice(scc);
            self.sccs.push((at, scc.len() as u32));
        }
        for &m in &self.flat {
            inst.take(m);
        }
        crate::sync::charge_scan(self.flat.len() as u64);
        let mut away = 0;
        for position in 0..self.sccs.len() {
            let (at, len) = self.sccs[position];
            // Algorithm 2 line 22 / 3 line 27: inside an SCC, by seq (ties
            // by commit position, so every replica agrees).
            self.members.clear();
            self.members
                .extend_from_slice(&self.flat[at as usize..(at + len) as usize]);
            let seq = &self.table.seq;
            self.members
                .sort_unstable_by_key(|m| (seq[*m as usize], *m));
            let group = self.next_group;
            self.next_group += 1;
            probe.record(EventKind::GroupFound {
                group,
                size: len,
                position: position as u32,
            });
            for &m in &self.members {
                probe.record(EventKind::GroupMember {
                    group,
                    req: self.table.first[m as usize],
                });
            }
            away += sink.scc(group, position as u32, &self.members, probe);
        }
        away
    }
}

/// The builder's life: take every instance as it commits, until the
/// commit thread stops and everything committed was taken.
pub fn builder_loop<P: Probe, S: Sink<P>>(
    inst: &Instances,
    builder: &mut Builder<'_>,
    sink: &mut S,
    probe: &mut P,
) {
    let mut seen = 0u64;
    let mut next = 0u32;
    loop {
        let upto = inst.committed();
        while next < upto {
            builder.on_commit(inst, next, sink, probe);
            next += 1;
        }
        // Every notification made before the stop is reported before it,
        // so `None` comes only after the last commit's count was read.
        if inst.signal.wait(&mut seen).is_none() {
            break;
        }
    }
    let upto = inst.committed();
    while next < upto {
        builder.on_commit(inst, next, sink, probe);
        next += 1;
    }
}
