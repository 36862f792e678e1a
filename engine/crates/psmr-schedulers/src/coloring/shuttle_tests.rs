//! Shuttle: whole-runtime schedules with more cores and events than loom
//! can afford. Three cores run the real worker loop (stealing on) while
//! the driver thread registers the roots of a random event forest (random
//! homes, costs and penalties); shuttle's random and PCT schedulers pick
//! the interleavings.
//!
//! Run (about half a minute in release mode):
//!
//! ```text
//! RUSTFLAGS="--cfg shuttle" CARGO_TARGET_DIR=engine/target/shuttle \
//!     cargo test -p psmr-schedulers --release shuttle_coloring
//! ```
//!
//! Each schedule asserts conservation (every event exactly once), no
//! overlap within a color and each color in admission order: the probe
//! logs the start and end of each execution with a yield in between, so a
//! schedule can run another thread inside an execution.

use std::sync::Mutex as StdMutex;

use psmr_core::{Op, Request, RequestId};
use shuttle::sync::Arc;

use super::libasync::Libasync;
use super::mely::Mely;
use super::runtime::{Discipline, EventProbe, Runtime, Tally, ROOT};
use super::worker::Worker;
use crate::probe::Probe;
use crate::spec::SpinPolicy;
use crate::testkit;

/// What happened, in order: `(true, e)` start, `(false, e)` end, and the
/// admissions per color. A std mutex is fine: shuttle runs one thread at a
/// time, so it never contends.
#[derive(Default)]
struct Log {
    exec: StdMutex<Vec<(bool, RequestId)>>,
    admitted: StdMutex<Vec<RequestId>>,
}

/// Scheduling points inside one execution: enough for a stealer to lock,
/// steal, dequeue and start while the victim still runs.
const HANDLER_YIELDS: usize = 4;

struct LogProbe {
    log: Arc<Log>,
    children: &'static [Vec<RequestId>],
}

impl Probe for LogProbe {
    fn execute(&mut self, _req: RequestId, _class: psmr_core::ClassId) {}
}

impl EventProbe<'static> for LogProbe {
    fn run_event(&mut self, e: RequestId) -> &'static [RequestId] {
        self.log.exec.lock().unwrap().push((true, e));
        // A handler takes time: a few scheduling points inside it.
        for _ in 0..HANDLER_YIELDS {
            shuttle::thread::yield_now();
        }
        self.log.exec.lock().unwrap().push((false, e));
        &self.children[e as usize]
    }
    fn admit(&mut self, _parent: RequestId, child: RequestId) {
        self.log.admitted.lock().unwrap().push(child);
    }
}

struct Setting {
    events: &'static [Request],
    children: &'static [Vec<RequestId>],
    roots: Vec<RequestId>,
}

/// A random forest of `roots` trees over `colors` colors (at most 4).
fn setting(seed: u64, roots: usize, colors: u32) -> &'static Setting {
    let s = testkit::event_stream_spin(seed, roots, 2, colors.min(4), 0);
    let f = s.events().expect("an event stream");
    let children: Vec<Vec<RequestId>> = (0..s.len() as u32)
        .map(|e| f.children(e).to_vec())
        .collect();
    Box::leak(Box::new(Setting {
        events: Box::leak(s.stream.requests.clone().into_boxed_slice()),
        children: Box::leak(children.into_boxed_slice()),
        roots: f.roots.clone(),
    }))
}

fn color(r: &Request) -> u32 {
    match r.op {
        Op::Event(e) => e.color,
        _ => unreachable!("events only"),
    }
}

/// Every event once; per color, executions one after the other, in
/// admission order.
fn check(s: &Setting, log: &Log) {
    let exec = log.exec.lock().unwrap().clone();
    let admitted = log.admitted.lock().unwrap().clone();
    let n = s.events.len();
    let mut starts = vec![0u32; n];
    let mut running: std::collections::BTreeMap<u32, RequestId> = Default::default();
    let mut ran: Vec<Vec<RequestId>> = vec![Vec::new(); 4];
    for &(start, e) in &exec {
        let c = color(&s.events[e as usize]);
        if start {
            starts[e as usize] += 1;
            if let Some(other) = running.insert(c, e) {
                panic!("events {other} and {e} of color {c} overlapped");
            }
            ran[c as usize].push(e);
        } else {
            running.remove(&c);
        }
    }
    assert!(
        starts.iter().all(|x| *x == 1),
        "an event ran {starts:?} times"
    );
    for (c, order) in ran.iter().enumerate() {
        let want: Vec<RequestId> = admitted
            .iter()
            .copied()
            .filter(|e| color(&s.events[*e as usize]) == c as u32)
            .collect();
        assert_eq!(order, &want, "color {c} out of admission order");
    }
}

/// One schedule: three cores, the driver registering the roots.
fn run<D, F>(make: &F, broken: bool, s: &'static Setting)
where
    D: Discipline + Send + 'static,
    F: Fn() -> D,
{
    let mut rt = Runtime::new(s.events, 3, make());
    rt.fault_steal_running = broken;
    let rt = Arc::new(rt);
    let log = Arc::new(Log::default());
    let cores: Vec<_> = (0..3)
        .map(|k| {
            let (rt, log) = (rt.clone(), log.clone());
            shuttle::thread::spawn(move || {
                let p = LogProbe {
                    log,
                    children: s.children,
                };
                Worker::new(k, &rt, p, true, SpinPolicy::default()).run();
            })
        })
        .collect();
    let mut p = LogProbe {
        log: log.clone(),
        children: s.children,
    };
    let mut t = Tally::default();
    for &r in &s.roots {
        rt.register(&mut p, &mut t, None, ROOT, r);
    }
    rt.finish(s.events.len() as u64, &p, &mut t);
    for c in cores {
        c.join().unwrap();
    }
    check(s, &log);
}

fn mely_base() -> Mely {
    Mely {
        time_left: false,
        penalty: false,
        ..Mely::default()
    }
}

fn mely_cheap() -> Mely {
    // Any color is worth a steal: more steals per schedule.
    Mely {
        unit_ns: 1,
        batch: 2,
        ..Mely::default()
    }
}

#[test]
fn shuttle_coloring_random_schedules() {
    let s = setting(1, 6, 4);
    shuttle::check_random(move || run(&|| Libasync, false, s), 300);
    shuttle::check_random(move || run(&mely_base, false, s), 300);
    shuttle::check_random(move || run(&mely_cheap, false, s), 300);
}

#[test]
fn shuttle_coloring_pct_schedules() {
    let s = setting(2, 6, 4);
    shuttle::check_pct(move || run(&|| Libasync, false, s), 300, 3);
    shuttle::check_pct(move || run(&mely_cheap, false, s), 300, 3);
}
