//! Loom models of the event runtimes' protocol: the real [`Runtime`]
//! (registration, dequeue, steal, sleep) and [`Worker`] loop compiled
//! against loom's mutexes, condition variables and atomics
//! (`crate::sync`).
//!
//! Run (seconds in release mode):
//!
//! ```text
//! RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=engine/target/loom \
//!     cargo test -p psmr-schedulers --release loom_coloring
//! ```
//!
//! Over every interleaving loom explores (preemptions bounded), each model
//! asserts:
//! * conservation: every event executes exactly once;
//! * color order: each color's events run in the order they were admitted
//!   (the order the oracle checks);
//! * no overlap within a color: each color's state is a
//!   `loom::cell::UnsafeCell`, so loom fails the model if two events of one
//!   color are not ordered by happens-before (e.g. if a steal could move a
//!   running color, or a registration could land on a core that no longer
//!   owns the color);
//! * no lost wake-up: models have no time, so a sleeping core waits for a
//!   notification; loom fails a model in which every thread blocks.

use std::sync::Mutex as StdMutex;

use loom::cell::UnsafeCell;
use psmr_core::{EventOp, Home, Op, Request, RequestId};

use super::libasync::Libasync;
use super::mely::Mely;
use super::runtime::{Discipline, EventProbe, Runtime, Tally, ROOT};
use super::worker::Worker;
use crate::probe::Probe;
use crate::spec::SpinPolicy;
use crate::sync::{Arc, AtomicU32, Ordering};

/// Preemptions bounded to 2 (seconds); `LOOM_MAX_PREEMPTIONS=3` explores
/// deeper (about half a minute in release mode, passing too).
fn builder() -> loom::model::Builder {
    let mut b = loom::model::Builder::new();
    if b.preemption_bound.is_none() {
        b.preemption_bound = Some(2);
    }
    b
}

/// The replicated state: per color, the events that ran on it; per event,
/// how often it ran; per color, the admission order (a std mutex: loom
/// runs one thread at a time, so it never contends and adds no branch).
struct Model {
    colors: Vec<UnsafeCell<Vec<RequestId>>>,
    runs: Vec<AtomicU32>,
    admitted: StdMutex<Vec<Vec<RequestId>>>,
}

struct ModelProbe {
    m: Arc<Model>,
    events: &'static [Request],
    children: &'static [Vec<RequestId>],
}

fn color(r: &Request) -> usize {
    match r.op {
        Op::Event(e) => e.color as usize,
        _ => unreachable!("model requests are events"),
    }
}

impl Probe for ModelProbe {
    fn execute(&mut self, _req: RequestId, _class: psmr_core::ClassId) {}
}

impl EventProbe<'static> for ModelProbe {
    fn run_event(&mut self, e: RequestId) -> &'static [RequestId] {
        // Relaxed: read after every thread was joined.
        self.m.runs[e as usize].fetch_add(1, Ordering::Relaxed);
        let c = color(&self.events[e as usize]);
        // SAFETY: loom checks this claim: it fails the model if this
        // access is not ordered by happens-before with every other access
        // to the color's state.
        self.m.colors[c].with_mut(|v| unsafe { (*v).push(e) });
        &self.children[e as usize]
    }
    fn admit(&mut self, _parent: RequestId, child: RequestId) {
        let c = color(&self.events[child as usize]);
        self.m.admitted.lock().unwrap()[c].push(child);
    }
}

/// Events `(color, home core)` with an annotated cost of 5 us each, and
/// their children.
fn setting(
    spec: &[(u32, u16)],
    children: Vec<Vec<RequestId>>,
) -> (&'static [Request], &'static [Vec<RequestId>]) {
    let events: Vec<Request> = spec
        .iter()
        .enumerate()
        .map(|(id, &(color, core))| Request {
            id: id as u32,
            class: 0,
            op: Op::Event(EventOp {
                cost_ns: 5000,
                home: Home::Core(core),
                ..EventOp::spin(color, id as u32, 0)
            }),
        })
        .collect();
    let mut children = children;
    children.resize(events.len(), Vec::new());
    (
        Box::leak(events.into_boxed_slice()),
        Box::leak(children.into_boxed_slice()),
    )
}

fn model(events: &'static [Request], colors: usize) -> Arc<Model> {
    Arc::new(Model {
        colors: (0..colors).map(|_| UnsafeCell::new(Vec::new())).collect(),
        runs: (0..events.len()).map(|_| AtomicU32::new(0)).collect(),
        admitted: StdMutex::new(vec![Vec::new(); colors]),
    })
}

/// Every event ran once, and each color in admission order.
fn check(m: &Model, events: usize) {
    for e in 0..events {
        assert_eq!(m.runs[e].load(Ordering::Relaxed), 1, "event {e}");
    }
    let admitted = m.admitted.lock().unwrap().clone();
    for (c, cell) in m.colors.iter().enumerate() {
        // SAFETY: every thread was joined.
        let ran = cell.with(|v| unsafe { (*v).clone() });
        assert_eq!(ran, admitted[c], "color {c} ran out of admission order");
    }
}

/// Core 0 dequeues and runs its queue while core 1 steals from it and a
/// third thread registers another event of color 2 (which sits at core 0,
/// or at core 1 once stolen). Whatever the interleaving, what is left is
/// drained afterwards, then checked. `make` builds the discipline (each
/// model iteration gets a fresh runtime).
fn steal_races_dequeue_and_registration<D, F>(make: F, broken: bool)
where
    D: Discipline + Send + 'static,
    F: Fn() -> D + Send + Sync + 'static,
{
    builder().check(move || {
        // e0 c1, e1 c2, e2 c1 queued at core 0; e3 c2 registered meanwhile.
        let (events, children) = setting(&[(1, 0), (2, 0), (1, 0), (2, 0)], vec![]);
        let m = model(events, 3);
        let mut rt = Runtime::new(events, 2, make());
        rt.fault_steal_running = broken;
        let rt = Arc::new(rt);
        let probe = || ModelProbe {
            m: m.clone(),
            events,
            children,
        };
        {
            let mut p = probe();
            let mut t = Tally::default();
            for e in 0..3 {
                rt.register(&mut p, &mut t, None, ROOT, e);
            }
        }
        let local = {
            let (rt, mut p) = (rt.clone(), probe());
            loom::thread::spawn(move || {
                let mut t = Tally::default();
                while let Some((e, _)) = rt.pop(0, 0, &mut p, &mut t) {
                    p.run_event(e);
                }
            })
        };
        let thief = {
            let (rt, mut p) = (rt.clone(), probe());
            loom::thread::spawn(move || {
                let mut t = Tally::default();
                if rt.steal(1, &mut p, &mut t, &mut None) {
                    while let Some((e, _)) = rt.pop(1, 0, &mut p, &mut t) {
                        p.run_event(e);
                    }
                }
            })
        };
        {
            let mut p = probe();
            rt.register(&mut p, &mut Tally::default(), Some(1), ROOT, 3);
        }
        local.join().unwrap();
        thief.join().unwrap();
        let mut p = probe();
        let mut t = Tally::default();
        for k in 0..2 {
            while let Some((e, _)) = rt.pop(k, 0, &mut p, &mut t) {
                p.run_event(e);
            }
        }
        check(&m, events.len());
    });
}

fn mely_base() -> Mely {
    Mely {
        time_left: false,
        penalty: false,
        locality: false,
        ..Mely::default()
    }
}

#[test]
fn loom_coloring_libasync_steal_races_dequeue_and_registration() {
    steal_races_dequeue_and_registration(|| Libasync, false);
}

#[test]
fn loom_coloring_mely_steal_races_dequeue_and_registration() {
    steal_races_dequeue_and_registration(Mely::default, false);
}

#[test]
fn loom_coloring_mely_base_steal_races_dequeue_and_registration() {
    steal_races_dequeue_and_registration(mely_base, false);
}

/// The models have teeth: a stealer that takes the running color is
/// caught (a race on the color's state, or its order broken).
#[test]
fn loom_coloring_a_stealer_taking_the_running_color_is_caught() {
    let libasync =
        std::panic::catch_unwind(|| steal_races_dequeue_and_registration(|| Libasync, true));
    assert!(
        libasync.is_err(),
        "no interleaving exposed the broken libasync"
    );
    let mely =
        std::panic::catch_unwind(|| steal_races_dequeue_and_registration(Mely::default, true));
    assert!(mely.is_err(), "no interleaving exposed the broken mely");
}

/// Two cores without stealing run the real worker loop; core 0's event
/// registers a child homed at core 1, which may be asleep: the
/// registration must wake it (a lost wake-up is a deadlock loom reports),
/// and both cores must stop once the driver is done.
fn a_sleeping_core_is_woken<D, F>(make: F)
where
    D: Discipline + Send + 'static,
    F: Fn() -> D + Send + Sync + 'static,
{
    builder().check(move || {
        let (events, children) = setting(&[(0, 0), (1, 1)], vec![vec![1]]);
        let m = model(events, 2);
        let rt = Arc::new(Runtime::new(events, 2, make()));
        let probe = || ModelProbe {
            m: m.clone(),
            events,
            children,
        };
        let cores: Vec<_> = (0..2)
            .map(|k| {
                let (rt, p) = (rt.clone(), probe());
                loom::thread::spawn(move || {
                    Worker::new(k, &rt, p, false, SpinPolicy::default()).run();
                })
            })
            .collect();
        let mut p = probe();
        rt.register(&mut p, &mut Tally::default(), None, ROOT, 0);
        rt.finish(2, &p, &mut Tally::default());
        for c in cores {
            c.join().unwrap();
        }
        check(&m, events.len());
    });
}

#[test]
fn loom_coloring_libasync_a_sleeping_core_is_woken() {
    a_sleeping_core_is_woken(|| Libasync);
}

#[test]
fn loom_coloring_mely_a_sleeping_core_is_woken() {
    a_sleeping_core_is_woken(Mely::default);
}
