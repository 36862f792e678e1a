//! Shuttle: whole-executor schedules of PePaxos with more instances and
//! workers than loom can afford: the main thread commits (the real
//! [`Instances::commit`]) while the real builder and three workers run
//! over a random commit stream with cycles and dependencies on later
//! commits; shuttle's random and PCT schedulers pick the interleavings.
//!
//! ```text
//! RUSTFLAGS="--cfg shuttle" CARGO_TARGET_DIR=engine/target/shuttle \
//!     cargo test -p psmr-schedulers --release shuttle_pepaxos
//! ```

use psmr_core::Stream;
use shuttle::sync::Arc;

use super::graph::Instances;
use super::parallel::{builder_thread, worker_loop, Pool, WaitRule};
use crate::probe::Probe;
use crate::shuttle_log::{join_and_check, spawn_logged, Log};
use crate::spec::SpinPolicy;
use crate::testkit;

fn stream(seed: u64) -> &'static Stream {
    let s = testkit::commit_stream(seed, 16, 2, 0.6);
    Box::leak(Box::new(s.stream))
}

struct Quiet;
impl Probe for Quiet {
    fn execute(&mut self, _r: u32, _c: u16) {
        unreachable!("the builder does not execute")
    }
}

fn run(s: &'static Stream, rule: WaitRule) {
    let t = s.commits().unwrap();
    let pool = Arc::new(Pool::new(t, 3, rule));
    let log = Arc::new(Log::default());
    let workers = pool.clone();
    let mut handles = spawn_logged(3, &log, move |_, mut probe| {
        worker_loop(&workers, &mut probe, SpinPolicy::default(), |_| 0);
    });
    let builder = pool.clone();
    handles.push(shuttle::thread::spawn(move || {
        builder_thread(&builder, &mut Quiet);
    }));
    let inst: &Instances = &pool.inst;
    for i in 0..t.instances() as u32 {
        inst.commit(i);
    }
    inst.stop();
    join_and_check(handles, s, &log);
}

#[test]
fn shuttle_pepaxos_random_schedules() {
    for seed in 1..4 {
        let s = stream(seed);
        shuttle::check_random(move || run(s, WaitRule::Scc), 300);
    }
}

#[test]
fn shuttle_pepaxos_pct_schedules() {
    for seed in 11..14 {
        let s = stream(seed);
        shuttle::check_pct(move || run(s, WaitRule::Scc), 300, 3);
    }
}

/// The schedules have teeth: SCCs started without waiting are caught.
#[test]
fn shuttle_pepaxos_no_wait_is_caught() {
    let s = stream(2);
    let caught =
        std::panic::catch_unwind(|| shuttle::check_random(move || run(s, WaitRule::None), 300));
    assert!(
        caught.is_err(),
        "no schedule exposed SCCs started without waiting"
    );
}
