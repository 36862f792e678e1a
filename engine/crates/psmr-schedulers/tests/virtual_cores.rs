//! The real schedulers on virtual cores (issue 25): correct under the
//! oracle on 1, 2, 4 and 8 virtual cores over a few seeds, and the same
//! trace on every repeat of a run.

use psmr_core::cancel::CancelToken;
use psmr_core::exec::{Delivery, Progress};
use psmr_core::run::{run_checked, RunInput, RunResult};
use psmr_core::threads::ThreadHost;
use psmr_core::trace::TraceConfig;
use psmr_core::virt::CostTable;
use psmr_core::workload::SplitMix64;
use psmr_core::{Scheduler, SchedulerId};
use psmr_mapping::CtoT;
use psmr_schedulers::busy_wait::BusyWait;
use psmr_schedulers::early::{Early, FamilyConfig};
use psmr_schedulers::sequential::Sequential;
use psmr_schedulers::spec::SpinPolicy;
use psmr_schedulers::testkit::{self, Stream};
use psmr_schedulers::work_stealing::WorkStealing;

const CORES: [usize; 4] = [1, 2, 4, 8];
const SEEDS: [u64; 3] = [1, 2, 3];

/// One checked run of `s` on `threads` virtual workers (reference table).
fn run_virtual(s: &dyn Scheduler, stream: &Stream, threads: usize, trace: bool) -> RunResult {
    let host = ThreadHost::with_capacity(threads + s.roles().len())
        .unwrap()
        .virtual_cores(CostTable::reference());
    let input = RunInput {
        app: &stream.app,
        classes: &stream.classes,
        stream: &stream.stream,
        host: &host,
        trace: if trace {
            TraceConfig::on()
        } else {
            TraceConfig::OFF
        },
        pace_ns: 0,
        thread_pace_ns: &[],
        delivery: Delivery::Saturate,
    };
    let progress = Progress::new(threads + 1);
    let r = run_checked(
        s,
        threads,
        &input,
        &stream.reference,
        &CancelToken::default(),
        &progress,
    )
    .unwrap_or_else(|e| panic!("{} on {threads} virtual cores: {e}", s.id()));
    let stats = host
        .last_virtual_stats()
        .expect("the team ran on virtual cores");
    assert!(stats.points > 0, "{stats:?}");
    r
}

/// FNV-1a of the run's whole trace, times included.
fn trace_digest(r: &RunResult) -> u64 {
    format!("{:?}", r.trace)
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        })
}

fn stream(seed: u64) -> Stream {
    Stream::new(testkit::list(2), &testkit::workload(seed, 300, 0.3, 0.1))
}

fn mapping(threads: usize, seed: u64) -> CtoT {
    testkit::random_mapping(2, threads, &mut SplitMix64::new(seed))
}

fn spin() -> SpinPolicy {
    SpinPolicy {
        spins: 64,
        yields: 64,
        park_us: 20,
    }
}

/// Build the scheduler `id` for `threads` workers on `stream`.
fn build(id: SchedulerId, stream: &Stream, threads: usize, seed: u64) -> Box<dyn Scheduler> {
    let ctot = mapping(threads, seed);
    let config = || FamilyConfig::from_ctot(&ctot, &stream.classes, 64, "test".into()).unwrap();
    match id {
        SchedulerId::Sequential => Box::new(Sequential),
        SchedulerId::Early => Box::new(Early::new(config())),
        SchedulerId::BusyWait => Box::new(BusyWait::new(config(), spin())),
        _ => Box::new(WorkStealing::with_ctot(id, &ctot, &stream.classes, spin(), 64).unwrap()),
    }
}

fn correct_and_repeatable(id: SchedulerId) {
    for seed in SEEDS {
        let stream = stream(seed);
        for threads in CORES {
            let s = build(id, &stream, threads, seed);
            let first = run_virtual(s.as_ref(), &stream, threads, true);
            testkit::assert_correct(&first);
            let digest = trace_digest(&first);
            for _ in 0..2 {
                let again = run_virtual(s.as_ref(), &stream, threads, true);
                assert_eq!(
                    trace_digest(&again),
                    digest,
                    "{id} on {threads} virtual cores, seed {seed}: the trace changed"
                );
            }
        }
    }
}

#[test]
fn sequential_on_virtual_cores() {
    correct_and_repeatable(SchedulerId::Sequential);
}

#[test]
fn early_on_virtual_cores() {
    correct_and_repeatable(SchedulerId::Early);
}

#[test]
fn busy_wait_on_virtual_cores() {
    correct_and_repeatable(SchedulerId::BusyWait);
}

#[test]
fn conservative_work_stealing_on_virtual_cores() {
    correct_and_repeatable(SchedulerId::WsConservative);
}

#[test]
fn virtual_time_is_the_model_not_the_wall_clock() {
    // Sequential on the list: the makespan is the model's sum, the same
    // on every machine, whatever the wall time was.
    let stream = stream(1);
    let a = run_virtual(&Sequential, &stream, 1, true);
    let b = run_virtual(&Sequential, &stream, 1, true);
    assert_eq!(a.metrics, b.metrics);
    let c = CostTable::reference();
    let last_end = a.trace.iter().map(|e| e.t_ns).max().unwrap();
    // 300 requests, each at least the fixed part plus a 1K-node walk.
    assert!(
        last_end >= 300 * (c.execute_base + 1_000 * c.work_unit),
        "{last_end}"
    );
}
