//! Loom model of PePaxos: the real commit path ([`Instances::commit`]),
//! graph builder ([`builder_thread`]: Tarjan, the `EXECUTING` state, the
//! counting semaphore, the SCC FIFO) and workers ([`worker_loop`]: the wait
//! for the SCCs an SCC depends on), compiled against loom's atomics, mutexes
//! and condition variables (`crate::sync`). The model's main thread commits
//! the instances one by one while the builder and two workers run.
//!
//! Run (seconds to a minute in release mode):
//!
//! ```text
//! RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=engine/target/loom \
//!     cargo test -p psmr-schedulers --release loom_pepaxos
//! ```
//!
//! Over every interleaving loom explores, each model asserts:
//! * no instance runs twice (conservation: each exactly once);
//! * none runs early: per cell, writes apply in the canonical order and
//!   every command sees exactly the writes canonically before it;
//! * no data race: each cell is a `loom::cell::UnsafeCell`, so loom fails
//!   the model if two conflicting executions are not ordered by
//!   happens-before (through the `EXECUTED`/group-done Release/Acquire);
//! * no deadlock: loom fails a model in which every thread blocks (a
//!   credit of two SCCs, a FIFO of two places, the builder's signal).

use loom::sync::Arc;
use psmr_core::stream::{commits_canonical, CommitTable};
use psmr_core::{ClassId, RequestId};

use super::graph::Instances;
use super::parallel::{builder_thread, worker_loop, Pool, WaitRule};
use crate::loom_model::{builder, expected_seen, Replica};
use crate::probe::Probe;
use crate::spec::SpinPolicy;

/// The model: every command writes one cell, `cell_of[command]`.
struct ModelProbe {
    m: Arc<Replica>,
    cell_of: &'static [usize],
}

impl Probe for ModelProbe {
    fn execute(&mut self, r: RequestId, _class: ClassId) {
        self.m.execute(r, self.cell_of[r as usize], true);
    }
}

/// A probe that records nothing (the builder's).
struct Quiet;
impl Probe for Quiet {
    fn execute(&mut self, _r: RequestId, _c: ClassId) {
        unreachable!("the builder does not execute")
    }
}

/// One command per instance.
fn table(deps: &[&[u32]], seqs: &[u64]) -> CommitTable {
    CommitTable::new((0..=deps.len() as u32).collect(), deps, seqs.to_vec())
}

/// What each command must see: its place among its cell's writes in the
/// canonical order.
fn expected(t: &CommitTable, cell_of: &[usize]) -> Vec<u32> {
    let (order, _) = commits_canonical(t);
    let ops = order.iter().map(|&r| (r, cell_of[r as usize], true));
    expected_seen(order.len(), ops)
}

fn run_model(t: &'static CommitTable, cell_of: &'static [usize], rule: WaitRule) {
    let n = t.instances();
    let pool = Arc::new(Pool::new(t, 2, rule));
    let model = Arc::new(Replica::new(4, n));
    let spin = SpinPolicy::default();
    let mut handles: Vec<_> = (0..2)
        .map(|_| {
            let (pool, model) = (pool.clone(), model.clone());
            loom::thread::spawn(move || {
                let mut probe = ModelProbe { m: model, cell_of };
                worker_loop(&pool, &mut probe, spin, |_| 0);
            })
        })
        .collect();
    let builder = pool.clone();
    handles.push(loom::thread::spawn(move || {
        builder_thread(&builder, &mut Quiet);
    }));
    let inst: &Instances = &pool.inst;
    for i in 0..n as u32 {
        inst.commit(i);
    }
    inst.stop();
    for h in handles {
        h.join().unwrap();
    }
    model.check(&expected(t, cell_of));
}

fn leak<T>(x: T) -> &'static T {
    Box::leak(Box::new(x))
}

/// Instance 1 depends on 0 (same cell): 1's SCC must wait for 0's, which
/// a worker may still be running; instance 2 is independent.
#[test]
fn loom_pepaxos_cross_scc_wait() {
    let t = leak(table(&[&[], &[0], &[]], &[1, 1, 1]));
    let cells: &'static [usize] = leak([0usize, 0, 1]);
    builder(1).check(move || run_model(t, cells, WaitRule::Scc));
}

/// A cycle: 1 and 2 form an SCC (seq puts 1 first) that depends on 0
/// through 2 only; all write one cell. Instance 0 is taken at its commit,
/// so when the SCC is found 0 is `EXECUTING` (skipped by the search, never
/// taken twice) and the SCC must wait for it.
#[test]
fn loom_pepaxos_scc_waits_for_the_scc_it_depends_on() {
    let t = leak(table(&[&[], &[2], &[0, 1]], &[1, 2, 3]));
    let cells: &'static [usize] = leak([0usize, 0, 0]);
    builder(1).check(move || run_model(t, cells, WaitRule::Scc));
}

/// The model has teeth: the paper's per-instance rule runs 1 while 0 may
/// still run.
#[test]
fn loom_pepaxos_per_instance_rule_is_caught() {
    let t = leak(table(&[&[], &[2], &[0, 1]], &[1, 2, 3]));
    let cells: &'static [usize] = leak([0usize, 0, 0]);
    let caught = std::panic::catch_unwind(|| {
        builder(1).check(move || run_model(t, cells, WaitRule::PerInstance))
    });
    assert!(caught.is_err(), "loom found no bad interleaving");
}
