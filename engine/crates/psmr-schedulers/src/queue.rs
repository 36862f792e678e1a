//! A bounded blocking FIFO queue: per worker in the early family (one
//! producer, the delivering thread; one consumer, the worker), and safe for
//! several producers and several consumers (event runtimes, where any core
//! registers into any core's queue).
//!
//! The early-scheduling family (paper 003 section 4.3) gives every worker
//! its own input queue, taken in FIFO order. Here each queue is a
//! `Mutex<VecDeque>` with two condition variables, which works both
//! natively and in the browser (workers there are Web Workers, where a
//! blocking wait compiles to `memory.atomic.wait`). It is built on
//! [`crate::sync`], so the model checkers can drive it too.
//!
//! Bound: at most `capacity` items (>= 1). A producer that finds the queue
//! full blocks until the consumer takes one (back-pressure: the paper's
//! queues are unbounded, ours are not, so a slow worker slows the
//! scheduler instead of growing memory). A consumer that finds the queue
//! empty blocks until an item arrives or the queue is closed.
//!
//! Why no wake-up is lost, with any number of producers and consumers:
//! `consumers_waiting` / `producers_waiting` count the threads blocked on
//! each condition variable; they change only under the mutex that guards
//! the items, and a thread checks its condition and starts waiting without
//! releasing the mutex in between (`Condvar::wait` releases it atomically).
//! Every push makes one item available and wakes one waiting consumer if
//! any is counted; every pop frees one place and wakes one waiting
//! producer. A woken thread is still counted until it re-acquires the
//! mutex, so a second push before it runs wakes a *second* consumer (a
//! single flag would have been cleared by the first wake-up, leaving the
//! second blocked forever: the bug the counts fix). A thread that wakes and
//! finds its condition false again (another thread took the item) waits
//! again, counted again. (Model-checked with two producers and two
//! consumers: `queue_loom_tests.rs`.)
//!
//! No needless notify: `consumers_woken` / `producers_woken` count the
//! waiting threads a notify has already woken that have not yet re-taken
//! the mutex, and a push (pop) notifies only while the waiting outnumber
//! them. Without it, a woken consumer that does not get a CPU at once (on
//! Linux the woken thread often queues behind its waker on the waker's
//! CPU) stays counted, and every push until it runs makes a notify that
//! wakes nobody: std's `notify_one` is a futex-wake system call even then,
//! about one a request on early's delivering thread when its worker keeps
//! up (docs/benchmarks/virtual.md, "Early's deliverer (tenth stop)").
//! Still no lost wake-up: a returning waiter takes one off the woken count
//! however it was woken (saturating), and a notify adds one only when a
//! waiter is counted beyond it, so the woken count never exceeds the
//! waiters that are runnable but have not re-taken the mutex. So when a
//! push finds waiting <= woken, every counted consumer is already on its
//! way back to the mutex and will check the queue (and pop until it is
//! empty) before it waits again; the same holds for producers and the
//! resume mark. `close` wakes all and counts them all woken.
//!
//! Resume mark ([`BoundedFifo::with_resume_at`]): a consumer wakes a
//! blocked producer only once its pop leaves at most `resume_at` items
//! (`capacity - 1` by default: every pop that frees a place). A full
//! queue whose producer resumes at every pop costs one wake-up (a futex
//! wake natively, `Atomics.notify` in the browser) and one context switch
//! per item; with the mark at half the capacity the producer sleeps until
//! half the queue is free, then refills it in one go. Still no lost
//! wake-up: a producer waits only while the queue is full, and the consumer
//! keeps popping (it never waits for the producer before the items it
//! already holds are done, see docs/protocols/queue-and-roles.md), so the
//! length passes the mark, and every pop at or under it wakes one waiting
//! producer. A producer that blocked waits for the mark itself (not for
//! one free place), so the mark holds even across spurious wake-ups.

use std::collections::VecDeque;

use crate::sync::{charge_handoff, Condvar, Mutex};
use psmr_core::trace::{EventKind, Recorder};
use psmr_core::{RequestId, ThreadRef, WaitReason};

/// Lock the queue state. A poisoned queue means a worker panicked; the
/// items are still consistent (every critical section is one push or pop),
/// so go on.
macro_rules! lock {
    ($q:expr) => {
        $q.state.lock().unwrap_or_else(|p| p.into_inner())
    };
}

/// Lock the queue state for one side (`push`, `pop` or `sample`),
/// counting the lock and whether it was contended (see [`SyncCounts`]).
#[cfg(all(any(test, feature = "sync-counters"), not(any(loom, shuttle))))]
macro_rules! lock_counted {
    ($q:expr, $side:ident) => {{
        let (r, contended) = $q.state.lock_noting_contention();
        let mut st = r.unwrap_or_else(|p| p.into_inner());
        st.counts.$side.locks += 1;
        st.counts.$side.contended += u64::from(contended);
        st
    }};
}

/// A build that does not count: [`lock!`].
#[cfg(not(all(any(test, feature = "sync-counters"), not(any(loom, shuttle)))))]
macro_rules! lock_counted {
    ($q:expr, $side:ident) => {
        lock!($q)
    };
}

/// Bump one count of the state's [`SyncCounts`].
#[cfg(all(any(test, feature = "sync-counters"), not(any(loom, shuttle))))]
macro_rules! count {
    ($st:expr, $side:ident . $field:ident) => {
        $st.counts.$side.$field += 1
    };
}

/// A build that does not count: nothing.
#[cfg(not(all(any(test, feature = "sync-counters"), not(any(loom, shuttle)))))]
macro_rules! count {
    ($st:expr, $side:ident . $field:ident) => {
        ()
    };
}

/// One side's synchronization on a queue (counting builds only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideCounts {
    /// `lock` calls on the queue (a condition variable's re-lock after a
    /// wait is not one).
    pub locks: u64,
    /// Of those, the ones that found it held by another thread.
    pub contended: u64,
    /// Waits on the side's condition variable (a futex wait natively, a
    /// block on virtual cores; a spurious or lost-race wake-up waits again
    /// and counts again).
    pub sleeps: u64,
    /// `notify_one` calls on the other side's condition variable (each one
    /// has a counted waiter, so each is a wake of a sleeping thread).
    pub notifies: u64,
}

/// What a queue's producers (`push`), consumers (`pop`) and samplers
/// (`len`) did to synchronize, counted under the queue's lock, so the
/// counting costs no atomic operation beyond the lock's own: built only
/// with psmr-schedulers' `sync-counters` feature (off by default and in
/// every shipped build, where the fields and the counting are compiled
/// out), never under loom or shuttle. The same code counts on real threads
/// and on virtual cores, which is what makes the two comparable
/// (docs/benchmarks/virtual.md, "Early's deliverer").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SyncCounts {
    pub push: SideCounts,
    pub pop: SideCounts,
    pub sample: SideCounts,
}

impl SyncCounts {
    /// The sum of two queues' counts.
    pub fn add(&mut self, o: &SyncCounts) {
        for (a, b) in [
            (&mut self.push, &o.push),
            (&mut self.pop, &o.pop),
            (&mut self.sample, &o.sample),
        ] {
            a.locks += b.locks;
            a.contended += b.contended;
            a.sleeps += b.sleeps;
            a.notifies += b.notifies;
        }
    }

    /// The counts as named numbers (`sync_push_locks`, ...), for a run's
    /// `extra` output.
    pub fn named(&self) -> Vec<(String, f64)> {
        let mut v = Vec::new();
        for (side, c) in [
            ("push", &self.push),
            ("pop", &self.pop),
            ("sample", &self.sample),
        ] {
            for (what, n) in [
                ("locks", c.locks),
                ("contended", c.contended),
                ("sleeps", c.sleeps),
                ("notifies", c.notifies),
            ] {
                v.push((format!("sync_{side}_{what}"), n as f64));
            }
        }
        v
    }
}

#[derive(Debug)]
struct State<T> {
    items: VecDeque<T>,
    closed: bool,
    consumers_waiting: u32,
    producers_waiting: u32,
    /// Of the waiting consumers (producers), how many a notify has already
    /// woken and have not yet re-taken the lock (at most: a waiter that
    /// returns from its wait takes one off whether a notify or a spurious
    /// wake-up woke it). A push (pop) notifies only while the waiting
    /// outnumber the woken: see the module comment, "No needless notify".
    consumers_woken: u32,
    producers_woken: u32,
    #[cfg(all(any(test, feature = "sync-counters"), not(any(loom, shuttle))))]
    counts: SyncCounts,
}

/// What [`BoundedFifo::push`] reports to its callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PushEvent {
    /// The queue is full: the producer is about to block.
    Blocked,
    /// The item is in; the queue now holds `len` items.
    Pushed { len: usize },
}

/// A bounded blocking FIFO; see the module comment.
#[derive(Debug)]
pub struct BoundedFifo<T> {
    capacity: usize,
    /// A pop wakes a waiting producer when it leaves at most this many
    /// items (`< capacity`).
    resume_at: usize,
    state: Mutex<State<T>>,
    not_empty: Condvar,
    not_full: Condvar,
}

impl<T> BoundedFifo<T> {
    /// A queue that holds at most `capacity` items (0 is raised to 1).
    pub fn new(capacity: usize) -> Self {
        Self::with_resume_at(capacity, usize::MAX)
    }

    /// A queue of `capacity` items whose blocked producers are woken only
    /// by a pop that leaves at most `resume_at` items (clamped below the
    /// capacity; see the module comment). Only for queues whose consumers
    /// never wait for the producer while they hold items (the early
    /// family's per-worker queues).
    pub fn with_resume_at(capacity: usize, resume_at: usize) -> Self {
        let capacity = capacity.max(1);
        BoundedFifo {
            capacity,
            resume_at: resume_at.min(capacity - 1),
            state: Mutex::new(State {
                // Do not preallocate huge capacities: grow as needed.
                items: VecDeque::with_capacity(capacity.min(1024)),
                closed: false,
                consumers_waiting: 0,
                producers_waiting: 0,
                consumers_woken: 0,
                producers_woken: 0,
                #[cfg(all(any(test, feature = "sync-counters"), not(any(loom, shuttle))))]
                counts: SyncCounts::default(),
            }),
            not_empty: Condvar::new(),
            not_full: Condvar::new(),
        }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Append `item`, blocking while the queue is full. `on` is told, under
    /// the queue's lock, [`PushEvent::Blocked`] once just before the first
    /// block and [`PushEvent::Pushed`] right after the item is in: an event
    /// recorded there is ordered before the consumer's pop of the item.
    /// Returns the queue length after the push.
    ///
    /// Pushing to a closed queue is a bug of the caller (the producer is
    /// the one who closes); the item is still queued and will be drained.
    pub fn push(&self, item: T, mut on: impl FnMut(PushEvent)) -> usize {
        let mut st = lock_counted!(self, push);
        let mut blocked = false;
        // Once blocked, wait for the resume mark (not just one free
        // place): a spurious wake-up does not end the wait early.
        while st.items.len() >= self.capacity || (blocked && st.items.len() > self.resume_at) {
            if !blocked {
                on(PushEvent::Blocked);
                blocked = true;
            }
            st.producers_waiting += 1;
            count!(st, push.sleeps);
            st = self.not_full.wait(st).unwrap_or_else(|p| p.into_inner());
            st.producers_waiting -= 1;
            st.producers_woken = st.producers_woken.saturating_sub(1);
        }
        st.items.push_back(item);
        let len = st.items.len();
        on(PushEvent::Pushed { len });
        if st.consumers_waiting > st.consumers_woken {
            st.consumers_woken += 1;
            count!(st, push.notifies);
            self.not_empty.notify_one();
        }
        len
    }

    /// [`push`](Self::push) by a producer that records: a block on the
    /// full queue is a `FullQueue` wait of `req` on thread `waits_on` (the
    /// queue's consumer), and `enqueued`, when it names the consumer, gets
    /// an `Enqueued` event once the item is in. Both are recorded under the
    /// queue's lock, so they come before the consumer's `Dequeued` of the
    /// item in seq order. Returns the time blocked, in ns.
    pub fn push_recorded(
        &self,
        item: T,
        rec: &mut Recorder<'_>,
        req: RequestId,
        waits_on: u32,
        enqueued: Option<ThreadRef>,
    ) -> u64 {
        let mut since: Option<u64> = None;
        let mut blocked = 0;
        self.push(item, |e| match e {
            PushEvent::Blocked => {
                since = Some(rec.wait_begin(WaitReason::FullQueue, req, waits_on))
            }
            PushEvent::Pushed { .. } => {
                if let Some(s) = since {
                    blocked = rec.now().saturating_sub(s);
                    rec.wait_done(WaitReason::FullQueue, req, s, 0);
                }
                if let Some(to) = enqueued {
                    rec.record(EventKind::Enqueued { req, to });
                }
            }
        });
        blocked
    }

    /// Take the oldest item, blocking while the queue is empty and open.
    /// `None` once the queue is closed and drained. `on_block` runs once,
    /// under the lock, just before the first block.
    pub fn pop(&self, mut on_block: impl FnMut()) -> Option<T> {
        let mut st = lock_counted!(self, pop);
        let mut blocked = false;
        loop {
            if let Some(item) = st.items.pop_front() {
                if st.producers_waiting > st.producers_woken && st.items.len() <= self.resume_at {
                    st.producers_woken += 1;
                    count!(st, pop.notifies);
                    self.not_full.notify_one();
                }
                charge_handoff();
                return Some(item);
            }
            if st.closed {
                return None;
            }
            if !blocked {
                on_block();
                blocked = true;
            }
            st.consumers_waiting += 1;
            count!(st, pop.sleeps);
            st = self.not_empty.wait(st).unwrap_or_else(|p| p.into_inner());
            st.consumers_waiting -= 1;
            st.consumers_woken = st.consumers_woken.saturating_sub(1);
        }
    }

    /// No more pushes: a blocked consumer wakes up, drains what is left,
    /// then gets `None`.
    pub fn close(&self) {
        let mut st = lock!(self);
        st.closed = true;
        st.consumers_woken = st.consumers_waiting;
        self.not_empty.notify_all();
    }

    /// Items queued now (a snapshot, for sampling).
    pub fn len(&self) -> usize {
        lock_counted!(self, sample).items.len()
    }

    /// This queue's synchronization counts so far (see [`SyncCounts`]).
    #[cfg(all(any(test, feature = "sync-counters"), not(any(loom, shuttle))))]
    pub fn sync_counts(&self) -> SyncCounts {
        lock!(self).counts
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(all(test, loom))]
#[path = "queue_loom_tests.rs"]
mod loom_tests;

#[cfg(all(test, not(loom), not(shuttle)))]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn fifo_order_and_close_after_drain() {
        let q = BoundedFifo::new(4);
        assert_eq!(q.push(1, |e| assert!(e != PushEvent::Blocked)), 1);
        assert_eq!(q.push(2, |e| assert!(e != PushEvent::Blocked)), 2);
        q.close();
        assert_eq!(q.pop(|| panic!("has items")), Some(1));
        assert_eq!(q.pop(|| panic!("has items")), Some(2));
        assert_eq!(q.pop(|| panic!("closed")), None);
    }

    /// A consumer a push has already woken, but that has not re-taken the
    /// lock yet, gets no second notify from the next push (each would be a
    /// futex-wake system call that wakes nobody). The waiting consumer is
    /// set in the state by hand, so the test does not depend on when a real
    /// thread would run; a `notify_one` with nobody waiting on the condvar
    /// is harmless.
    #[test]
    fn a_woken_consumer_is_not_notified_again_before_it_runs() {
        let q = BoundedFifo::new(8);
        lock!(q).consumers_waiting = 1;
        q.push(1, |_| {});
        q.push(2, |_| {});
        q.push(3, |_| {});
        assert_eq!(q.sync_counts().push.notifies, 1, "one waiter, one notify");
        // A second consumer blocks (by hand again): the next push wakes it.
        lock!(q).consumers_waiting = 2;
        q.push(4, |_| {});
        q.push(5, |_| {});
        assert_eq!(
            q.sync_counts().push.notifies,
            2,
            "two waiters, two notifies"
        );
    }

    /// The same on the producers' side: a pop at the resume mark wakes a
    /// blocked producer once, not again at every later pop before it runs.
    #[test]
    fn a_woken_producer_is_not_notified_again_before_it_runs() {
        let q = BoundedFifo::with_resume_at(4, 2);
        for i in 0..4u32 {
            q.push(i, |_| {});
        }
        lock!(q).producers_waiting = 1;
        for _ in 0..4 {
            q.pop(|| panic!("has items"));
        }
        // Pops leaving 2, 1 and 0 items are at or under the mark.
        assert_eq!(q.sync_counts().pop.notifies, 1);
    }

    #[test]
    fn capacity_zero_is_raised_to_one() {
        assert_eq!(BoundedFifo::<u8>::new(0).capacity(), 1);
    }

    /// At the bound: a producer pushing 1000 items through a queue of
    /// capacity 1 blocks (and says so), and the consumer still gets every
    /// item in order.
    #[test]
    fn producer_blocks_at_the_bound_and_nothing_is_lost() {
        let q = BoundedFifo::new(1);
        let blocks = AtomicUsize::new(0);
        let got = std::thread::scope(|s| {
            let consumer = s.spawn(|| {
                let mut got = Vec::new();
                while let Some(x) = q.pop(|| {}) {
                    got.push(x);
                }
                got
            });
            for i in 0..1000u32 {
                let len = q.push(i, |e| {
                    if e == PushEvent::Blocked {
                        blocks.fetch_add(1, Ordering::Relaxed);
                    }
                });
                assert!(len <= 1, "queue grew past its bound: {len}");
            }
            q.close();
            consumer.join().unwrap()
        });
        assert_eq!(got, (0..1000).collect::<Vec<_>>());
        // With capacity 1 the second push cannot succeed before a pop.
        assert!(blocks.load(Ordering::Relaxed) >= 1);
    }

    /// A blocked producer resumes only once a pop leaves `resume_at`
    /// items, then its item goes in after the ones already queued.
    #[test]
    fn a_blocked_producer_resumes_at_the_mark() {
        let q = BoundedFifo::with_resume_at(4, 1);
        for i in 0..4u32 {
            q.push(i, |e| assert!(e != PushEvent::Blocked));
        }
        let blocked = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|s| {
            let producer = s.spawn(|| {
                q.push(4, |e| {
                    if e == PushEvent::Blocked {
                        blocked.store(true, Ordering::Relaxed);
                    }
                })
            });
            while !blocked.load(Ordering::Relaxed) {
                std::thread::yield_now();
            }
            for (popped, left) in [(0, 3), (1, 2)] {
                assert_eq!(q.pop(|| panic!("has items")), Some(popped));
                // Give a wrong wake-up time to show (the assertion holds
                // whatever the timing when the queue is right).
                std::thread::sleep(std::time::Duration::from_millis(20));
                assert_eq!(q.len(), left, "the producer resumed above the mark");
            }
            assert_eq!(q.pop(|| panic!("has items")), Some(2));
            assert_eq!(producer.join().unwrap(), 2, "3 and the producer's 4");
        });
        q.close();
        assert_eq!(
            (q.pop(|| {}), q.pop(|| {}), q.pop(|| {})),
            (Some(3), Some(4), None)
        );
    }

    /// A consumer on an empty open queue blocks (telling `on_block` once)
    /// and stays blocked until a push arrives, then takes that item.
    #[test]
    fn consumer_blocks_until_a_push_arrives() {
        let q = BoundedFifo::new(8);
        let blocked = AtomicUsize::new(0);
        let (blocked_in_time, waited, got) = std::thread::scope(|s| {
            let c = s.spawn(|| {
                q.pop(|| {
                    blocked.fetch_add(1, Ordering::Relaxed);
                })
            });
            // `on_block` runs under the lock just before the consumer
            // waits, so once it has run the consumer is blocked for good
            // (until the push), whatever the timing.
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
            while blocked.load(Ordering::Relaxed) == 0
                && !c.is_finished()
                && std::time::Instant::now() < deadline
            {
                std::thread::yield_now();
            }
            let blocked_in_time = blocked.load(Ordering::Relaxed) == 1 && !c.is_finished();
            std::thread::sleep(std::time::Duration::from_millis(20));
            let waited = !c.is_finished();
            // Push in every case, so that a broken consumer still ends
            // and the assertions below report it.
            q.push(7, |_| {});
            (blocked_in_time, waited, c.join().unwrap())
        });
        assert!(
            blocked_in_time,
            "the consumer of an empty queue never blocked"
        );
        assert!(waited, "the consumer left without an item");
        assert_eq!(got, Some(7));
        assert_eq!(blocked.load(Ordering::Relaxed), 1, "on_block runs once");
    }

    /// Several producers and consumers through a tiny queue: every item
    /// arrives exactly once and nobody stays blocked.
    #[test]
    fn many_producers_and_consumers_lose_nothing() {
        let q = BoundedFifo::new(2);
        let got = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|s| {
            let consumers: Vec<_> = (0..3)
                .map(|_| {
                    s.spawn(|| {
                        while let Some(x) = q.pop(|| {}) {
                            got.lock().unwrap().push(x);
                        }
                    })
                })
                .collect();
            let producers: Vec<_> = (0..3u32)
                .map(|p| {
                    let q = &q;
                    s.spawn(move || {
                        for i in 0..2000u32 {
                            q.push(p * 10_000 + i, |_| {});
                        }
                    })
                })
                .collect();
            producers.into_iter().for_each(|h| h.join().unwrap());
            q.close();
            consumers.into_iter().for_each(|h| h.join().unwrap());
        });
        let mut got = got.into_inner().unwrap();
        got.sort_unstable();
        let mut want: Vec<u32> = (0..3u32)
            .flat_map(|p| (0..2000u32).map(move |i| p * 10_000 + i))
            .collect();
        want.sort_unstable();
        assert_eq!(got, want);
    }
}
