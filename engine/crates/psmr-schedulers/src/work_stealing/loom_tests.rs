//! Loom models of the stealing flags/markers protocol: the real
//! [`Shared`] critical sections, [`Worker`] loop, cycles and barriers,
//! compiled against loom's atomics, mutexes and condition variables
//! (`crate::sync`). The model's main thread is the scheduler (Algorithm 6,
//! enqueueing concurrently with the workers); two workers run beside it.
//!
//! Run (well under a minute in release mode):
//!
//! ```text
//! RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=/work/target-h4-loom \
//!     cargo test -p psmr-schedulers --release loom_ws
//! ```
//!
//! `LOOM_MAX_PREEMPTIONS=2` explores deeper (minutes per model, not for CI).
//!
//! Over every interleaving loom explores (preemptions bounded to 2), each
//! model asserts:
//! * conservation: every request executes exactly once;
//! * order: per shard, writes apply in delivery order and every read sees
//!   exactly the writes delivered before it;
//! * no data race: each shard is a `loom::cell::UnsafeCell`
//!   ([`crate::loom_model`]), so loom fails
//!   the model if a conflicting pair is not ordered by happens-before (for
//!   instance if the marker's Release/Acquire were weakened to Relaxed);
//! * no deadlock: loom fails a model in which every thread blocks.

use loom::sync::atomic::{AtomicU32, Ordering};
use loom::sync::Arc;
use psmr_core::request::{Op, ShardSet};
use psmr_core::{ClassId, ClassTable, EventKind, Request, RequestId};
use psmr_mapping::Mode;

use super::shared::{Conflicts, EnqueueStep, Shared};
use super::worker::{Policy, Worker};
use super::{aggressive, class_barriers, conservative, moderate, optimistic};
use crate::loom_model::{builder, expected_seen, Replica};
use crate::plan::{Plan, Router};
use crate::probe::Probe;
use crate::spec::SpinPolicy;
use crate::testkit;

/// The replicated state of the model (one cell per shard) and the steals
/// made.
struct Model {
    replica: Replica,
    steals: AtomicU32,
}

struct ModelProbe {
    m: Arc<Model>,
    requests: &'static [Request],
}

/// The shard a model request touches (the first of its spin op's shards)
/// and whether it writes it.
fn cell(r: &Request) -> (usize, bool) {
    let Op::Spin { shards, write, .. } = r.op else {
        unreachable!("model requests are spin ops")
    };
    (shards.iter().next().unwrap(), write)
}

impl Probe for ModelProbe {
    fn execute(&mut self, id: RequestId, _class: ClassId) {
        let (shard, write) = cell(&self.requests[id as usize]);
        self.m.replica.execute(id, shard, write);
    }
    fn record(&mut self, kind: EventKind) {
        if matches!(kind, EventKind::Steal { .. }) {
            // Relaxed: read only after every thread was joined.
            self.m.steals.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Requests of the 2-shard class table (R1 W1 R2 W2 Rg Wg) by class name.
fn stream(classes: &ClassTable, names: &[&str]) -> Vec<Request> {
    names
        .iter()
        .enumerate()
        .map(|(id, name)| {
            let class = classes.by_name(name).unwrap();
            let def = classes.get(class);
            let shards = match def.shard {
                Some(s) => ShardSet::single(s as usize),
                None => ShardSet::all(classes.shards()),
            };
            Request {
                id: id as u32,
                class,
                op: Op::Spin {
                    ns: 0,
                    shards,
                    write: def.write,
                },
            }
        })
        .collect()
}

/// Run one model: the main thread delivers `names` with Algorithm 6 (the
/// same `Shared::enqueue` the scheduler thread uses) while two workers
/// run `policy`; then check conservation and order.
fn run_model(policy: Policy, setting: &'static Setting) -> u32 {
    let Setting {
        plan,
        conflicts,
        requests,
    } = setting;
    let requests: &'static [Request] = requests;
    let shared = Arc::new(Shared::new(requests, plan, conflicts, 4));
    let barriers = Arc::new(class_barriers(plan));
    let model = Arc::new(Model {
        replica: Replica::new(2, requests.len()),
        steals: AtomicU32::new(0),
    });
    let spin = crate::spin::SpinPolicies::uniform(SpinPolicy::default());
    let handles: Vec<_> = (0..plan.threads())
        .map(|i| {
            let (shared, barriers, model) = (shared.clone(), barriers.clone(), model.clone());
            loom::thread::spawn(move || {
                let probe = ModelProbe { m: model, requests };
                Worker::new(i, &shared, &barriers, policy, spin, probe).run();
            })
        })
        .collect();
    // Algorithm 6, routed as the scheduler thread routes.
    let mut router = Router::new(plan);
    for r in requests {
        for &t in router.targets(r.class) {
            let step = |step| assert_ne!(step, EnqueueStep::Blocked);
            assert!(
                shared.enqueue(usize::from(t), r.id, step) > 0,
                "capacity 4 > stream"
            );
        }
    }
    shared.close_all();
    for h in handles {
        h.join().unwrap();
    }
    let ops = requests.iter().map(|r| (r.id, cell(r).0, cell(r).1));
    model.replica.check(&expected_seen(requests.len(), ops));
    model.steals.load(Ordering::Relaxed)
}

/// One preemption keeps each model to about a second; two explode on the
/// idle workers' polling (lock, steal attempt, yield until the scheduler
/// delivers). A weakened marker ordering (Relaxed instead of
/// Release/Acquire) is still caught (by the optimistic cycle model), and so
/// is the broken stealer.
const PREEMPTIONS: usize = 1;

/// A model's mapping, conflicts and stream.
struct Setting {
    plan: Plan,
    conflicts: Conflicts,
    requests: Vec<Request>,
}

/// The setting: thread 1 owns shard 1 (R1 concurrent, W1 sequential on
/// {1}); W2 is sequential on {0, 1}; the rest (unused) on both.
fn setting(names: &'static [&'static str]) -> &'static Setting {
    use Mode::{Concurrent as C, Sequential as S};
    let classes = ClassTable::sharded(2);
    let ctot = testkit::ctot(
        2,
        &[
            (C, &[1]),
            (S, &[1]),
            (C, &[0, 1]),
            (S, &[0, 1]),
            (S, &[0, 1]),
            (S, &[0, 1]),
        ],
    );
    ctot.validate(&classes)
        .expect("the model's mapping obeys the rules");
    Box::leak(Box::new(Setting {
        plan: Plan::new(&ctot, classes.len()).unwrap(),
        conflicts: Conflicts::new(&classes).unwrap(),
        requests: stream(&classes, names),
    }))
}

/// Check the model over every interleaving; return the most steals any
/// interleaving made (so a test can insist that stealing happened).
fn check(policy: Policy, names: &'static [&'static str]) -> u32 {
    let setting = setting(names);
    let steals = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
    let most = steals.clone();
    builder(PREEMPTIONS).check(move || {
        let n = run_model(policy, setting);
        // Relaxed: a plain std counter outside the model, read after it.
        most.fetch_max(n, std::sync::atomic::Ordering::Relaxed);
    });
    steals.load(std::sync::atomic::Ordering::Relaxed)
}

/// Idle stealing, then a sequential request of the victim: R1 R1 W1.
/// Thread 0 may steal the reads of thread 1; thread 1 must wait for the
/// marker before its write.
const IDLE_STEAL: &[&str] = &["R1", "R1", "W1"];

/// Stealing while waiting in a cycle: R1 W2 W1. Thread 0 arrives at W2's
/// cycle while W2 is not yet in thread 1's queue and steals the R1 there;
/// thread 1 waits for that marker before arriving.
const CYCLE_STEAL: &[&str] = &["R1", "W2", "W1"];

/// One loom test per line: the model of the policy on the stream checks
/// over every interleaving, and some interleaving steals.
macro_rules! loom_steal_tests {
    ($($test:ident: $policy:expr, $names:expr;)*) => {$(
        #[test]
        fn $test() {
            assert!(check($policy, $names) > 0, "no interleaving stole");
        }
    )*};
}

loom_steal_tests! {
    loom_ws_conservative_idle_steal: conservative::POLICY, IDLE_STEAL;
    loom_ws_conservative_barriers: conservative::POLICY, CYCLE_STEAL;
    loom_ws_moderate_cycle_steal: moderate::POLICY, CYCLE_STEAL;
    loom_ws_aggressive_idle_steal: aggressive::POLICY, IDLE_STEAL;
    loom_ws_aggressive_cycle_steal: aggressive::POLICY, CYCLE_STEAL;
    loom_ws_optimistic_cycle_steal: optimistic::POLICY, CYCLE_STEAL;
}

/// The models have teeth: the broken stealer (no flags, no markers) makes
/// loom report a failing interleaving.
#[test]
fn loom_ws_broken_stealer_is_caught() {
    let caught = std::panic::catch_unwind(|| check(super::broken::POLICY, IDLE_STEAL));
    assert!(
        caught.is_err(),
        "loom found no bad interleaving of the broken stealer"
    );
}
