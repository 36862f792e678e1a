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

use loom::sync::Arc;
use psmr_core::{ClassId, RequestId};

use super::dag::{worker_loop, Dag};
use crate::loom_model::{builder, expected_seen, Replica};
use crate::probe::Probe;

/// A model request: the shard it touches and whether it writes.
type Req = (usize, bool);

struct ModelProbe {
    m: Arc<Replica>,
    requests: &'static [Req],
}

impl Probe for ModelProbe {
    fn execute(&mut self, id: RequestId, _class: ClassId) {
        let (shard, write) = self.requests[id as usize];
        self.m.execute(id, shard, write);
    }
}

fn conflicts(a: Req, b: Req) -> bool {
    a.0 == b.0 && (a.1 || b.1)
}

/// One model run: insert `requests` into a graph of `bound`, two workers.
fn run_model(requests: &'static [Req], bound: usize, broken: bool) {
    let dag = Arc::new(Dag::new(bound).ignoring_conflicts(broken));
    let model = Arc::new(Replica::new(2, requests.len()));
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
    let ops = (0..)
        .zip(requests)
        .map(|(id, &(shard, write))| (id, shard, write));
    model.check(&expected_seen(requests.len(), ops));
}

/// A write, a read of the same shard, an independent write: the read must
/// wait for the first write; the last one may run beside either.
const STREAM: &[Req] = &[(0, true), (0, false), (1, true)];

#[test]
fn loom_late_graph_orders_conflicts_with_room() {
    builder(2).check(|| run_model(STREAM, 3, false));
}

/// Bound 1: the scheduler blocks on the full graph before every insert but
/// the first and must be woken by each removal.
#[test]
fn loom_late_full_graph_blocks_and_wakes_the_scheduler() {
    builder(2).check(|| run_model(STREAM, 1, false));
}

/// The model has teeth: a graph without edges lets the read run before, or
/// during, the write it conflicts with.
#[test]
fn loom_late_graph_without_edges_is_caught() {
    let caught = std::panic::catch_unwind(|| builder(2).check(|| run_model(STREAM, 3, true)));
    assert!(caught.is_err(), "loom found no bad interleaving");
}
