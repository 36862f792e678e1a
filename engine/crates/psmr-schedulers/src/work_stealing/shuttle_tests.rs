//! Shuttle: whole-executor schedules with more threads and requests than
//! loom can afford. Four workers plus the scheduler thread run the real
//! worker loop and enqueue path (`crate::sync` is shuttle's under
//! `--cfg shuttle`) over a generated multi-shard stream and a random valid
//! mapping; shuttle's random and PCT schedulers pick the interleavings.
//!
//! Run (about half a minute in release mode):
//!
//! ```text
//! RUSTFLAGS="--cfg shuttle" CARGO_TARGET_DIR=/work/target-h4-shuttle \
//!     cargo test -p psmr-schedulers --release shuttle_ws
//! ```
//!
//! Each schedule asserts conservation (every request exactly once) and
//! order (no conflicting pair overlaps or runs out of delivery order): the
//! probe logs start and end of each execution with a yield in between, so a
//! schedule can interleave another thread inside an execution.

use psmr_core::workload::{generate, SplitMix64, WorkloadSpec};
use psmr_core::Stream;
use psmr_mapping::CtoT;
use shuttle::sync::Arc;

use super::shared::{Conflicts, Shared};
use super::worker::{Policy, Worker};
use super::{aggressive, class_barriers, conservative, moderate, optimistic};
use crate::plan::{Plan, Router};
use crate::shuttle_log::{join_and_check, spawn_logged, Log};
use crate::spec::SpinPolicy;
use crate::testkit;

struct Setting {
    plan: Plan,
    conflicts: Conflicts,
    stream: Stream,
}

/// Three shards, four workers, a random valid mapping, a stream with
/// writes and globals, skewed towards shard 1.
fn setting(seed: u64, len: u32) -> &'static Setting {
    let app = testkit::spin(3, 0);
    let classes = app.classes();
    let w = WorkloadSpec {
        skew: psmr_core::workload::Skew::Skewed { hot: 0, share: 0.7 },
        ..testkit::workload(seed, len, 0.25, 0.1)
    };
    let stream = generate(&app, &classes, &w);
    let ctot: CtoT = testkit::random_mapping(3, 4, &mut SplitMix64::new(seed));
    ctot.validate(&classes)
        .expect("random_mapping obeys the rules");
    let plan = Plan::new(&ctot, classes.len()).unwrap();
    let conflicts = Conflicts::new(&classes).unwrap();
    Box::leak(Box::new(Setting {
        plan,
        conflicts,
        stream,
    }))
}

/// One schedule: the main thread enqueues (Algorithm 6, queue bound 3 so
/// the scheduler also blocks on full queues) while four workers run.
fn run(policy: Policy, s: &'static Setting) {
    let shared = Arc::new(Shared::new(&s.stream.requests, &s.plan, &s.conflicts, 3));
    let barriers = Arc::new(class_barriers(&s.plan));
    let log = Arc::new(Log::default());
    let spin = crate::spin::SpinPolicies::uniform(SpinPolicy::default());
    let workers = shared.clone();
    let handles = spawn_logged(s.plan.threads(), &log, move |i, probe| {
        Worker::new(i, &workers, &barriers, policy, spin, probe).run();
    });
    let mut router = Router::new(&s.plan);
    for r in &s.stream.requests {
        for &t in router.targets(r.class) {
            shared.enqueue(usize::from(t), r.id, |_| {});
        }
    }
    shared.close_all();
    join_and_check(handles, &s.stream, &log);
}

const VARIANTS: [(&str, Policy); 4] = [
    ("conservative", conservative::POLICY),
    ("moderate", moderate::POLICY),
    ("aggressive", aggressive::POLICY),
    ("optimistic", optimistic::POLICY),
];

#[test]
fn shuttle_ws_random_schedules() {
    for (seed, (_, policy)) in VARIANTS.iter().enumerate() {
        let s = setting(seed as u64 + 1, 24);
        let policy = *policy;
        shuttle::check_random(move || run(policy, s), 300);
    }
}

#[test]
fn shuttle_ws_pct_schedules() {
    for (seed, (_, policy)) in VARIANTS.iter().enumerate() {
        let s = setting(seed as u64 + 11, 24);
        let policy = *policy;
        shuttle::check_pct(move || run(policy, s), 300, 3);
    }
}

/// The schedules have teeth: the broken stealer is caught.
#[test]
fn shuttle_ws_broken_stealer_is_caught() {
    let s = setting(3, 24);
    let caught = std::panic::catch_unwind(|| {
        shuttle::check_random(move || run(super::broken::POLICY, s), 300)
    });
    assert!(caught.is_err(), "no schedule exposed the broken stealer");
}

/// The 2-shard, 2-thread mapping of the authors' Java code, as
/// [`super::partition_ctot`] builds it: each shard's write class is
/// sequential on one thread (W1 on thread 0 alone), and thread 0's reads
/// R1 R1 R1 come before its write W1, while thread 1 has nothing to do and
/// steals.
fn single_thread_class_setting() -> &'static Setting {
    use psmr_core::cell::Span;
    use psmr_core::stream::StreamBuilder;
    use psmr_core::{Op, ShardSet};
    let app = testkit::spin(2, 0);
    let classes = app.classes();
    let ctot = super::partition_ctot(&classes, 2);
    ctot.validate(&classes)
        .expect("the Java mapping obeys the rules");
    let plan = Plan::new(&ctot, classes.len()).unwrap();
    let conflicts = Conflicts::new(&classes).unwrap();
    let mut b = StreamBuilder::new(app.cell_space(), 4);
    for write in [false, false, false, true] {
        let op = Op::Spin {
            ns: 0,
            shards: ShardSet::single(0),
            write,
        };
        b.push(classes.local(0, write).unwrap(), op, &[Span::one(0, write)]);
    }
    Box::leak(Box::new(Setting {
        plan,
        conflicts,
        stream: b.finish_total(),
    }))
}

/// Regression (review against the authors' Java code): Java runs a
/// sequential request of a class that has one thread without waiting for
/// that thread's stealers, so the write W1 can run while a stolen R1 still
/// runs. Every variant here waits (passes), and the same schedules with
/// the Java shortcut switched on expose the overlap.
#[test]
fn shuttle_ws_single_thread_class_waits_for_its_stealers() {
    let s = single_thread_class_setting();
    for (_, policy) in VARIANTS {
        shuttle::check_pct(move || run(policy, s), 500, 3);
    }
    let java = Policy {
        skip_single_thread_markers: true,
        ..aggressive::POLICY
    };
    let caught = std::panic::catch_unwind(|| shuttle::check_pct(move || run(java, s), 500, 3));
    assert!(
        caught.is_err(),
        "no schedule exposed the Java shortcut: the test lost its teeth"
    );
}
