//! Loom models of partitioned execution: the real [`Router`] routes, the
//! real [`worker_loop`] runs on two model threads, and every interleaving
//! (within the preemption bound) must execute each request exactly once,
//! with requests that share a key never overlapping and in delivery order.
//!
//! The stream: `r0` writes key 0 (worker 0), `r1` writes key 1 (worker 1),
//! then a map switch swaps the two keys' owners, then `r2` writes key 0 (now
//! on worker 1), `r3` writes key 1 (now on worker 0), and `r4` scans keys
//! 0-1 (a sync on both workers, worker 0 executes). Without the switch's
//! sync, worker 1 can run `r2` while worker 0 still runs `r0`: the second
//! model checks that loom finds that schedule.

use super::keys::PartitionMap;
use super::worker::{worker_loop, Cmd, Router};
use crate::probe::Probe;
use crate::queue::BoundedFifo;
use crate::sync::{Arc, Mutex};
use psmr_core::{ClassId, RequestId};

/// Keys (as index ranges `[start, end)`) of r0..r4.
const KEYS: [(u32, u32); 5] = [(0, 1), (1, 2), (0, 1), (1, 2), (0, 2)];

/// Logs the start and end of each execution, with a yield between them so
/// loom can interleave the other worker inside an execution.
struct LogProbe {
    log: Arc<Mutex<Vec<(RequestId, bool)>>>,
}

impl Probe for LogProbe {
    fn execute(&mut self, req: RequestId, _class: ClassId) {
        self.log.lock().unwrap().push((req, true));
        loom::thread::yield_now();
        self.log.lock().unwrap().push((req, false));
    }
}

fn builder() -> loom::model::Builder {
    let mut b = loom::model::Builder::new();
    b.preemption_bound = Some(2);
    b
}

/// Route the stream and run the two workers; returns the execution log.
fn run(sync_on_switch: bool) -> Vec<(RequestId, bool)> {
    let queues: Arc<[BoundedFifo<Cmd>; 2]> = Arc::new([BoundedFifo::new(4), BoundedFifo::new(4)]);
    let log = Arc::new(Mutex::new(Vec::new()));
    let workers: Vec<_> = (0..2u16)
        .map(|w| {
            let (queues, log) = (queues.clone(), log.clone());
            loom::thread::spawn(move || {
                let mut probe = LogProbe { log };
                worker_loop(w, &queues[w as usize], &mut probe, |_| {});
            })
        })
        .collect();
    let mut router = Router::new(PartitionMap::new(2, 2));
    router.sync_on_switch = sync_on_switch;
    let mut push = |to: u16, cmd: Cmd| {
        queues[to as usize].push(cmd, |_| {});
    };
    router.dispatch(0, 0, &[KEYS[0]], &mut push);
    router.dispatch(1, 0, &[KEYS[1]], &mut push);
    // Install the swapped map, as `Shared::install` does.
    router.map.set(0, 1);
    router.map.set(1, 0);
    router.map.epoch += 1;
    router.switch(1, &mut push);
    router.dispatch(2, 0, &[KEYS[2]], &mut push);
    router.dispatch(3, 0, &[KEYS[3]], &mut push);
    router.dispatch(4, 0, &[KEYS[4]], &mut push);
    for q in queues.iter() {
        q.close();
    }
    for w in workers {
        w.join().unwrap();
    }
    let log = log.lock().unwrap().clone();
    log
}

/// Each request ran once; requests sharing a key did not overlap and kept
/// delivery order.
fn check(log: &[(RequestId, bool)]) {
    let at = |r: RequestId, start: bool| {
        let found: Vec<usize> = (0..log.len()).filter(|&i| log[i] == (r, start)).collect();
        assert_eq!(
            found.len(),
            1,
            "request {r} ran {} times: {log:?}",
            found.len()
        );
        found[0]
    };
    let shares = |a: usize, b: usize| KEYS[a].0 < KEYS[b].1 && KEYS[b].0 < KEYS[a].1;
    for a in 0..KEYS.len() {
        for b in a + 1..KEYS.len() {
            if shares(a, b) {
                assert!(
                    at(a as RequestId, false) < at(b as RequestId, true),
                    "r{b} started before r{a} ended: {log:?}"
                );
            }
        }
    }
}

#[test]
fn loom_repart_map_switch_and_sync_keep_conflicting_requests_ordered() {
    builder().check(|| check(&run(true)));
}

/// The fault-injection variant's bug, found by the model: without the
/// switch's sync the moved key's new owner does not wait for the old one.
#[test]
#[should_panic(expected = "started before")]
fn loom_repart_switch_without_sync_reorders() {
    builder().check(|| check(&run(false)));
}
