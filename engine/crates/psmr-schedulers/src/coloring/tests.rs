use super::*;
use crate::SchedulerSpec;
use proptest::prelude::*;
use psmr_core::cancel::CancelToken;
use psmr_core::exec::Progress;
use psmr_core::oracle::Violation;
use psmr_core::run::RunResult;
use psmr_core::trace::{EventKind, TraceConfig};
use psmr_core::workload::{EventWorkload, WorkloadSpec};
use psmr_core::{EventOp, Home, Op, Request};

use super::runtime::{Census, Choice, NO_COLOR};
use crate::testkit::{self, Stream};

fn params(json: serde_json::Value) -> ColoringParams {
    serde_json::from_value(json).unwrap()
}

fn libasync(stealing: bool) -> Coloring {
    Coloring::from_params(
        SchedulerId::Libasync,
        &params(serde_json::json!({ "stealing": stealing })),
    )
    .unwrap()
}

fn mely(json: serde_json::Value) -> Coloring {
    Coloring::from_params(SchedulerId::Mely, &params(json)).unwrap()
}

/// Every configuration the tests compare.
fn all_runtimes() -> Vec<(&'static str, Coloring)> {
    vec![
        ("libasync", libasync(true)),
        ("libasync-nows", libasync(false)),
        ("mely", mely(serde_json::json!({}))),
        ("mely-nows", mely(serde_json::json!({ "stealing": false }))),
        (
            "mely-base",
            mely(serde_json::json!({ "time_left": false, "penalty": false, "locality": false })),
        ),
        (
            "mely-penalty",
            mely(serde_json::json!({ "time_left": false, "batch": 1, "steal_cost_ns": 1 })),
        ),
        (
            "mely-time-left",
            mely(serde_json::json!({ "penalty": false, "batch": 3, "steal_cost_ns": 10 })),
        ),
    ]
}

fn run(s: &Coloring, stream: &Stream, threads: usize) -> RunResult {
    testkit::run_with(
        s,
        stream,
        threads,
        TraceConfig::on(),
        &CancelToken::default(),
        0,
    )
    .unwrap()
}

fn extra(r: &RunResult, name: &str) -> f64 {
    r.output
        .extra
        .iter()
        .find(|(k, _)| k == name)
        .map_or(f64::NAN, |(_, v)| *v)
}

fn counter(r: &RunResult, name: &str) -> u64 {
    r.metrics.counters.get(name).copied().unwrap_or(0)
}

/// A stream of an event workload on a handlers app sized for it.
fn workload_stream(events: serde_json::Value, requests: u32, data_kib: u32) -> Stream {
    let ev: EventWorkload = serde_json::from_value(events).unwrap();
    let needs = ev.needs();
    let app = psmr_core::app::AppSpec::Handlers {
        colors: needs.colors as u32,
        data_sets: needs.data_sets,
        data_kib,
    };
    let w = WorkloadSpec {
        seed: 5,
        events: Some(ev),
        ..testkit::workload(5, requests, 0.0, 0.0)
    };
    Stream::new(app, &w)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Random forests (random homes, costs and penalties), 1-4 cores:
    /// every runtime's run passes the oracle (each color in registration
    /// order, no overlap, responses and state as the observed order
    /// replayed).
    #[test]
    fn every_runtime_agrees_with_sequential(seed in any::<u64>(), threads in 1usize..=4, colors in 1u32..12) {
        let s = testkit::event_stream_spin(seed, 40, 3, colors, 2_000);
        for (name, rt) in all_runtimes() {
            let r = testkit::try_run(&rt, &s, threads).unwrap();
            prop_assert!(r.verdict.correct, "{name} {threads} threads: {:?}", r.verdict);
            prop_assert_eq!(r.metrics.requests as usize, s.len());
        }
    }
}

#[test]
fn the_papers_workloads_run_correctly_on_every_runtime() {
    let streams = [
        workload_stream(
            serde_json::json!({"kind": "unbalanced", "round": 300, "long_share": 0.1}),
            1500,
            0,
        ),
        workload_stream(
            serde_json::json!({"kind": "penalty", "arrays": 6, "chunk_kib": 2}),
            400,
            8,
        ),
        workload_stream(
            serde_json::json!({"kind": "locality", "arrays": 8, "a_cores": [0, 2]}),
            400,
            4,
        ),
        workload_stream(
            serde_json::json!({"kind": "pipeline", "connections": 8}),
            600,
            1,
        ),
    ];
    for s in &streams {
        for (name, rt) in all_runtimes() {
            for threads in [1, 3] {
                let r = run(&rt, s, threads);
                testkit::assert_correct(&r);
                assert_eq!(r.metrics.requests as usize, s.len(), "{name}");
            }
        }
    }
}

/// Unbalanced rounds put every event on core 0: the other cores only work
/// by stealing, and every runtime with stealing on does steal.
#[test]
fn idle_cores_steal_from_the_loaded_one() {
    let s = workload_stream(
        serde_json::json!({"kind": "unbalanced", "round": 400, "long_share": 0.5,
                           "long_ns": [20000, 40000]}),
        1203,
        0,
    );
    for (name, rt) in all_runtimes() {
        let r = run(&rt, &s, 2);
        testkit::assert_correct(&r);
        let steals = counter(&r, "steals");
        if rt.stealing {
            assert!(steals > 0, "{name} never stole");
            assert!(counter(&r, "stolen_requests") >= steals);
            assert!(extra(&r, metric::STEAL_COST_NS) > 0.0, "{name}");
            assert!(extra(&r, metric::STOLEN_TIME_NS) > 0.0, "{name}");
            check_steal_trace(&r);
            let sq = name == "mely" || name == "mely-penalty" || name == "mely-time-left";
            let unit = match name {
                "mely" => Some(1000),
                "mely-time-left" => Some(10),
                _ => None,
            };
            let (checked, sq_steals) = check_queue_trace(&r, &s, 2, unit);
            assert_eq!(checked, steals, "{name}: every steal replayed");
            if sq {
                assert_eq!(
                    sq_steals, steals,
                    "{name}: every steal from the stealing queue"
                );
            } else {
                assert_eq!(sq_steals, 0, "{name} has no stealing queue");
            }
        } else {
            assert_eq!(steals, 0, "{name}");
            let on_one = r.metrics.threads.iter().filter(|t| t.executed > 0).count();
            assert_eq!(on_one, 1, "{name}: without stealing only core 0 works");
        }
    }
}

/// Each ColorSteal is preceded by a StealTry on its victim and followed by
/// its StealCost; the moved count matches the counters.
fn check_steal_trace(r: &RunResult) {
    let mut moved = 0u64;
    let mut last_try: std::collections::BTreeMap<u16, u16> = Default::default();
    let mut pending_cost: std::collections::BTreeMap<u16, u16> = Default::default();
    for e in &r.trace {
        match e.kind {
            EventKind::StealTry { victim, .. } => {
                last_try.insert(e.thread, victim);
            }
            EventKind::ColorSteal { victim, count, .. } => {
                assert_eq!(last_try.get(&e.thread), Some(&victim));
                assert!(count > 0);
                moved += count as u64;
                pending_cost.insert(e.thread, victim);
            }
            EventKind::StealCost { victim, .. } => {
                assert_eq!(pending_cost.remove(&e.thread), Some(victim));
            }
            _ => {}
        }
    }
    assert!(pending_cost.is_empty());
    assert_eq!(moved, counter(r, "stolen_requests"));
}

/// Replays the queues from the trace, as the view does. Per core and
/// color, the events queued: `Registered` adds one at its `core` (and its
/// `color` is the event's), `Dequeued` takes one at the thread's core, a
/// `ColorSteal` moves exactly everything the victim held of the color.
/// Mely's stealing queues from `StealQueue`: a color enters at the tail of
/// an interval or leaves; a color that leaves a core's stealing queue and
/// then goes with the same thread's next `ColorSteal` (a steal, not a
/// registrant moving it to another interval) was the head of that core's
/// highest non-empty interval, unless time-left (`time_left_unit`, the
/// interval unit) let the stealer skip that head: it skips a color whose
/// time left is not above the steal-cost estimate of that moment. The
/// estimate is a running mean of measured steals, so it never exceeds the
/// largest of the first estimate (the unit) and the per-event cost of any
/// steal in the run; a skipped head's interval floor (0, one unit, eight)
/// is at most its time left, so it must be at most that bound. Every count
/// ends at zero. Returns the steals replayed and those of them taken from a
/// stealing queue.
fn check_queue_trace(
    r: &RunResult,
    s: &Stream,
    cores: usize,
    time_left_unit: Option<u64>,
) -> (u64, u64) {
    use std::collections::{BTreeMap, VecDeque};
    let max_estimate = time_left_unit.map(|unit| {
        let mut moved: BTreeMap<u16, u64> = BTreeMap::new();
        let mut max = unit;
        for e in &r.trace {
            match e.kind {
                EventKind::ColorSteal { count, .. } => {
                    moved.insert(e.thread, u64::from(count));
                }
                EventKind::StealCost { steal_ns, .. } => {
                    let n = moved.remove(&e.thread).unwrap_or(1).max(1);
                    max = max.max(u64::from(steal_ns) / n);
                }
                _ => {}
            }
        }
        max
    });
    let mut held: Vec<BTreeMap<u32, i64>> = vec![BTreeMap::new(); cores];
    let mut sq: Vec<[VecDeque<u32>; 3]> = vec![Default::default(); cores];
    let (mut regs, mut steals, mut sq_steals) = (0usize, 0u64, 0u64);
    // Per thread: the color it just took out of another core's stealing
    // queue (core, color, was it the best offer, the best offer's interval).
    let mut taken: BTreeMap<u16, (u16, u32, bool, usize)> = BTreeMap::new();
    for e in &r.trace {
        match e.kind {
            EventKind::Registered {
                child, color, core, ..
            } => {
                assert_eq!(color as u64, s.color(child), "event {child}'s color");
                assert!((core as usize) < cores, "core {core}");
                *held[core as usize].entry(color).or_default() += 1;
                regs += 1;
            }
            EventKind::Dequeued { req } => {
                let n = held[e.thread as usize]
                    .entry(s.color(req) as u32)
                    .or_default();
                *n -= 1;
                assert!(*n >= 0, "T{} ran {req}, not queued there", e.thread);
            }
            EventKind::ColorSteal {
                victim,
                color,
                count,
            } => {
                let n = held[victim as usize].remove(&color).unwrap_or(0);
                assert_eq!(n, count as i64, "the whole color {color} moved");
                *held[e.thread as usize].entry(color).or_default() += n;
                steals += 1;
                if let Some((core, c, best, top_at)) = taken.remove(&e.thread) {
                    if (core, c) == (victim, color) {
                        if !best {
                            let floor = time_left_unit.map(|u| [0, u, 8 * u][top_at]);
                            assert!(
                                floor.zip(max_estimate).is_some_and(|(f, m)| f <= m),
                                "a stealer takes the best offer unless time-left \
                                 skipped it (interval {top_at}, estimate at most \
                                 {max_estimate:?} ns)"
                            );
                        }
                        sq_steals += 1;
                    }
                }
            }
            EventKind::StealQueue {
                color,
                core,
                interval,
                ..
            } => {
                let q = &mut sq[core as usize];
                let at = q.iter().position(|b| b.contains(&color));
                if interval < 3 {
                    assert_eq!(at, None, "color {color} twice in T{core}'s stealing queue");
                    q[interval as usize].push_back(color);
                    if taken
                        .get(&e.thread)
                        .is_some_and(|t| (t.0, t.1) == (core, color))
                    {
                        // A registrant moved it to another interval.
                        taken.remove(&e.thread);
                    }
                } else {
                    let b = at.expect("a color leaves the stealing queue it is in");
                    if e.thread != core {
                        let (top_at, top) = (0..3)
                            .rev()
                            .find_map(|i| q[i].front().map(|&c| (i, c)))
                            .expect("the color leaving is queued");
                        taken.insert(e.thread, (core, color, top == color, top_at));
                    }
                    q[b].retain(|&c| c != color);
                }
            }
            _ => {}
        }
    }
    assert_eq!(regs, s.len(), "one Registered per event");
    for (k, h) in held.iter().enumerate() {
        assert!(h.values().all(|&n| n == 0), "T{k} ends with {h:?}");
    }
    (steals, sq_steals)
}

/// Time-left: colors of short events (45 ns annotated) are never worth a
/// steal (1 us assumed): every try is refused, with its reason traced.
/// Annotated long events are stolen.
#[test]
fn time_left_refuses_short_colors_and_takes_long_ones() {
    let rt = mely(serde_json::json!({ "penalty": false }));
    let short = workload_stream(
        serde_json::json!({"kind": "unbalanced", "round": 2000, "long_share": 0.0,
                           "short_ns": 200}),
        4002,
        0,
    );
    let r = run(&rt, &short, 2);
    testkit::assert_correct(&r);
    assert_eq!(counter(&r, "steals"), 0);
    assert!(extra(&r, "refused_time_left") > 0.0);
    let refusal = r.trace.iter().find_map(|e| match e.kind {
        EventKind::StealRefused {
            heuristic,
            left_ns,
            cost_ns,
            ..
        } => Some((heuristic, left_ns, cost_ns)),
        _ => None,
    });
    // Events of 200 ns, annotated with their own time (a color may hold
    // one event of each round still queued), against the assumed 1 us.
    let (heuristic, left_ns, cost_ns) = refusal.expect("a refusal was traced");
    assert_eq!((heuristic, cost_ns), (Refusal::TimeLeft as u8, 1000));
    assert!(left_ns % 200 == 0 && left_ns <= 1000, "{left_ns}");
    let long = workload_stream(
        serde_json::json!({"kind": "unbalanced", "round": 200, "long_share": 1.0,
                           "long_ns": [20000, 30000]}),
        402,
        0,
    );
    let r = run(&rt, &long, 2);
    testkit::assert_correct(&r);
    assert!(counter(&r, "steals") > 0);
}

/// Libasync-smp on an unbalanced round: its stealer takes one event per
/// steal (each color holds one), after walking the victim's list. Whether
/// the idle core gets a time slice before core 0 drains its queue depends
/// on the machine's load (under `cargo test` the other tests' threads share
/// the cores), so the round is long (10,000 events of 500 ns, about 5 ms,
/// more than a time slice) and the run is repeated (at most 20 times) until
/// a steal happens; every run must be correct and move one event per steal.
#[test]
fn libasync_steals_one_short_event_at_a_time() {
    let s = workload_stream(
        serde_json::json!({"kind": "unbalanced", "round": 10000, "long_share": 0.0,
                           "short_ns": 500}),
        10001,
        0,
    );
    let mut stole = false;
    for _ in 0..20 {
        let r = run(&libasync(true), &s, 2);
        testkit::assert_correct(&r);
        let steals = counter(&r, "steals");
        assert_eq!(counter(&r, "stolen_requests"), steals);
        if steals > 0 {
            stole = true;
            break;
        }
    }
    assert!(stole, "no run of twenty stole");
}

/// The broken stealer takes the color its victim is running: with long
/// events of few colors the stolen color's next event overlaps the one
/// still running, and the oracle reports the pair on that color.
#[test]
fn the_oracle_catches_a_stealer_taking_the_running_color() {
    let s = testkit::event_stream_spin(9, 6, 6, 2, 300_000);
    for rt in [libasync(true), mely(serde_json::json!({}))] {
        let broken = rt.into_broken();
        let caught = (0..6).find_map(|_| {
            let r = testkit::try_run(&broken, &s, 2).unwrap();
            r.verdict.violation
        });
        match caught {
            Some(Violation::Order { first, second, .. }) => {
                assert!(first < second);
                assert_eq!(s.color(first), s.color(second), "a pair of one color");
            }
            Some(Violation::ColorOrder { .. }) => {}
            other => panic!(
                "{:?}: the broken stealer was not caught: {other:?}",
                broken.id
            ),
        }
    }
}

#[test]
fn cancellation_checks_the_delivered_trees() {
    let s = testkit::event_stream_spin(3, 60, 3, 5, 1_000);
    for (name, rt) in all_runtimes() {
        for k in [0usize, 1, 17] {
            let progress = Progress::new(3);
            let cancel = CancelToken::default();
            cancel.cancel_at(k as u64);
            let knobs = testkit::Knobs {
                trace: TraceConfig::OFF,
                cancel: &cancel,
                pace_ns: 0,
                progress: &progress,
            };
            let r = testkit::run_progress(&rt, &s, 2, knobs).unwrap();
            testkit::assert_correct(&r);
            assert_eq!(r.output.delivered as usize, k, "{name}");
            assert_eq!(r.metrics.requests as usize, s.runnable(k), "{name}");
        }
    }
}

/// Roots-only stream, one core, no stealing: the driver never lets the
/// queue pass `queue_capacity` (rebuilt from the trace: registrations in,
/// dequeues out) and says when it waits.
#[test]
fn the_driver_waits_at_the_queue_bound() {
    let s = testkit::event_stream_spin(4, 300, 0, 3, 2_000);
    for id in [SchedulerId::Libasync, SchedulerId::Mely] {
        let rt = Coloring::from_params(
            id,
            &params(serde_json::json!({ "stealing": false, "queue_capacity": 3 })),
        )
        .unwrap();
        let r = run(&rt, &s, 1);
        testkit::assert_correct(&r);
        let (mut len, mut max, mut waits) = (0i64, 0i64, 0);
        for e in &r.trace {
            match e.kind {
                EventKind::Registered { .. } => len += 1,
                EventKind::Dequeued { .. } => len -= 1,
                EventKind::WaitStart {
                    reason: WaitReason::FullQueue,
                    ..
                } => waits += 1,
                _ => {}
            }
            max = max.max(len);
        }
        assert!(max <= 3, "{id}: queue reached {max}");
        assert!(waits > 0, "{id}: the driver never waited");
    }
}

// --- the disciplines, on hand-made queues ---------------------------------

/// Records what the runtime traces; executes nothing.
#[derive(Default)]
struct Quiet(Vec<EventKind>);

impl Probe for Quiet {
    fn execute(&mut self, _req: RequestId, _class: psmr_core::ClassId) {}
    fn record(&mut self, kind: EventKind) {
        self.0.push(kind);
    }
}

impl EventProbe<'static> for Quiet {
    fn run_event(&mut self, _e: RequestId) -> &'static [RequestId] {
        &[]
    }
    fn admit(&mut self, _parent: RequestId, _child: RequestId) {}
}

/// Events `(color, cost_ns, penalty)`, all homed on core 0.
fn events(spec: &[(u32, u32, u16)]) -> &'static [Request] {
    let v: Vec<Request> = spec
        .iter()
        .enumerate()
        .map(|(id, &(color, cost_ns, penalty))| Request {
            id: id as u32,
            class: 0,
            op: Op::Event(EventOp {
                cost_ns,
                penalty,
                home: Home::Core(0),
                ..EventOp::spin(color, id as u32, 0)
            }),
        })
        .collect();
    Box::leak(v.into_boxed_slice())
}

/// [`events`] of the given colors, each 9 ns with no penalty: the queue
/// tests that look only at colors (Libasync-smp ignores cost and penalty).
fn colored(colors: &[u32]) -> &'static [Request] {
    let spec: Vec<(u32, u32, u16)> = colors.iter().map(|&c| (c, 9, 1)).collect();
    events(&spec)
}

fn register_all<D: Discipline>(rt: &Runtime<'static, D>, p: &mut Quiet) {
    let mut t = Tally::default();
    for e in 0..rt.events.len() as u32 {
        rt.register(p, &mut t, None, ROOT, e);
    }
}

fn choose<D: Discipline>(rt: &Runtime<'static, D>, v: usize, cost: u64) -> Choice {
    let mut t = Tally::default();
    let g = rt.lock(v, &Quiet::default(), &mut t);
    D::choose(rt, v, &g.q, cost)
}

fn pop<D: Discipline>(rt: &Runtime<'static, D>, k: usize, p: &mut Quiet) -> Option<u32> {
    rt.pop(k, 0, p, &mut Tally::default())
        .map(|(e, _)| rt.op(e).color)
}

#[test]
fn libasync_can_be_stolen_needs_two_colors_and_takes_one_under_half() {
    // Color 1 five times, then color 2 once.
    let rt = Runtime::new(colored(&[1, 1, 1, 1, 1, 2]), 2, Libasync);
    let mut p = Quiet::default();
    register_all(&rt, &mut p);
    // 1 holds 5 of 6 (not under half): the first color under half is 2.
    assert_eq!(choose(&rt, 0, 0), Choice::Take { color: 2 });
    // Core 0 runs color 1: still 2.
    assert_eq!(pop(&rt, 0, &mut p), Some(1));
    assert_eq!(choose(&rt, 0, 0), Choice::Take { color: 2 });
    // Only one color queued: refused.
    let rt = Runtime::new(colored(&[1, 1]), 2, Libasync);
    register_all(&rt, &mut p);
    assert!(matches!(
        choose(&rt, 0, 0),
        Choice::Refuse {
            why: Refusal::TwoColors,
            ..
        }
    ));
    // Two colors, but the one not running holds half: refused.
    let rt = Runtime::new(colored(&[1, 1, 2, 2]), 2, Libasync);
    register_all(&rt, &mut p);
    assert_eq!(pop(&rt, 0, &mut p), Some(1));
    assert!(matches!(
        choose(&rt, 0, 0),
        Choice::Refuse {
            why: Refusal::Half,
            ..
        }
    ));
}

/// The base rule both disciplines share ([`Census::choose_base`]): two
/// colors queued, then the first color that is not running and holds less
/// than half of the queue. Exactly half is refused; the running color is
/// passed over even when it would fit, and its count is never asked for.
#[test]
fn the_base_choice_is_libasyncs_rule() {
    // Six queued: color 1 (running) 2, color 2 3 (half), color 3 1.
    let census = Census {
        len: 6,
        colors: 3,
        running: 1,
    };
    let queued = |c: u32| {
        assert_ne!(c, 1, "the running color's count was asked for");
        [0, 2, 3, 1][c as usize]
    };
    assert_eq!(
        census.choose_base(1, [1, 2, 3], queued),
        Choice::Take { color: 3 }
    );
    assert_eq!(
        census.choose_base(1, [1, 2], queued),
        Choice::refuse(Refusal::Half)
    );
    let one = Census {
        colors: 1,
        ..census
    };
    assert_eq!(
        one.choose_base(1, [1, 2, 3], queued),
        Choice::Refuse {
            why: Refusal::TwoColors,
            color: 1,
            left_ns: 0,
        }
    );
}

/// Mely with time-left and penalty off chooses as Libasync-smp does, on
/// the same queue (registered, then its first event taken): paper 002's
/// base stealing, walked on color-queues instead of events.
#[test]
fn base_mely_chooses_as_libasync() {
    let base = Mely {
        time_left: false,
        penalty: false,
        ..Mely::default()
    };
    let cases: [&[u32]; 5] = [
        &[1, 1, 1, 1, 1, 2],
        &[1, 2, 2, 3, 2, 1],
        &[1, 1, 2, 2],
        &[4, 4, 4],
        &[3, 1, 3, 2, 3, 1, 2],
    ];
    for colors in cases {
        let mut p = Quiet::default();
        let lib = Runtime::new(colored(colors), 2, Libasync);
        let mely = Runtime::new(colored(colors), 2, base);
        register_all(&lib, &mut p);
        register_all(&mely, &mut p);
        assert_eq!(choose(&lib, 0, 0), choose(&mely, 0, 0), "{colors:?}");
        // Both run the first event's color (Mely's batches make their next
        // pops differ, so one is enough).
        assert_eq!(pop(&lib, 0, &mut p), pop(&mely, 0, &mut p));
        assert_eq!(
            choose(&lib, 0, 0),
            choose(&mely, 0, 0),
            "{colors:?}, one taken"
        );
    }
}

/// A steal moves every queued event of the color, in order, and later
/// registrations of that color follow them to the stealer.
#[test]
fn a_libasync_steal_moves_the_whole_color_in_order() {
    let rt = Runtime::new(colored(&[1, 2, 3, 2, 1, 2, 2]), 2, Libasync);
    let mut p = Quiet::default();
    let mut t = Tally::default();
    for e in 0..6 {
        rt.register(&mut p, &mut t, None, ROOT, e);
    }
    assert_eq!(pop(&rt, 0, &mut p), Some(1));
    // Color 2 holds 3 of 5: not under half; color 3 is taken.
    assert!(rt.steal(1, &mut p, &mut t, &mut None));
    assert_eq!(pop(&rt, 1, &mut p), Some(3));
    assert!(matches!(p.0.last(), Some(EventKind::Dequeued { req: 2 })));
    // Event 6 (color 2) registers while 2 sits at core 0.
    rt.register(&mut p, &mut t, Some(1), 0, 6);
    let order: Vec<u32> =
        std::iter::from_fn(|| rt.pop(0, 0, &mut p, &mut t).map(|x| x.0)).collect();
    assert_eq!(order, vec![1, 3, 4, 5, 6]);
}

#[test]
fn mely_batches_then_moves_on() {
    // 15 events of color 1 then 5 of color 2.
    let mut spec = vec![(1, 9, 1); 15];
    spec.extend([(2, 9, 1); 5]);
    let rt = Runtime::new(events(&spec), 1, Mely::default());
    let mut p = Quiet::default();
    register_all(&rt, &mut p);
    let colors: Vec<u32> = std::iter::from_fn(|| pop(&rt, 0, &mut p)).collect();
    let mut want = vec![1; 10];
    want.extend([2; 5]);
    want.extend([1; 5]);
    assert_eq!(colors, want);
    let ops: Vec<(u32, u8)> =
        p.0.iter()
            .filter_map(|k| match *k {
                EventKind::ColorQueue { color, op, .. } => Some((color, op)),
                _ => None,
            })
            .collect();
    // Joined (1, 2); 1 to the tail after its batch; 2 leaves; 1 leaves.
    assert_eq!(ops, vec![(1, 0), (2, 0), (1, 2), (2, 1), (1, 1)]);
}

/// The stealing queue offers the color with the most time left. Color 1's
/// events cost 50 us with a penalty of 1000, color 2's 20 us: penalty-aware
/// offers 2 (1 counts as 50 ns), without penalties 1 (queued first in the
/// top interval). Time-left refuses 2 against a 30 us steal.
#[test]
fn mely_offers_the_color_with_most_time_left_penalties_included() {
    let spec = [(1, 50_000, 1000), (2, 20_000, 1), (3, 100, 1)];
    let on = Runtime::new(events(&spec), 2, Mely::default());
    let off = Runtime::new(
        events(&spec),
        2,
        Mely {
            penalty: false,
            ..Mely::default()
        },
    );
    let mut p = Quiet::default();
    register_all(&on, &mut p);
    register_all(&off, &mut p);
    assert_eq!(choose(&on, 0, 0), Choice::Take { color: 2 });
    assert_eq!(choose(&off, 0, 0), Choice::Take { color: 1 });
    assert_eq!(
        choose(&on, 0, 30_000),
        Choice::Refuse {
            why: Refusal::TimeLeft,
            color: 2,
            left_ns: 20_000
        }
    );
    // Core 0 starts running color 1 (its head): it leaves the offer.
    assert_eq!(pop(&off, 0, &mut p), Some(1));
    assert_eq!(choose(&off, 0, 0), Choice::Take { color: 2 });
}

/// Issue 28 item 3, paper 002 section IV-B: with time-left, the stealing
/// queue holds only worthy colors (time left above the cost of stealing
/// one event, 1 us before any steal is measured), a color enters when
/// its time left grows past that cost, and a stealer takes a worthy color
/// whichever interval it is in. Color 1: one 500 ns event (never worthy);
/// color 2: 600 ns, then 600 more (worthy at the second event).
#[test]
fn time_left_files_only_worthy_colors() {
    let m = Mely {
        penalty: false,
        ..Mely::default()
    };
    let rt = Runtime::new(events(&[(1, 500, 1), (2, 600, 1), (2, 600, 1)]), 2, m);
    assert_eq!(rt.event_cost(), 1000, "the configured cost to begin with");
    let mut p = Quiet::default();
    let mut t = Tally::default();
    rt.register(&mut p, &mut t, None, ROOT, 0);
    rt.register(&mut p, &mut t, None, ROOT, 1);
    let filed = |p: &Quiet| -> Vec<u32> {
        p.0.iter()
            .filter_map(|k| match *k {
                EventKind::StealQueue {
                    color, interval, ..
                } if interval != mely::LEFT_SQ => Some(color),
                _ => None,
            })
            .collect()
    };
    assert!(filed(&p).is_empty(), "500 and 600 ns are not worth 1 us");
    // Nothing worthy while colors are queued: refused by time-left, with
    // the first idle color and its time left.
    assert_eq!(
        choose(&rt, 0, rt.event_cost()),
        Choice::Refuse {
            why: Refusal::TimeLeft,
            color: 1,
            left_ns: 500
        }
    );
    rt.register(&mut p, &mut t, None, ROOT, 2);
    assert_eq!(filed(&p), vec![2], "1200 ns left: worthy");
    assert_eq!(choose(&rt, 0, rt.event_cost()), Choice::Take { color: 2 });
    // A stealer whose estimate has risen past 1200 ns re-checks: refused.
    assert!(matches!(
        choose(&rt, 0, 5000),
        Choice::Refuse {
            why: Refusal::TimeLeft,
            color: 2,
            ..
        }
    ));
}

#[test]
fn a_running_color_is_never_offered_and_a_free_color_goes_home() {
    let rt = Runtime::new(events(&[(4, 9_000, 1), (4, 9_000, 1)]), 3, Mely::default());
    let mut p = Quiet::default();
    register_all(&rt, &mut p);
    assert!(matches!(
        p.0.first(),
        Some(EventKind::ColorHome {
            color: 4,
            core: 0,
            how: 2
        })
    ));
    assert_eq!(pop(&rt, 0, &mut p), Some(4));
    assert!(matches!(
        choose(&rt, 0, 0),
        Choice::Refuse {
            why: Refusal::Nothing,
            color: NO_COLOR,
            ..
        }
    ));
    assert_eq!(pop(&rt, 0, &mut p), Some(4));
    assert_eq!(pop(&rt, 0, &mut p), None);
    assert_eq!(
        rt.slot(4).owner.load(crate::sync::Ordering::Relaxed),
        runtime::FREE,
        "drained and not running: free again"
    );
}

#[test]
fn parameters_are_checked_and_routed() {
    assert!(Coloring::from_params(SchedulerId::Early, &ColoringParams::default()).is_err());
    assert!(Coloring::from_params(
        SchedulerId::Mely,
        &params(serde_json::json!({ "batch": 0 }))
    )
    .is_err());
    assert!(Coloring::from_params(
        SchedulerId::Libasync,
        &params(serde_json::json!({ "queue_capacity": 0 }))
    )
    .is_err());
    let mut spec = SchedulerSpec::new(SchedulerId::Libasync);
    spec.coloring = Some(params(serde_json::json!({ "batch": 3 })));
    let env = crate::BuildEnv {
        classes: &psmr_core::ClassTable::sharded(1),
        threads: 2,
    };
    assert!(crate::build(&spec, &env).is_err(), "batch is mely's");
    spec.id = SchedulerId::Mely;
    assert_eq!(crate::build(&spec, &env).unwrap().id(), SchedulerId::Mely);
}

/// With the `fault-injection` feature a scenario selects the broken
/// stealer through `SchedulerSpec::fault`; `build` refuses unknown faults.
#[cfg(feature = "fault-injection")]
#[test]
fn a_spec_selects_the_broken_runtime_and_the_oracle_catches_it() {
    let s = testkit::event_stream_spin(9, 6, 6, 2, 300_000);
    let env = s.build_env(2);
    for id in [SchedulerId::Libasync, SchedulerId::Mely] {
        let mut spec = SchedulerSpec::new(id);
        spec.fault = Some("ws-ignore-flags".into());
        assert!(matches!(
            crate::build(&spec, &env),
            Err(RunError::InvalidConfig(_))
        ));
        spec.fault = Some(FAULT_STEAL_RUNNING.into());
        let sched = crate::build(&spec, &env).unwrap();
        let caught = (0..6).any(|_| {
            let r = testkit::try_run(sched.as_ref(), &s, 2).unwrap();
            !r.verdict.correct
        });
        assert!(caught, "{id}: the oracle never caught the broken stealer");
    }
}

/// A core's probe reads the run's clock (the `Probe` default, 0, means "no
/// clock" and is only for the model checkers): a scheduler that spins 100
/// µs between two readings sees at least that much time pass.
#[test]
fn a_core_probe_forwards_the_runs_clock() {
    struct Clocked;
    impl Scheduler for Clocked {
        fn id(&self) -> SchedulerId {
            SchedulerId::Sequential
        }
        fn run(&self, ctx: &RunContext<'_>) -> Result<RunOutput, RunError> {
            let probe = CoreProbe::new(ctx, 0);
            let before = Probe::now_ns(&probe);
            psmr_core::clock::spin_for(100_000);
            let elapsed = Probe::now_ns(&probe).saturating_sub(before);
            assert!(elapsed >= 100_000, "the probe's clock moved {elapsed} ns");
            crate::sequential::Sequential::new().run(ctx)
        }
    }
    let s = Stream::new(testkit::list(1), &testkit::workload(1, 10, 0.5, 0.0));
    testkit::assert_correct(&testkit::run(&Clocked, &s, 1));
}

/// The codes the runtimes record for a refused steal (`Refusal`'s own
/// discriminants) are the vocabulary's names' (the web reads them by name
/// from `psmr schema --trace`).
#[test]
fn recorded_small_codes_are_the_vocabularys() {
    use super::runtime::Refusal;
    let names = |kind: &str, field: &str| {
        psmr_core::trace::SMALL_CODES
            .iter()
            .find(|(k, f, _)| *k == kind && *f == field)
            .map(|e| e.2)
            .unwrap()
    };
    let refusals = names("steal-refused", "heuristic");
    for (r, name) in [
        (Refusal::TwoColors, "two-colors"),
        (Refusal::Half, "half"),
        (Refusal::TimeLeft, "time-left"),
        (Refusal::Nothing, "nothing"),
    ] {
        assert_eq!(refusals[r as usize], name);
    }
}
