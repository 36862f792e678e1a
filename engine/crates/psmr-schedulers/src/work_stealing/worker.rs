//! The worker thread of work stealing (000 Algorithms 7 and 8), shared by
//! the four variants; what differs is a [`Policy`] (declared by each
//! variant's file) and the sequential-request procedures that
//! `conservative.rs` and `moderate.rs` add to [`Worker`]. Those files
//! import this one, never the other way round. The worker executes and
//! records through a [`Probe`] so that the same code runs in a real run
//! (executing through `RunContext::execute`) and under loom and shuttle
//! (writing to a model log).

use std::collections::VecDeque;

use psmr_core::trace::Counter;
use psmr_core::{ClassId, EventKind, Request, RequestId, WaitReason, NO_REQUEST};

use super::shared::{Shared, StealOutcome, Transfer};
use crate::barrier::GenerationBarrier;
use crate::probe::Probe;
use crate::spin::{Backoff, SpinPolicies, WaitKind};

/// How a sequential request is synchronized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// Blocking barrier before and after (conservative, Algorithm 7).
    Barrier,
    /// Arrival counter with two cycles per class; the last to arrive
    /// executes (moderate, aggressive, optimistic; Algorithm 8).
    Cycle,
}

/// What distinguishes the variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    pub arrival: Arrival,
    /// A barrier after the execution of a sequential request.
    pub barrier_after: bool,
    /// Steal while waiting for the others in a cycle.
    pub steal_while_syncing: bool,
    /// Start the victim search after one's own id (else at thread 0).
    pub victims_from_next: bool,
    /// Pre-validate without the lock before locking (Algorithm 8 line 39).
    pub optimistic: bool,
    /// Fault injection: steal ignoring flags and markers (`broken.rs`).
    pub broken: bool,
    /// The authors' Java shortcut, for the regression test only (false in
    /// every variant): run a sequential request of a class that has one
    /// thread without waiting for that thread's stealers. A stolen read can
    /// then overlap the write (docs/protocols/stealing-flags-markers.md).
    pub skip_single_thread_markers: bool,
}

/// One worker thread's private state.
pub struct Worker<'s, 'r, P: Probe> {
    pub id: usize,
    pub shared: &'s Shared<'r>,
    pub barriers: &'s [GenerationBarrier],
    pub policy: Policy,
    /// Backoff of each wait kind (cycle, marker, idle).
    pub spin: SpinPolicies,
    pub probe: P,
    /// The private exec queue (Algorithm 5), at most one ready queue's worth.
    exec: VecDeque<RequestId>,
    /// Requests taken by the current steal, at most one ready queue's worth.
    stolen: VecDeque<RequestId>,
    /// Current cycle (0/1) per class (Algorithm 8 line 4).
    pub cycles: Vec<u8>,
    /// Last exec flag recorded as a `Flag` event.
    flag: bool,
}

impl<'s, 'r, P: Probe> Worker<'s, 'r, P> {
    pub fn new(
        id: usize,
        shared: &'s Shared<'r>,
        barriers: &'s [GenerationBarrier],
        policy: Policy,
        spin: SpinPolicies,
        probe: P,
    ) -> Self {
        Worker {
            id,
            shared,
            barriers,
            policy,
            spin,
            probe,
            exec: VecDeque::new(),
            stolen: VecDeque::new(),
            cycles: shared.marks.cursor(),
            flag: false,
        }
    }

    /// Algorithm 7 lines 4-26: transfer, execute the batch, or steal when
    /// there is nothing. Returns when the scheduler closed the queue and it
    /// is drained.
    pub fn run(&mut self) {
        let mut idle: Option<(u64, Backoff)> = None;
        loop {
            match self.shared.transfer(self.id, &mut self.exec) {
                Transfer::Batch { seq } => {
                    self.end_idle(&mut idle);
                    self.note_flag(seq);
                    self.run_batch();
                }
                Transfer::Empty => {
                    self.note_flag(false);
                    if idle.is_none() {
                        let start =
                            self.probe
                                .wait_begin(WaitReason::EmptyQueue, NO_REQUEST, NO_REQUEST);
                        idle = Some((start, Backoff::new(self.spin.of(WaitKind::Idle))));
                    }
                    if let Some(victim) = self.try_steal(None) {
                        self.end_idle(&mut idle);
                        self.run_stolen(victim);
                    } else if let Some((_, b)) = idle.as_mut() {
                        b.snooze();
                    }
                }
                Transfer::Closed => {
                    self.end_idle(&mut idle);
                    self.note_flag(false);
                    return;
                }
            }
        }
    }

    fn end_idle(&mut self, idle: &mut Option<(u64, Backoff)>) {
        if let Some((start, b)) = idle.take() {
            self.probe
                .wait_done(WaitReason::EmptyQueue, NO_REQUEST, start, b.spins);
            self.account(&b);
        }
    }

    fn note_flag(&mut self, seq: bool) {
        if seq != self.flag {
            self.flag = seq;
            self.probe.record(EventKind::Flag { ready: seq });
        }
    }

    /// Algorithm 7 lines 12-24 over the batch in the exec queue.
    fn run_batch(&mut self) {
        while let Some(id) = self.exec.pop_front() {
            self.probe.record(EventKind::Dequeued { req: id });
            let req = &self.shared.requests[id as usize];
            if self.shared.plan.class(req.class).sequential {
                self.sequential(req);
            } else {
                self.probe.execute(req.id, req.class);
            }
        }
    }

    /// A sequential request: wait for this thread's stealers (I4), then
    /// synchronize with the class's other threads.
    fn sequential(&mut self, req: &'r Request) {
        let alone = self.shared.plan.class(req.class).parties() == 1;
        if !(alone && self.policy.skip_single_thread_markers) {
            self.wait_markers(req.id);
        }
        match self.policy.arrival {
            Arrival::Barrier => self.sync_with_barriers(req),
            Arrival::Cycle => self.sync_in_cycle(req),
        }
    }

    /// Algorithm 8 lines 22-23: wait until no stealer holds work taken
    /// from this thread.
    fn wait_markers(&mut self, req: RequestId) {
        if !self.shared.marked(self.id) {
            return;
        }
        self.probe.count(Counter::MarkerWaits, 1);
        let start = self.probe.wait_begin(WaitReason::Marker, req, NO_REQUEST);
        let mut b = Backoff::new(self.spin.of(WaitKind::Marker));
        while self.shared.marked(self.id) {
            b.snooze();
        }
        self.probe
            .wait_done(WaitReason::Marker, req, start, b.spins);
        self.account(&b);
    }

    /// Block at `class`'s barrier, tracing the wait.
    pub fn barrier(&mut self, class: ClassId, req: RequestId) {
        self.probe.count(Counter::BarrierWaits, 1);
        let start = self.probe.wait_begin(WaitReason::Barrier, req, NO_REQUEST);
        self.barriers[class as usize].wait(|| {});
        self.probe.wait_done(WaitReason::Barrier, req, start, 0);
    }

    /// Add a finished wait's backoff to the counters.
    pub fn account(&mut self, b: &Backoff) {
        self.probe.count(Counter::Spins, b.spins as u64);
        self.probe.count(Counter::Yields, b.yields as u64);
        self.probe.count(Counter::Parks, b.parks as u64);
    }

    /// Where the victim search starts: thread 0 (conservative, moderate) or
    /// the thread after one's own id (aggressive, optimistic), which
    /// spreads the contention that always starting at thread 0 puts on the
    /// low ids.
    fn first_victim(&self) -> usize {
        if self.policy.victims_from_next {
            (self.id + 1) % self.shared.threads().max(1)
        } else {
            0
        }
    }

    /// One steal attempt over every victim (Algorithm 7 lines 27-36 /
    /// Algorithm 8 lines 36-45). On success the stolen requests are in
    /// `self.stolen`, the victim's marker is raised, and the victim is
    /// returned; the caller then calls [`Worker::run_stolen`].
    pub fn try_steal(&mut self, sync: Option<ClassId>) -> Option<usize> {
        debug_assert!(self.stolen.is_empty());
        let (n, first, me) = (self.shared.threads(), self.first_victim(), self.id);
        // The victims in order: every other thread from `first` on, without
        // a list (this runs on every idle worker's spin).
        let victims = n.saturating_sub(1);
        let victim = move |i: usize| nth_victim(n, first, me, i);
        // On virtual cores the conductor makes the attempts that would be
        // refused without waking this thread (the optimistic and broken
        // variants do more than lock and look, so they attempt themselves).
        let scan = !self.policy.broken && !self.policy.optimistic;
        // `pointed_at`: the victim index whose lock point the conductor made.
        let mut pointed_at: Option<usize> = None;
        let mut i = 0;
        while i < victims {
            if scan && pointed_at.is_none() {
                let shared = self.shared;
                let attempt = |k: u32| shared.refusal(victim(i + k as usize), sync);
                if let Some(k) = crate::sync::lock_scan((victims - i) as u32, &attempt) {
                    i += k as usize;
                    if i == victims {
                        break;
                    }
                    pointed_at = Some(i);
                }
            }
            let v = victim(i);
            let pointed = pointed_at.take() == Some(i);
            i += 1;
            if self.policy.broken {
                #[cfg(any(test, feature = "fault-injection"))]
                if self.shared.steal_ignoring_flags(v, &mut self.stolen) {
                    let first = self.stolen[0];
                    self.probe.record(EventKind::Steal {
                        victim: v as u16,
                        count: self.stolen.len() as u32,
                        first,
                    });
                    return Some(v);
                }
                continue;
            }
            // Algorithm 8 line 39 (optimistic): the validation on hints,
            // without the lock; the locked validation below decides.
            if self.policy.optimistic && !self.shared.prevalid(v, sync) {
                continue;
            }
            let probe = &mut self.probe;
            let traced = |stolen: &VecDeque<RequestId>| {
                probe.record(EventKind::Steal {
                    victim: v as u16,
                    count: stolen.len() as u32,
                    first: stolen[0],
                })
            };
            if self
                .shared
                .steal_locked(self.id, v, sync, pointed, &mut self.stolen, traced)
                == StealOutcome::Stolen
            {
                return Some(v);
            }
        }
        self.probe.count(Counter::FailedSteals, 1);
        None
    }

    /// Algorithm 7 lines 37-41: execute everything stolen from `victim`
    /// (the `Steal` event was recorded in the steal's critical section),
    /// unconditionally, then clear the marker.
    pub fn run_stolen(&mut self, victim: usize) {
        let stolen = std::mem::take(&mut self.stolen);
        self.probe.count(Counter::Steals, 1);
        self.probe
            .count(Counter::StolenRequests, stolen.len() as u64);
        for id in &stolen {
            {
                let r = &self.shared.requests[*id as usize];
                self.probe.execute(r.id, r.class)
            };
        }
        self.probe
            .count(Counter::StolenExecuted, stolen.len() as u64);
        // Relaxed: a statistic read after the run's threads joined.
        self.shared
            .stolen_executed
            .fetch_add(stolen.len() as u64, crate::sync::Ordering::Relaxed);
        // Record before clearing, so `StealDone` precedes (in trace seq)
        // the end of the victim's marker wait that the clear allows.
        self.probe.record(EventKind::StealDone {
            victim: victim as u16,
        });
        if !self.policy.broken {
            self.shared.clear_marker(self.id, victim);
        }
        self.stolen = stolen;
        self.stolen.clear();
    }
}

/// The `i`-th victim of thread `me` among `n` threads when the scan starts
/// at `first`: the threads `first, first + 1, ...` (mod `n`) without `me`.
fn nth_victim(n: usize, first: usize, me: usize, i: usize) -> usize {
    let mine = (me + n - first) % n;
    (first + i + usize::from(i >= mine)) % n
}

#[cfg(test)]
mod victim_order_tests {
    /// `nth_victim` lists the same victims, in the same order, as filtering
    /// `me` out of `first, first + 1, ...` (mod `n`).
    #[test]
    fn nth_victim_is_the_scan_without_me() {
        for n in 1..9 {
            for first in 0..n {
                for me in 0..n {
                    let listed: Vec<usize> = (0..n)
                        .map(|j| (first + j) % n)
                        .filter(|v| *v != me)
                        .collect();
                    let computed: Vec<usize> = (0..n - 1)
                        .map(|i| super::nth_victim(n, first, me, i))
                        .collect();
                    assert_eq!(computed, listed, "n {n} first {first} me {me}");
                }
            }
        }
    }
}
