//! The state the work-stealing threads share (paper 000 Algorithm 5) and the
//! steps that touch it: the scheduler's enqueue (Algorithm 6), a worker's
//! transfer from its ready queue to its private exec queue (Algorithm 7
//! lines 5-10), a stealer's validated steal (lines 29-36, Algorithm 8 lines
//! 36-57) and markers. The per-class synchronization cycles are
//! [`crate::cycle`]'s, the mapping and its router [`crate::plan`]'s.
//!
//! Everything here compiles against [`crate::sync`], so loom explores this
//! very code (see `loom_tests.rs`).
//!
//! ## Invariants (see `docs/protocols/stealing-flags-markers.md`)
//! * I1 — a worker's ready queue holds at most `capacity` requests; the
//!   scheduler blocks while it is full, until the queue is emptied.
//! * I2 — `seq_pending > 0` (the paper's ready flag) iff a sequential
//!   request is in the ready queue; `exec_flag` iff the batch the worker
//!   moved to its exec queue last holds a sequential request. Both change
//!   only under the worker's lock, together with the queue.
//! * I3 — a steal happens only under the victim's lock, only when both flags
//!   are clear, and sets `markers[stealer]` in that same critical section;
//!   the stealer clears it (Release) after executing all it took.
//! * I4 — before any part of a sequential request, a worker waits until
//!   every marker in its own array is clear (Acquire).

use std::collections::VecDeque;

use crossbeam_utils::CachePadded;
use psmr_core::{ClassId, ClassTable, Request, RequestId};

use crate::cycle::CycleMarks;
use crate::plan::Plan;
use crate::sync::{AtomicBool, AtomicU64, AtomicUsize, Condvar, Mutex, Ordering};

/// Words of a [`ClassSet`]: up to 192 classes (a 64-shard table has 130).
pub const CLASS_WORDS: usize = 3;
/// Most classes a work-stealing run supports.
pub const MAX_CLASSES: usize = CLASS_WORDS * 64;

/// A small fixed bitset of classes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassSet(pub [u64; CLASS_WORDS]);

impl ClassSet {
    pub fn insert(&mut self, c: ClassId) {
        self.0[c as usize / 64] |= 1u64 << (c % 64);
    }
    pub fn intersects(&self, o: &ClassSet) -> bool {
        self.0.iter().zip(o.0.iter()).any(|(a, b)| a & b != 0)
    }
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }
}

/// Algorithm 8's NoConflict sets: for each class, the classes that
/// conflict with it, precomputed from the class table.
#[derive(Clone, Debug)]
pub struct Conflicts(Vec<ClassSet>);

impl Conflicts {
    /// The conflict sets of `table` (at most [`MAX_CLASSES`] classes).
    pub fn new(table: &ClassTable) -> Result<Self, String> {
        if table.len() > MAX_CLASSES {
            return Err(format!(
                "work stealing supports at most {MAX_CLASSES} classes, this run has {}",
                table.len()
            ));
        }
        let of = |c: usize| {
            let mut set = ClassSet::default();
            for o in 0..table.len() {
                if table.conflicts(c as ClassId, o as ClassId) {
                    set.insert(o as ClassId);
                }
            }
            set
        };
        Ok(Conflicts((0..table.len()).map(of).collect()))
    }

    /// Classes that conflict with `c`.
    pub fn of(&self, c: ClassId) -> &ClassSet {
        &self.0[c as usize]
    }
}

/// The part of a worker guarded by its lock (the paper's atomic blocks).
#[derive(Debug, Default)]
pub struct ReadyState {
    pub queue: VecDeque<RequestId>,
    /// Sequential requests in `queue`; the ready flag is `seq_pending > 0`.
    pub seq_pending: u32,
    /// The exec flag: the worker's current exec batch has a sequential request.
    pub exec_flag: bool,
    /// Classes present in `queue` (cleared whenever the queue is emptied,
    /// which is the only way requests leave it).
    pub classes: ClassSet,
    /// The scheduler delivers no more requests.
    pub closed: bool,
    /// The scheduler sleeps on `space`, waiting for this queue to empty.
    pub producer_waiting: bool,
}

impl ReadyState {
    /// Wake the scheduler if it waits for room; call right after emptying
    /// the queue, with the lock held.
    pub fn wake_producer(&mut self, space: &Condvar) {
        if self.producer_waiting {
            self.producer_waiting = false;
            space.notify_one();
        }
    }
}

/// One worker's shared state.
#[derive(Debug)]
pub struct WorkerSlot {
    pub ready: Mutex<ReadyState>,
    /// Signalled when the ready queue empties while the scheduler waits
    /// for room (the only blocking wait of the protocol; see `enqueue`).
    pub space: Condvar,
    /// Lock-free copies of the guarded fields, read only by the optimistic
    /// pre-validation (Algorithm 8 line 39). They are hints: a stale value
    /// only makes a pre-validation pass or fail wrongly, and the locked
    /// re-validation decides. So every access to them is `Relaxed`.
    pub hint_len: AtomicUsize,
    pub hint_ready_flag: AtomicBool,
    pub hint_exec_flag: AtomicBool,
    pub hint_classes: [AtomicU64; CLASS_WORDS],
    /// `markers[s]`: stealer `s` holds requests stolen from this worker.
    pub markers: Vec<AtomicBool>,
}

impl WorkerSlot {
    fn new(threads: usize) -> Self {
        WorkerSlot {
            ready: Mutex::new(ReadyState::default()),
            space: Condvar::new(),
            hint_len: AtomicUsize::new(0),
            hint_ready_flag: AtomicBool::new(false),
            hint_exec_flag: AtomicBool::new(false),
            hint_classes: [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)],
            markers: (0..threads).map(|_| AtomicBool::new(false)).collect(),
        }
    }

    pub fn lock(&self) -> crate::sync::MutexGuard<'_, ReadyState> {
        // A poisoned lock means a worker panicked; the run is lost anyway
        // and the panic propagates from the thread scope, so go on.
        self.ready.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// [`WorkerSlot::lock`] whose point the conductor already made
    /// (`sync::lock_scan`; only on virtual cores, never under loom or
    /// shuttle, where it is `lock`).
    pub fn lock_after_point(&self) -> crate::sync::MutexGuard<'_, ReadyState> {
        #[cfg(not(any(loom, shuttle)))]
        {
            self.ready
                .lock_after_point()
                .unwrap_or_else(|p| p.into_inner())
        }
        #[cfg(any(loom, shuttle))]
        {
            self.lock()
        }
    }

    /// Refresh the hints from the guarded state; call with the lock held.
    pub fn publish(&self, st: &ReadyState) {
        // Relaxed: hints only (see the field comment).
        self.hint_len.store(st.queue.len(), Ordering::Relaxed);
        self.hint_ready_flag
            .store(st.seq_pending > 0, Ordering::Relaxed);
        self.hint_exec_flag.store(st.exec_flag, Ordering::Relaxed);
        for (h, w) in self.hint_classes.iter().zip(st.classes.0) {
            h.store(w, Ordering::Relaxed);
        }
    }
}

/// What [`Shared::enqueue`] reports to its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnqueueStep {
    /// The queue is full: the scheduler is about to block.
    Blocked,
    /// The request is in; the queue holds `len`; `wakeups` is `Some` (the
    /// times the scheduler woke) if it blocked.
    Done { len: usize, wakeups: Option<u32> },
}

/// One batch moved from the ready queue to the exec queue.
#[derive(Debug)]
pub enum Transfer {
    /// Requests in delivery order; `seq` says the exec flag went up.
    Batch { seq: bool },
    /// Nothing to do now.
    Empty,
    /// Nothing to do ever again.
    Closed,
}

/// The result of one locked steal attempt on a victim.
#[derive(Debug, PartialEq, Eq)]
pub enum StealOutcome {
    Stolen,
    /// The victim's state did not allow it.
    Refused,
}

/// All state shared by the threads of one run.
#[derive(Debug)]
pub struct Shared<'r> {
    pub requests: &'r [Request],
    pub plan: &'r Plan,
    pub conflicts: &'r Conflicts,
    pub workers: Vec<CachePadded<WorkerSlot>>,
    /// The classes' arrival cycles (000 Algorithm 8 `sync`, the busy-wait
    /// marks of Algorithm 3).
    pub marks: CycleMarks,
    /// Per-ready-queue bound (I1).
    pub capacity: usize,
    /// Requests executed by a thread that stole them (for the stealing
    /// throughput). `Relaxed`: read only after the run's threads joined.
    pub stolen_executed: AtomicU64,
}

impl<'r> Shared<'r> {
    pub fn new(
        requests: &'r [Request],
        plan: &'r Plan,
        conflicts: &'r Conflicts,
        capacity: usize,
    ) -> Self {
        Shared {
            requests,
            plan,
            conflicts,
            workers: (0..plan.threads())
                .map(|_| CachePadded::new(WorkerSlot::new(plan.threads())))
                .collect(),
            marks: CycleMarks::new(plan),
            capacity: capacity.max(1),
            stolen_executed: AtomicU64::new(0),
        }
    }

    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// Algorithm 6 for one target thread: append `req` to `t`'s ready queue
    /// and raise the ready flag if it is sequential; returns the new queue
    /// length.
    ///
    /// At the bound (I1) the scheduler blocks on `t`'s `space` condition
    /// variable: it reports [`EnqueueStep::Blocked`] once (to start its
    /// trace wait), marks itself waiting and sleeps; whoever empties the
    /// queue (the worker's take, a steal) notifies it. No wake-up is lost:
    /// the check, the mark and the sleep happen under the lock the emptier
    /// holds while it empties and notifies, and `Condvar::wait` releases it
    /// atomically.
    ///
    /// [`EnqueueStep::Done`] is reported inside the critical section, so the
    /// `Enqueued` event recorded then takes its trace seq before the worker
    /// can take the request and record `Dequeued`.
    pub fn enqueue(&self, t: usize, req: RequestId, mut step: impl FnMut(EnqueueStep)) -> usize {
        let class = self.requests[req as usize].class;
        let w = &self.workers[t];
        let mut st = w.ready.lock().unwrap_or_else(|p| p.into_inner());
        let mut wakeups = None;
        while st.queue.len() >= self.capacity {
            if wakeups.is_none() {
                step(EnqueueStep::Blocked);
            }
            st.producer_waiting = true;
            st = w.space.wait(st).unwrap_or_else(|p| p.into_inner());
            *wakeups.get_or_insert(0u32) += 1;
        }
        st.producer_waiting = false;
        st.queue.push_back(req);
        st.classes.insert(class);
        if self.plan.class(class).sequential {
            st.seq_pending += 1;
        }
        w.publish(&st);
        let len = st.queue.len();
        step(EnqueueStep::Done { len, wakeups });
        len
    }

    /// The scheduler is done: wake every worker out of its idle loop.
    pub fn close_all(&self) {
        for w in &self.workers {
            w.lock().closed = true;
        }
    }

    /// Algorithm 7 lines 5-10: move the whole ready queue into `exec`
    /// (which must be empty), the ready flag into the exec flag, and clear
    /// both ready fields, in one critical section.
    pub fn transfer(&self, t: usize, exec: &mut VecDeque<RequestId>) -> Transfer {
        debug_assert!(exec.is_empty());
        let w = &self.workers[t];
        let mut st = w.lock();
        std::mem::swap(&mut st.queue, exec);
        st.exec_flag = st.seq_pending > 0;
        st.seq_pending = 0;
        st.classes = ClassSet::default();
        w.publish(&st);
        st.wake_producer(&w.space);
        if !exec.is_empty() {
            Transfer::Batch { seq: st.exec_flag }
        } else if st.closed {
            Transfer::Closed
        } else {
            Transfer::Empty
        }
    }

    /// Validation (Algorithm 8 lines 53-57) on the guarded state: both flags
    /// clear, something to take, and — when the stealer synchronizes on
    /// class `sync` — nothing that conflicts with it.
    pub fn valid(&self, st: &ReadyState, sync: Option<ClassId>) -> bool {
        st.seq_pending == 0
            && !st.exec_flag
            && !st.queue.is_empty()
            && sync.is_none_or(|c| !st.classes.intersects(self.conflicts.of(c)))
    }

    /// The optimistic pre-validation on the hints, without the lock
    /// (Algorithm 8 line 39).
    pub fn prevalid(&self, v: usize, sync: Option<ClassId>) -> bool {
        let w = &self.workers[v];
        // Relaxed: hints (see `WorkerSlot`); the locked check decides.
        if w.hint_ready_flag.load(Ordering::Relaxed)
            || w.hint_exec_flag.load(Ordering::Relaxed)
            || w.hint_len.load(Ordering::Relaxed) == 0
        {
            return false;
        }
        match sync {
            None => true,
            Some(c) => {
                let mut present = ClassSet::default();
                for (i, h) in w.hint_classes.iter().enumerate() {
                    present.0[i] = h.load(Ordering::Relaxed);
                }
                !present.intersects(self.conflicts.of(c))
            }
        }
    }

    /// Algorithm 7 lines 29-36: under `v`'s lock, if the state is valid,
    /// take its whole ready queue into `into` (which must be empty: the
    /// queues are swapped, O(1) whatever the queue's length, as in
    /// [`Shared::transfer`]) and raise `v.markers[s]`.
    /// `traced` runs inside the critical section with the stolen requests,
    /// so the `Steal` event it records is ordered before anything the
    /// victim records after its next take (e.g. its marker wait).
    /// `pointed`: the conductor already made the lock's point
    /// (`sync::lock_scan`).
    pub fn steal_locked(
        &self,
        s: usize,
        v: usize,
        sync: Option<ClassId>,
        pointed: bool,
        into: &mut VecDeque<RequestId>,
        traced: impl FnOnce(&VecDeque<RequestId>),
    ) -> StealOutcome {
        debug_assert!(into.is_empty());
        let w = &self.workers[v];
        let mut st = if pointed {
            w.lock_after_point()
        } else {
            w.lock()
        };
        if !self.valid(&st, sync) {
            return StealOutcome::Refused;
        }
        std::mem::swap(&mut st.queue, into);
        st.classes = ClassSet::default();
        // Relaxed is enough for raising the marker: the victim can only
        // need it for a sequential request it takes in a later transfer,
        // and that transfer locks this same mutex after we unlock it, so
        // the lock's release/acquire orders this store before its wait.
        crate::sync::charge_store(&w.markers[s]);
        w.markers[s].store(true, Ordering::Relaxed);
        w.publish(&st);
        st.wake_producer(&w.space);
        traced(into);
        StealOutcome::Stolen
    }

    /// For `sync::lock_scan`: the key of `v`'s queue lock if it is free
    /// and a locked validation would refuse the steal now (a read under
    /// std's `try_lock`, no point); `None` if the steal could succeed or
    /// the lock is held. Virtual cores only (`None` under loom, shuttle).
    pub fn refusal(&self, v: usize, sync: Option<ClassId>) -> Option<usize> {
        #[cfg(not(any(loom, shuttle)))]
        {
            let m = &self.workers[v].ready;
            let refused = m.peek(|st| !self.valid(st, sync))?;
            refused.then(|| m.key())
        }
        #[cfg(any(loom, shuttle))]
        {
            let _ = (v, sync);
            None
        }
    }

    /// The stealer finished what it took from `v` (Algorithm 7 line 40).
    pub fn clear_marker(&self, s: usize, v: usize) {
        // Release: the stolen requests' executions (and their effects on the
        // application) happen-before the victim's Acquire load that sees
        // the marker clear, hence before its next sequential request.
        crate::sync::charge_store(&self.workers[v].markers[s]);
        self.workers[v].markers[s].store(false, Ordering::Release);
    }

    /// Stealers that still hold work taken from `t`.
    pub fn marked(&self, t: usize) -> bool {
        // Acquire: pairs with `clear_marker`'s Release (see there).
        self.workers[t]
            .markers
            .iter()
            .any(|m| m.load(Ordering::Acquire))
    }
}
