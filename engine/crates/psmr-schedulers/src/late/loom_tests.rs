//! Loom model of CBASE's graph: the real [`Dag`] insert, take and remove
//! and the real [`worker_loop`], compiled against loom's mutex and
//! condition variables (`crate::sync`). The model's main thread is the
//! scheduler, inserting while two workers take, execute and remove.
//!
//! Run (seconds in release mode):
//!
//! ```text
//! RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=engine/target/loom \
//!     cargo test -p psmr-schedulers --release loom_late
//! ```
//!
//! Over every interleaving loom explores, the model asserts:
//! * conservation: every request executes exactly once;
//! * order: per shard, writes apply in delivery order and every read sees
//!   exactly the writes delivered before it;
//! * no data race: each shard is a `loom::cell::UnsafeCell`, so loom fails
//!   the model if two conflicting executions are not ordered by
//!   happens-before through the graph lock;
//! * no deadlock and no lost wake-up: loom fails a model in which every
//!   thread blocks (a full graph with bound 1 makes the scheduler wait for
//!   a removal, and idle workers wait for a ready node or the end).

use loom::cell::UnsafeCell;
use loom::sync::atomic::{AtomicU32, Ordering};
use loom::sync::Arc;
use psmr_core::{ClassId, RequestId};

use super::dag::{worker_loop, Dag};
use crate::probe::Probe;

/// A model request: the shard it touches and whether it writes.
type Req = (usize, bool);

struct Model {
    shards: Vec<UnsafeCell<u32>>,
    /// Per request: writes it saw on its shard + 1 (0 = not run).
    seen: Vec<AtomicU32>,
    executed: Vec<AtomicU32>,
}

struct ModelProbe {
    m: Arc<Model>,
    requests: &'static [Req],
}

impl Probe for ModelProbe {
    fn execute(&mut self, id: RequestId, _class: ClassId) {
        let m = &self.m;
        // Relaxed: read only after every thread was joined.
        m.executed[id as usize].fetch_add(1, Ordering::Relaxed);
        let (shard, write) = self.requests[id as usize];
        let seen = if write {
            // SAFETY: loom checks this claim: it fails the model if this
            // write is not ordered by happens-before with every other
            // access to the cell.
            m.shards[shard].with_mut(|w| unsafe {
                *w += 1;
                *w
            })
        } else {
            // SAFETY: as above, checked by loom.
            m.shards[shard].with(|w| unsafe { *w + 1 })
        };
        m.seen[id as usize].store(seen, Ordering::Relaxed);
    }
}

/// Writes per shard seen by each request in delivery order.
fn expected(requests: &[Req]) -> Vec<u32> {
    let mut applied = [0u32; 4];
    requests
        .iter()
        .map(|&(shard, write)| {
            if write {
                applied[shard] += 1;
                applied[shard]
            } else {
                applied[shard] + 1
            }
        })
        .collect()
}

fn conflicts(a: Req, b: Req) -> bool {
    a.0 == b.0 && (a.1 || b.1)
}

/// One model run: insert `requests` into a graph of `bound`, two workers.
fn run_model(requests: &'static [Req], bound: usize, broken: bool) {
    let dag = Arc::new(Dag::new(bound).ignoring_conflicts(broken));
    let model = Arc::new(Model {
        shards: (0..2).map(|_| UnsafeCell::new(0)).collect(),
        seen: requests.iter().map(|_| AtomicU32::new(0)).collect(),
        executed: requests.iter().map(|_| AtomicU32::new(0)).collect(),
    });
    let handles: Vec<_> = (0..2)
        .map(|_| {
            let (dag, model) = (dag.clone(), model.clone());
            loom::thread::spawn(move || {
                let mut probe = ModelProbe { m: model, requests };
                worker_loop(&dag, &mut probe, |_| 0);
            })
        })
        .collect();
    let mut probe = ModelProbe {
        m: model.clone(),
        requests,
    };
    for (id, &r) in requests.iter().enumerate() {
        dag.insert(
            id as RequestId,
            |other| conflicts(requests[other as usize], r),
            &mut probe,
        );
    }
    dag.close();
    for h in handles {
        h.join().unwrap();
    }
    for (i, c) in model.executed.iter().enumerate() {
        assert_eq!(c.load(Ordering::Relaxed), 1, "request {i} executed once");
    }
    let seen: Vec<u32> = model
        .seen
        .iter()
        .map(|s| s.load(Ordering::Relaxed))
        .collect();
    assert_eq!(
        seen,
        expected(requests),
        "each request saw the writes before it"
    );
}

fn builder() -> loom::model::Builder {
    let mut b = loom::model::Builder::new();
    if std::env::var_os("LOOM_MAX_PREEMPTIONS").is_none() {
        b.preemption_bound = Some(2);
    }
    b
}

/// A write, a read of the same shard, an independent write: the read must
/// wait for the first write; the last one may run beside either.
const STREAM: &[Req] = &[(0, true), (0, false), (1, true)];

#[test]
fn loom_late_graph_orders_conflicts_with_room() {
    builder().check(|| run_model(STREAM, 3, false));
}

/// Bound 1: the scheduler blocks on the full graph before every insert but
/// the first and must be woken by each removal.
#[test]
fn loom_late_full_graph_blocks_and_wakes_the_scheduler() {
    builder().check(|| run_model(STREAM, 1, false));
}

/// The model has teeth: a graph without edges lets the read run before, or
/// during, the write it conflicts with.
#[test]
fn loom_late_graph_without_edges_is_caught() {
    let caught = std::panic::catch_unwind(|| builder().check(|| run_model(STREAM, 3, true)));
    assert!(caught.is_err(), "loom found no bad interleaving");
}
