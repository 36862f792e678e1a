//! Loom models of [`BoundedFifo`] with several producers and several
//! consumers: every interleaving (up to the preemption bound) delivers each
//! item exactly once and leaves no thread blocked; loom fails a model in
//! which a thread waits forever (a lost wake-up). Each model has at most
//! three threads, so that the search stays exhaustive within seconds.
//!
//! With one waiting flag per side instead of waiter counts, the first model
//! finds the schedule where two producers are blocked at once and only one
//! is ever woken, and the second the schedule where two consumers are
//! blocked and the second push wakes nobody.

use super::BoundedFifo;
use crate::sync::{Arc, Mutex};

fn builder() -> loom::model::Builder {
    let mut b = loom::model::Builder::new();
    b.preemption_bound = Some(3);
    b
}

/// Two producers block on a full queue of capacity 1; one consumer takes
/// all three items.
#[test]
fn loom_queue_two_blocked_producers_are_both_woken() {
    builder().check(|| {
        let q = Arc::new(BoundedFifo::new(1));
        q.push(0u32, |_| {});
        let producers: Vec<_> = [1u32, 2]
            .into_iter()
            .map(|x| {
                let q = q.clone();
                loom::thread::spawn(move || q.push(x, |_| {}))
            })
            .collect();
        let mut got: Vec<u32> = (0..3).map(|_| q.pop(|| {}).unwrap()).collect();
        for p in producers {
            p.join().unwrap();
        }
        got.sort_unstable();
        assert_eq!(got, vec![0, 1, 2]);
    });
}

/// Two consumers block on an empty queue; one producer pushes two items;
/// each consumer takes one.
#[test]
fn loom_queue_two_blocked_consumers_are_both_woken() {
    builder().check(|| {
        let q = Arc::new(BoundedFifo::new(2));
        let got = Arc::new(Mutex::new(Vec::new()));
        let consumers: Vec<_> = (0..2)
            .map(|_| {
                let (q, got) = (q.clone(), got.clone());
                loom::thread::spawn(move || {
                    let x = q.pop(|| {}).unwrap();
                    got.lock().unwrap().push(x);
                })
            })
            .collect();
        q.push(1u32, |_| {});
        q.push(2u32, |_| {});
        for c in consumers {
            c.join().unwrap();
        }
        let mut got = got.lock().unwrap().clone();
        got.sort_unstable();
        assert_eq!(got, vec![1, 2]);
    });
}

/// The bounded queue at its bound: capacity 1, the producer pushes three
/// items while the consumer pops; every item arrives once, in order, and
/// nobody sleeps forever (loom fails the model on a lost wake-up).
#[test]
fn loom_queue_capacity_one_loses_no_item_and_no_wakeup() {
    builder().check(|| {
        let q = Arc::new(BoundedFifo::new(1));
        let consumer = {
            let q = q.clone();
            loom::thread::spawn(move || {
                let mut got = Vec::new();
                while let Some(x) = q.pop(|| {}) {
                    got.push(x);
                }
                got
            })
        };
        for i in 0..3u32 {
            let len = q.push(i, |_| {});
            assert!(len <= 1);
        }
        q.close();
        assert_eq!(consumer.join().unwrap(), vec![0, 1, 2]);
    });
}
