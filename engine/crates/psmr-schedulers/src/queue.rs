//! A bounded FIFO queue per worker: one producer (the delivering thread),
//! one consumer (the worker), blocking on both ends.
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
//! Why no wake-up is lost: the flags `consumer_waiting` / `producer_waiting`
//! are set and cleared under the same mutex that guards the items, and each
//! side checks the condition and starts waiting without releasing the mutex
//! in between (`Condvar::wait` releases it atomically). A push therefore
//! either happens before the consumer's check (which then sees the item) or
//! after the consumer set its flag (and the push notifies).

use std::collections::VecDeque;

use crate::sync::{Condvar, Mutex};

/// Lock the queue state. A poisoned queue means a worker panicked; the
/// items are still consistent (every critical section is one push or pop),
/// so go on.
macro_rules! lock {
    ($q:expr) => {
        $q.state.lock().unwrap_or_else(|p| p.into_inner())
    };
}

#[derive(Debug)]
struct State<T> {
    items: VecDeque<T>,
    closed: bool,
    consumer_waiting: bool,
    producer_waiting: bool,
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
    state: Mutex<State<T>>,
    not_empty: Condvar,
    not_full: Condvar,
}

impl<T> BoundedFifo<T> {
    /// A queue that holds at most `capacity` items (0 is raised to 1).
    pub fn new(capacity: usize) -> Self {
        let capacity = capacity.max(1);
        BoundedFifo {
            capacity,
            state: Mutex::new(State {
                // Do not preallocate huge capacities: grow as needed.
                items: VecDeque::with_capacity(capacity.min(1024)),
                closed: false,
                consumer_waiting: false,
                producer_waiting: false,
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
        let mut st = lock!(self);
        let mut blocked = false;
        while st.items.len() >= self.capacity {
            if !blocked {
                on(PushEvent::Blocked);
                blocked = true;
            }
            st.producer_waiting = true;
            st = self.not_full.wait(st).unwrap_or_else(|p| p.into_inner());
        }
        st.producer_waiting = false;
        st.items.push_back(item);
        let len = st.items.len();
        on(PushEvent::Pushed { len });
        if st.consumer_waiting {
            st.consumer_waiting = false;
            self.not_empty.notify_one();
        }
        len
    }

    /// Take the oldest item, blocking while the queue is empty and open.
    /// `None` once the queue is closed and drained. `on_block` runs once,
    /// under the lock, just before the first block.
    pub fn pop(&self, mut on_block: impl FnMut()) -> Option<T> {
        let mut st = lock!(self);
        let mut blocked = false;
        loop {
            if let Some(item) = st.items.pop_front() {
                if st.producer_waiting {
                    st.producer_waiting = false;
                    self.not_full.notify_one();
                }
                return Some(item);
            }
            if st.closed {
                return None;
            }
            if !blocked {
                on_block();
                blocked = true;
            }
            st.consumer_waiting = true;
            st = self.not_empty.wait(st).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// No more pushes: a blocked consumer wakes up, drains what is left,
    /// then gets `None`.
    pub fn close(&self) {
        let mut st = lock!(self);
        st.closed = true;
        st.consumer_waiting = false;
        self.not_empty.notify_all();
    }

    /// Items queued now (a snapshot, for sampling).
    pub fn len(&self) -> usize {
        lock!(self).items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

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

    #[test]
    fn consumer_blocks_until_a_push_arrives() {
        let q = BoundedFifo::new(8);
        let blocked = AtomicUsize::new(0);
        std::thread::scope(|s| {
            let c = s.spawn(|| {
                q.pop(|| {
                    blocked.fetch_add(1, Ordering::Relaxed);
                })
            });
            // Give the consumer time to block (correctness does not depend
            // on it: if it has not blocked yet it simply finds the item).
            std::thread::sleep(std::time::Duration::from_millis(20));
            q.push(7, |_| {});
            assert_eq!(c.join().unwrap(), Some(7));
        });
        assert!(blocked.load(Ordering::Relaxed) <= 1, "on_block runs once");
    }
}
