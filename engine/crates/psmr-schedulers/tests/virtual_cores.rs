//! The real schedulers on virtual cores (issue 25): every scheduler correct
//! under the oracle on 1, 2, 4 and 8 virtual cores over three seeds, and
//! the same trace, byte for byte, on every repeat of a run; one seed on 16
//! and 32 cores, and every family on 64.
//!
//! `PSMR_VIRTUAL_MATRIX=full` runs issue 25's whole matrix instead: all 16
//! schedulers on 1, 2, 4, 8, 16 and 32 virtual cores over seeds 1-10, each
//! run three times with the same trace (docs/protocols/virtual-cores.md
//! gives its time; too long for every `npm test`).

use std::collections::BTreeSet;

use psmr_core::app::AppSpec;
use psmr_core::run::RunResult;
use psmr_core::virt::CostTable;
use psmr_core::workload::{SplitMix64, WorkloadSpec};
use psmr_core::workload_ycsb::{YcsbKeyOrder, YcsbSpec, YcsbWorkload};
use psmr_core::{EventKind, Scheduler, SchedulerId};
use psmr_schedulers::busy_wait::BusyWait;
use psmr_schedulers::coloring::Coloring;
use psmr_schedulers::early::{Early, FamilyConfig};
use psmr_schedulers::epaxos::{parallel::Pepaxos, Epaxos};
use psmr_schedulers::late::Late;
use psmr_schedulers::repart::{Repart, Strategy};
use psmr_schedulers::sequential::Sequential;
use psmr_schedulers::spec::SpinPolicy;
use psmr_schedulers::testkit::{self, Stream};
use psmr_schedulers::work_stealing::WorkStealing;

/// Whether to run the whole matrix (`PSMR_VIRTUAL_MATRIX=full`).
fn full() -> bool {
    std::env::var_os("PSMR_VIRTUAL_MATRIX").is_some_and(|v| v == "full")
}

/// Core counts of the matrix.
fn cores() -> &'static [usize] {
    if full() {
        &[1, 2, 4, 8, 16, 32]
    } else {
        &[1, 2, 4, 8]
    }
}

/// Seeds of the matrix: one stream per seed.
fn seeds() -> Vec<u64> {
    if full() {
        (1..=10).collect()
    } else {
        vec![1, 2, 3]
    }
}

/// One checked run of `s` on `threads` virtual workers (reference table).
fn run_virtual(s: &dyn Scheduler, stream: &Stream, threads: usize) -> RunResult {
    testkit::run_virtual(s, stream, threads)
}

/// FNV-1a of the run's whole trace (order, threads, times, events).
fn trace_digest(r: &RunResult) -> u64 {
    format!("{:?}", r.trace)
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        })
}

/// Threads that executed at least one request.
fn executors(r: &RunResult) -> usize {
    r.trace
        .iter()
        .filter(|e| matches!(e.kind, EventKind::ExecStart { .. }))
        .map(|e| e.thread)
        .collect::<BTreeSet<_>>()
        .len()
}

/// Run each scheduler `make(stream, threads, seed)` gives on each stream
/// and core count: correct, and the same trace on `repeats` more runs
/// (two more in the full matrix: three runs of each).
fn check(
    streams: &[Stream],
    repeats: usize,
    make: impl Fn(&Stream, usize, u64) -> Box<dyn Scheduler>,
) {
    check_on(streams, cores(), repeats, make);
}

fn check_on(
    streams: &[Stream],
    cores: &[usize],
    repeats: usize,
    make: impl Fn(&Stream, usize, u64) -> Box<dyn Scheduler>,
) {
    let repeats = if full() { repeats.max(2) } else { repeats };
    let seeds = seeds();
    for (k, stream) in streams.iter().enumerate() {
        for &threads in cores {
            let s = make(stream, threads, seeds[k]);
            let first = run_virtual(s.as_ref(), stream, threads);
            testkit::assert_correct(&first);
            let digest = trace_digest(&first);
            for _ in 0..repeats {
                let again = run_virtual(s.as_ref(), stream, threads);
                assert_eq!(
                    trace_digest(&again),
                    digest,
                    "{} on {threads} virtual cores, stream {k}: the trace changed",
                    s.id()
                );
            }
        }
    }
}

fn lists() -> Vec<Stream> {
    seeds()
        .iter()
        .map(|&seed| Stream::new(testkit::list(2), &testkit::workload(seed, 300, 0.3, 0.1)))
        .collect()
}

fn commits() -> Vec<Stream> {
    seeds()
        .iter()
        .map(|&seed| testkit::commit_stream(seed, 200, 3, 0.4))
        .collect()
}

fn events() -> Vec<Stream> {
    seeds()
        .iter()
        .map(|&seed| testkit::event_stream_spin(seed, 30, 3, 5, 2_000))
        .collect()
}

fn ycsb() -> Vec<Stream> {
    let app = AppSpec::KvStore {
        shards: 4,
        keys: 2_000,
        value_bytes: 8,
    };
    seeds()
        .iter()
        .map(|&seed| {
            let w = WorkloadSpec {
                ycsb: Some(YcsbSpec {
                    workload: YcsbWorkload::A,
                    key_order: YcsbKeyOrder::Ordered,
                    distribution: None,
                    min_scan_len: None,
                    max_scan_len: None,
                }),
                ..testkit::workload(seed, 400, 0.0, 0.0)
            };
            Stream::new(app.clone(), &w)
        })
        .collect()
}

fn spin() -> SpinPolicy {
    SpinPolicy {
        spins: 64,
        yields: 64,
        park_us: 20,
    }
}

/// The early family and work stealing on a random valid mapping.
fn mapped(id: SchedulerId) -> impl Fn(&Stream, usize, u64) -> Box<dyn Scheduler> {
    move |stream, threads, seed| {
        let ctot = testkit::random_mapping(2, threads, &mut SplitMix64::new(seed));
        let config = || FamilyConfig::from_ctot(&ctot, &stream.classes, 64, "test".into()).unwrap();
        match id {
            SchedulerId::Early => Box::new(Early::new(config())),
            SchedulerId::BusyWait => Box::new(BusyWait::new(config(), spin())),
            _ => Box::new(WorkStealing::with_ctot(id, &ctot, &stream.classes, spin(), 64).unwrap()),
        }
    }
}

fn coloring(id: SchedulerId) -> impl Fn(&Stream, usize, u64) -> Box<dyn Scheduler> {
    move |_, _, _| {
        let p = serde_json::from_value(serde_json::json!({})).unwrap();
        Box::new(Coloring::from_params(id, &p).unwrap())
    }
}

#[test]
fn sequential_on_virtual_cores() {
    check(&lists(), 2, |_, _, _| Box::new(Sequential::new()));
}

#[test]
fn early_on_virtual_cores() {
    check(&lists(), 2, mapped(SchedulerId::Early));
}

#[test]
fn busy_wait_on_virtual_cores() {
    check(&lists(), 2, mapped(SchedulerId::BusyWait));
}

#[test]
fn conservative_work_stealing_on_virtual_cores() {
    check(&lists(), 2, mapped(SchedulerId::WsConservative));
}

const OTHER_STEALING: [SchedulerId; 3] = [
    SchedulerId::WsModerate,
    SchedulerId::WsAggressive,
    SchedulerId::WsOptimistic,
];

#[test]
fn the_other_work_stealing_variants_on_virtual_cores() {
    let lists = lists();
    // Two of the three default streams; every stream in the full matrix.
    let n = if full() { lists.len() } else { 2 };
    for id in OTHER_STEALING {
        check(&lists[..n], 1, mapped(id));
    }
}

#[test]
fn late_and_epaxos_on_virtual_cores() {
    check(&lists(), 1, |_, _, _| Box::new(Late::new(None).unwrap()));
    check(&commits(), 1, |_, _, _| Box::new(Epaxos::new()));
    check(&commits(), 1, |_, _, _| Box::new(Pepaxos::new(spin())));
}

#[test]
fn event_coloring_on_virtual_cores() {
    check(&events(), 1, coloring(SchedulerId::Libasync));
    check(&events(), 1, coloring(SchedulerId::Mely));
}

const STRATEGIES: [Strategy; 4] = [
    Strategy::RoundRobin,
    Strategy::SingleWorker,
    Strategy::Base { delta_p: 300 },
    Strategy::Async { window: Some(200) },
];

#[test]
fn repartitioning_on_virtual_cores() {
    for strategy in STRATEGIES {
        check(&ycsb(), 1, |_, _, _| Box::new(Repart::new(strategy)));
    }
}

#[test]
fn virtual_cores_run_workers_side_by_side() {
    // Early scheduling on 4 virtual cores with a concurrent-heavy mapping:
    // the conductor gives every worker turns, so more than one executes.
    let stream = &lists()[0];
    let s = mapped(SchedulerId::Early)(stream, 4, 1);
    let r = run_virtual(s.as_ref(), stream, 4);
    assert!(executors(&r) > 1, "{} executors", executors(&r));
}

#[test]
fn virtual_time_is_the_model_not_the_wall_clock() {
    // Sequential on the list: the times are the model's sums, the same on
    // every machine, whatever the wall time was.
    let stream = &lists()[0];
    let a = run_virtual(&Sequential::new(), stream, 1);
    let b = run_virtual(&Sequential::new(), stream, 1);
    assert_eq!(a.metrics, b.metrics);
    let c = CostTable::reference();
    let last = a.trace.iter().map(|e| e.t_ns).max().unwrap();
    // 300 requests, each at least the fixed part plus a 1K-node walk.
    assert!(
        last >= 300 * (c.execute_base + 1_000 * c.work_unit),
        "{last}"
    );
}

/// How to build a scheduler for a stream, a core count and a seed.
type Make = Box<dyn Fn(&Stream, usize, u64) -> Box<dyn Scheduler>>;

/// The streams of scheduler `id` and how to build it, for the runs on
/// many cores.
fn any_scheduler(id: SchedulerId) -> (Vec<Stream>, Make) {
    fn boxed(s: impl Scheduler + 'static) -> Box<dyn Scheduler> {
        Box::new(s)
    }
    match id {
        SchedulerId::Sequential => (lists(), Box::new(|_, _, _| boxed(Sequential::new()))),
        SchedulerId::Late => (lists(), Box::new(|_, _, _| boxed(Late::new(None).unwrap()))),
        SchedulerId::Epaxos => (commits(), Box::new(|_, _, _| boxed(Epaxos::new()))),
        SchedulerId::Pepaxos => (commits(), Box::new(|_, _, _| boxed(Pepaxos::new(spin())))),
        SchedulerId::Libasync | SchedulerId::Mely => (events(), Box::new(coloring(id))),
        SchedulerId::RepartRr
        | SchedulerId::RepartSw
        | SchedulerId::RepartBase
        | SchedulerId::RepartAsync => {
            let strategy = STRATEGIES
                .into_iter()
                .find(|s| Repart::new(*s).id() == id)
                .unwrap();
            (
                ycsb(),
                Box::new(move |_, _, _| boxed(Repart::new(strategy))),
            )
        }
        // The early family and work stealing.
        _ => (lists(), Box::new(mapped(id))),
    }
}

#[test]
fn every_scheduler_on_16_and_32_virtual_cores() {
    if full() {
        return; // the full matrix covers 16 and 32 on every seed
    }
    for id in SchedulerId::ALL {
        let (streams, make) = any_scheduler(id);
        check_on(&streams[..1], &[16, 32], 1, |st, t, seed| {
            let s = make(st, t, seed);
            assert_eq!(s.id(), id);
            s
        });
    }
}

#[test]
fn every_scheduler_runs_on_64_virtual_cores() {
    // The native limit of workers: 64 virtual cores (plus the roles and
    // the driver, each on its own), one run each, judged by the oracle.
    for id in SchedulerId::ALL {
        let (streams, make) = any_scheduler(id);
        let s = make(&streams[0], 64, 1);
        assert_eq!(s.id(), id);
        let r = run_virtual(s.as_ref(), &streams[0], 64);
        testkit::assert_correct(&r);
        assert_eq!(r.threads, 64, "{id}");
    }
}
