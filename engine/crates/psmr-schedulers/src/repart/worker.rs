//! Partitioned execution (paper 001 section 3): the scheduler's routing by
//! partition map, the *sync* command, the map switch, and the worker loop.
//! Protocol note: `docs/protocols/repartitioning.md`.
//!
//! Each worker owns one partition and takes commands from its own FIFO
//! queue. The scheduler sends a request whose keys all belong to one
//! partition to that partition's queue ([`Cmd::Exec`]). A request whose keys
//! span several partitions (a scan) goes, as a [`Cmd::Sync`], to the queue
//! of every partition it touches; the workers of those partitions meet at a
//! barrier, the one with the smallest id executes the request, and they meet
//! again before going on (the two phases of early scheduling's barrier,
//! with the parties taken from the request instead of from a class). After a
//! new map is installed, the scheduler puts a [`Cmd::Switch`] into *every*
//! queue: all workers meet once at a barrier before any of them takes a
//! command routed with the new map.
//!
//! Why conflicting requests never overlap or reorder: two conflicting
//! requests share a key. Routed under the same map, both went to the queue
//! of that key's owner, which takes them in delivery order and, for a sync,
//! neither starts the request before every party finished what came before
//! it nor leaves it before it was executed. Routed under different maps, a
//! `Switch` lies between them in every queue: the later one's worker cannot
//! pass the switch before every worker has reached it, that is, has finished
//! every command routed under the older map. (Model-checked in
//! `loom_tests.rs`.) Barriers are reused per set of parties, like early
//! scheduling's per class: every party of a set meets its syncs in the same
//! (delivery) order, so the generations line up.

use std::collections::BTreeMap;

use psmr_core::trace::Counter;
use psmr_core::{ClassId, EventKind, RequestId, ThreadRef, WaitReason, NO_REQUEST};

use super::keys::{KeyRange, PartitionMap};
use crate::barrier::GenerationBarrier;
use crate::probe::Probe;
use crate::queue::BoundedFifo;
use crate::sync::Arc;

/// What travels through a worker's queue.
#[derive(Clone, Debug)]
pub enum Cmd {
    /// A request of this worker's partition alone.
    Exec { req: RequestId, class: ClassId },
    /// A request over several partitions: meet the other workers of
    /// `lanes` (bit i = worker i) at `barrier`; `executor` (the lowest)
    /// runs it.
    Sync {
        req: RequestId,
        class: ClassId,
        barrier: Arc<GenerationBarrier>,
        executor: ThreadRef,
        lanes: u64,
    },
    /// After a map switch: meet every worker once.
    Switch {
        epoch: u32,
        barrier: Arc<GenerationBarrier>,
        parties: u16,
    },
}

/// The scheduler's side: the partition map and the barriers of syncs.
#[derive(Debug)]
pub struct Router {
    pub map: PartitionMap,
    barriers: BTreeMap<u64, Arc<GenerationBarrier>>,
    switch: Arc<GenerationBarrier>,
    workers: u16,
    /// Requests sent as syncs (over several partitions).
    pub cross: u64,
    /// Whether map switches put a sync into every queue (always, except in
    /// the fault-injection variant that proves the oracle sees its absence).
    pub sync_on_switch: bool,
    /// Whether a request over several partitions goes as a sync to each
    /// (always, except in the fault-injection variant that sends it as a
    /// plain command to its lowest partition alone).
    pub sync_scans: bool,
}

impl Router {
    pub fn new(map: PartitionMap) -> Self {
        let workers = map.parts() as u16;
        Router {
            map,
            barriers: BTreeMap::new(),
            switch: Arc::new(GenerationBarrier::new(workers as usize)),
            workers,
            cross: 0,
            sync_on_switch: true,
            sync_scans: true,
        }
    }

    /// Route request `req` over key ranges `ranges`: `push(worker, cmd)`
    /// for each queue it goes to, in increasing worker order. Returns the
    /// set of partitions it touched.
    pub fn dispatch(
        &mut self,
        req: RequestId,
        class: ClassId,
        ranges: &[KeyRange],
        mut push: impl FnMut(ThreadRef, Cmd),
    ) -> u64 {
        let mask = self.map.route(ranges);
        if mask.count_ones() <= 1 || !self.sync_scans {
            let to = mask.trailing_zeros().min(self.workers as u32 - 1) as ThreadRef;
            push(to, Cmd::Exec { req, class });
            return mask;
        }
        self.cross += 1;
        let barrier = self
            .barriers
            .entry(mask)
            .or_insert_with(|| Arc::new(GenerationBarrier::new(mask.count_ones() as usize)))
            .clone();
        let executor = mask.trailing_zeros() as ThreadRef;
        let mut rest = mask;
        while rest != 0 {
            let w = rest.trailing_zeros() as ThreadRef;
            rest &= rest - 1;
            push(
                w,
                Cmd::Sync {
                    req,
                    class,
                    barrier: barrier.clone(),
                    executor,
                    lanes: mask,
                },
            );
        }
        mask
    }

    /// After installing a new map: a switch command into every queue.
    pub fn switch(&mut self, epoch: u32, mut push: impl FnMut(ThreadRef, Cmd)) {
        if !self.sync_on_switch {
            return;
        }
        for w in 0..self.workers {
            push(
                w,
                Cmd::Switch {
                    epoch,
                    barrier: self.switch.clone(),
                    parties: self.workers,
                },
            );
        }
    }
}

/// Worker `me`'s loop: take commands in FIFO order until the queue is
/// closed and drained; `after` runs after each command (queue sampling).
pub fn worker_loop<P: Probe>(
    me: ThreadRef,
    queue: &BoundedFifo<Cmd>,
    probe: &mut P,
    mut after: impl FnMut(&mut P),
) {
    loop {
        let mut idle_since: Option<u64> = None;
        let next = queue.pop(|| {
            idle_since = Some(probe.wait_begin(WaitReason::EmptyQueue, NO_REQUEST, NO_REQUEST))
        });
        if let Some(start_ns) = idle_since {
            let req = match &next {
                Some(Cmd::Exec { req, .. } | Cmd::Sync { req, .. }) => *req,
                _ => NO_REQUEST,
            };
            probe.wait_done(WaitReason::EmptyQueue, req, start_ns, 0);
        }
        let Some(cmd) = next else { break };
        match cmd {
            Cmd::Exec { req, class } => {
                probe.record(EventKind::Dequeued { req });
                probe.execute(req, class);
            }
            Cmd::Sync {
                req,
                class,
                barrier,
                executor,
                lanes,
            } => {
                probe.record(EventKind::Dequeued { req });
                let parties = lanes.count_ones() as u16;
                sync(me, req, class, &barrier, executor, parties, probe);
            }
            Cmd::Switch {
                barrier, parties, ..
            } => switch(&barrier, parties, probe),
        }
        after(probe);
    }
}

/// A request over several partitions: arrive, the executor runs it, leave
/// together (the two phases of `early::barrier`).
fn sync<P: Probe>(
    me: ThreadRef,
    req: RequestId,
    class: ClassId,
    barrier: &GenerationBarrier,
    executor: ThreadRef,
    parties: u16,
    probe: &mut P,
) {
    probe.record(EventKind::PartSyncArrive {
        req,
        parties: parties as u32,
    });
    let mut since: Option<u64> = None;
    // Phase 1: every party reached `req`, so each finished what its queue
    // held before it.
    barrier.wait(|| start_wait(&mut since, probe, req));
    if me == executor {
        if let Some(s) = since.take() {
            probe.wait_done(WaitReason::Barrier, req, s, 0);
        }
        probe.execute(req, class);
        probe.record(EventKind::PartSyncRelease { req, executor });
    }
    // Phase 2: nobody goes on before `req` was executed.
    barrier.wait(|| start_wait(&mut since, probe, req));
    if let Some(s) = since {
        probe.wait_done(WaitReason::Barrier, req, s, 0);
    }
}

/// About to block at a sync's barrier: start its one wait (if not yet).
fn start_wait<P: Probe>(since: &mut Option<u64>, probe: &mut P, req: RequestId) {
    if since.is_none() {
        *since = Some(probe.wait_begin(WaitReason::Barrier, req, NO_REQUEST));
        probe.count(Counter::BarrierWaits, 1);
    }
}

/// A map switch: every worker finished what was routed with the old map.
fn switch<P: Probe>(barrier: &GenerationBarrier, parties: u16, probe: &mut P) {
    probe.record(EventKind::PartSyncArrive {
        req: NO_REQUEST,
        parties: parties as u32,
    });
    let mut since: Option<u64> = None;
    let last = barrier.wait(|| {
        since = Some(probe.wait_begin(WaitReason::MapSwitch, NO_REQUEST, NO_REQUEST));
        probe.count(Counter::BarrierWaits, 1);
    });
    if let Some(s) = since {
        probe.wait_done(WaitReason::MapSwitch, NO_REQUEST, s, 0);
    }
    if last {
        probe.record(EventKind::PartSyncRelease {
            req: NO_REQUEST,
            executor: ThreadRef::MAX,
        });
    }
}
