//! Test helpers shared by the schedulers' tests: build a request stream,
//! run any [`Scheduler`] through [`run_checked`] on a fresh [`ThreadHost`],
//! assert the oracle's verdict, and build valid classes-to-threads mappings
//! (hand-written, random, paper 000 Table 1).
//!
//! Every run goes through the oracle; nothing here compares against
//! hard-coded results.

use psmr_core::app::{AppSpec, ListCost};
use psmr_core::cancel::CancelToken;
use psmr_core::exec::{Delivery, Progress};
use psmr_core::oracle::Reference;
use psmr_core::run::{run_checked, RunInput, RunResult};
use psmr_core::threads::ThreadHost;
use psmr_core::trace::{TraceConfig, TraceEvent};
use psmr_core::workload::{class_weights, generate, SplitMix64, WorkloadSpec};
use psmr_core::{ClassTable, EventKind, RunError, Scheduler, WaitReason};
use psmr_mapping::{ClassMapping, CtoT, Mode};

/// A generated stream with everything a checked run needs; derefs to the
/// core [`psmr_core::Stream`].
pub struct Stream {
    pub app: AppSpec,
    /// Classes with the workload's weights filled in.
    pub classes: ClassTable,
    pub stream: psmr_core::Stream,
    pub reference: Reference,
}

impl Stream {
    pub fn new(app: AppSpec, w: &WorkloadSpec) -> Self {
        let mut classes = app.classes();
        classes.set_weights(&class_weights(&classes, w));
        let stream = generate(&app, &classes, w);
        Self::from_parts(app, classes, stream)
    }
    /// Any stream (commits, events) on `app`, with its reference.
    pub fn from_parts(app: AppSpec, classes: ClassTable, stream: psmr_core::Stream) -> Self {
        let reference = Reference::compute(app.build().as_ref(), &stream);
        Stream {
            app,
            classes,
            stream,
            reference,
        }
    }
    pub fn shards(&self) -> usize {
        self.app.shards()
    }
    /// What a family's build sees of a run of this stream on `threads`
    /// workers (its classes).
    pub fn build_env(&self, threads: usize) -> crate::BuildEnv<'_> {
        crate::BuildEnv {
            classes: &self.classes,
            threads,
        }
    }
}

impl std::ops::Deref for Stream {
    type Target = psmr_core::Stream;
    fn deref(&self) -> &psmr_core::Stream {
        &self.stream
    }
}

/// A linked list of `shards` shards, light cost (1K entries each).
pub fn list(shards: usize) -> AppSpec {
    AppSpec::LinkedList {
        shards,
        size: ListCost::Light,
    }
}

/// The synthetic app: every request spins `ns` nanoseconds.
pub fn spin(shards: usize, ns: u32) -> AppSpec {
    AppSpec::Spin { shards, ns }
}

/// The stream of the families' cancellation tests ([`run_cancelled_after`]
/// after 200 deliveries): 4000 requests of 2 µs on two shards, so a cancel
/// lands midway however fast the machine delivers.
pub fn cancel_stream() -> Stream {
    Stream::new(spin(2, 2_000), &workload(9, 4000, 0.2, 0.05))
}

/// A balanced workload: `writes` and `global` are shares in 0..=1.
pub fn workload(seed: u64, requests: u32, writes: f64, global: f64) -> WorkloadSpec {
    WorkloadSpec::balanced(seed, requests, writes, global)
}

/// Run `scheduler` with `threads` workers on `stream`, tracing on.
pub fn run(scheduler: &dyn Scheduler, stream: &Stream, threads: usize) -> RunResult {
    run_with(
        scheduler,
        stream,
        threads,
        TraceConfig::on(),
        &CancelToken::default(),
        0,
    )
    .unwrap_or_else(|e| panic!("run failed: {e}"))
}

/// Run `scheduler` with `threads` workers on `stream`, tracing off, not
/// cancelled, unpaced; the run's error if it fails.
pub fn try_run(
    scheduler: &dyn Scheduler,
    stream: &Stream,
    threads: usize,
) -> Result<RunResult, RunError> {
    run_with(
        scheduler,
        stream,
        threads,
        TraceConfig::OFF,
        &CancelToken::default(),
        0,
    )
}

/// The events of `r`'s trace where a thread began to wait for `reason`.
pub fn wait_starts(r: &RunResult, reason: WaitReason) -> impl Iterator<Item = &TraceEvent> {
    r.trace.iter().filter(
        move |e| matches!(e.kind, EventKind::WaitStart { reason: why, .. } if why == reason),
    )
}

/// Run with every knob: trace settings, a cancel token (another thread may
/// cancel while it runs), and a per-request pace. Each run gets its own
/// thread pool (sharing one pool between tests running in parallel could
/// starve a run of the threads it blocks on).
pub fn run_with(
    scheduler: &dyn Scheduler,
    stream: &Stream,
    threads: usize,
    trace: TraceConfig,
    cancel: &CancelToken,
    pace_ns: u64,
) -> Result<RunResult, RunError> {
    let progress = Progress::new(threads + 1);
    let knobs = Knobs {
        trace,
        cancel,
        pace_ns,
        progress: &progress,
    };
    run_progress(scheduler, stream, threads, knobs)
}

/// [`run_with`] with a caller-owned progress counter in `knobs` (to cancel
/// after a number of deliveries, say).
pub fn run_progress(
    scheduler: &dyn Scheduler,
    stream: &Stream,
    threads: usize,
    knobs: Knobs<'_>,
) -> Result<RunResult, RunError> {
    let host = host_for(scheduler, threads).map_err(RunError::Threads)?;
    run_on(&host, scheduler, stream, threads, knobs)
}

/// A host with room for `threads` workers and the scheduler's auxiliary
/// roles (tracker, partitioner).
fn host_for(scheduler: &dyn Scheduler, threads: usize) -> Result<ThreadHost, String> {
    ThreadHost::with_capacity(threads + crate::needs(scheduler.id()).roles.len())
}

/// Run `scheduler` with `threads` workers on virtual cores (issue 25's
/// conductor, the reference cost table), tracing on. The same run gives
/// the same trace every time, so a test can require what real threads show
/// only when the OS lets them (a background partitioner finishing a map
/// before the stream ends on a loaded machine).
pub fn run_virtual(scheduler: &dyn Scheduler, stream: &Stream, threads: usize) -> RunResult {
    let host = host_for(scheduler, threads)
        .unwrap_or_else(|e| panic!("threads: {e}"))
        .virtual_cores(psmr_core::virt::CostTable::reference());
    let progress = Progress::new(threads + 1);
    let knobs = Knobs {
        trace: TraceConfig::on(),
        cancel: &CancelToken::default(),
        pace_ns: 0,
        progress: &progress,
    };
    let r = run_on(&host, scheduler, stream, threads, knobs)
        .unwrap_or_else(|e| panic!("{} on {threads} virtual cores: {e}", scheduler.id()));
    let stats = host
        .last_virtual_stats()
        .expect("the team ran on virtual cores");
    assert!(stats.points > 0, "{stats:?}");
    r
}

/// What a run is given besides its scheduler, stream and threads.
pub struct Knobs<'a> {
    pub trace: TraceConfig,
    /// Another thread may cancel the run through it while it runs.
    pub cancel: &'a CancelToken,
    /// Each request's pace, ns.
    pub pace_ns: u64,
    /// The run's live counters (deliveries, per-thread states).
    pub progress: &'a Progress,
}

/// One checked run of `scheduler` on `host`.
fn run_on(
    host: &ThreadHost,
    scheduler: &dyn Scheduler,
    stream: &Stream,
    threads: usize,
    knobs: Knobs<'_>,
) -> Result<RunResult, RunError> {
    let roles = crate::needs(scheduler.id()).roles;
    let input = RunInput {
        app: &stream.app,
        classes: &stream.classes,
        stream: &stream.stream,
        host,
        trace: knobs.trace,
        pace_ns: knobs.pace_ns,
        thread_pace_ns: &[],
        delivery: Delivery::Saturate,
    };
    run_checked(
        scheduler,
        roles,
        threads,
        &input,
        &stream.reference,
        knobs.cancel,
        knobs.progress,
    )
}

/// Panic with the oracle's finding unless the run was correct.
pub fn assert_correct(r: &RunResult) {
    assert!(
        r.verdict.correct,
        "{} with {} threads: {}",
        r.scheduler,
        r.threads,
        r.verdict
            .violation
            .as_ref()
            .map_or("incorrect".to_string(), |v| v.to_string())
    );
}

/// A mapping from `(mode, threads)` per class id.
pub fn ctot(threads: usize, classes: &[(Mode, &[usize])]) -> CtoT {
    CtoT {
        threads,
        classes: classes
            .iter()
            .map(|(mode, ts)| ClassMapping {
                mode: *mode,
                threads: ts.to_vec(),
            })
            .collect(),
    }
}

/// Paper 000 Table 1: two shards, four threads (classes R1 W1 R2 W2 Rg Wg).
pub fn table1() -> CtoT {
    use Mode::{Concurrent as C, Sequential as S};
    ctot(
        4,
        &[
            (C, &[0, 2]),
            (S, &[0, 2]),
            (C, &[1, 3]),
            (S, &[1, 3]),
            (S, &[0, 3]),
            (S, &[0, 1, 2, 3]),
        ],
    )
}

/// A random mapping of the sharded classes (`ClassTable::sharded`) onto
/// `threads` workers that satisfies rules R.1-R.5 by construction:
///
/// * `Wi` sequential on a random non-empty set;
/// * `Ri` concurrent on a subset of `Wi` (R.4), or sequential on a random
///   set sharing a thread with `Wi` (R.5);
/// * `Rg` concurrent on a subset of every `Wi` when they intersect, else
///   sequential with one thread of each `Wi` plus random extras;
/// * `Wg` sequential, containing every concurrent class's threads (R.4) and
///   one thread of every sequential class (R.5).
pub fn random_mapping(shards: usize, threads: usize, rng: &mut SplitMix64) -> CtoT {
    let all: Vec<usize> = (0..threads).collect();
    let mut classes = vec![
        ClassMapping {
            mode: Mode::Sequential,
            threads: vec![]
        };
        2 * shards + 2
    ];
    let mut writers_common = all.clone();
    for i in 0..shards {
        let w = subset(rng, &all);
        writers_common.retain(|t| w.contains(t));
        classes[2 * i] = if rng.below(2) == 0 {
            ClassMapping {
                mode: Mode::Concurrent,
                threads: subset(rng, &w),
            }
        } else {
            let mut r = subset(rng, &all);
            r.push(pick(rng, &w));
            ClassMapping {
                mode: Mode::Sequential,
                threads: r,
            }
        };
        classes[2 * i + 1] = ClassMapping {
            mode: Mode::Sequential,
            threads: w,
        };
    }
    classes[2 * shards] = if !writers_common.is_empty() && rng.below(2) == 0 {
        ClassMapping {
            mode: Mode::Concurrent,
            threads: subset(rng, &writers_common),
        }
    } else {
        let mut rg: Vec<usize> = (0..shards)
            .map(|i| pick(rng, &classes[2 * i + 1].threads))
            .collect();
        if rng.below(2) == 0 {
            rg.extend(subset(rng, &all));
        }
        ClassMapping {
            mode: Mode::Sequential,
            threads: rg,
        }
    };
    let mut wg = Vec::new();
    for c in &classes[..2 * shards + 1] {
        match c.mode {
            Mode::Concurrent => wg.extend(&c.threads),
            Mode::Sequential => wg.push(pick(rng, &c.threads)),
        }
    }
    if rng.below(2) == 0 {
        wg.extend(subset(rng, &all));
    }
    classes[2 * shards + 1] = ClassMapping {
        mode: Mode::Sequential,
        threads: wg,
    };
    for c in &mut classes {
        c.threads.sort_unstable();
        c.threads.dedup();
    }
    CtoT { threads, classes }
}

/// A random non-empty subset of `from` (not empty itself).
fn subset(rng: &mut SplitMix64, from: &[usize]) -> Vec<usize> {
    let mut s: Vec<usize> = from.iter().copied().filter(|_| rng.below(2) == 0).collect();
    if s.is_empty() {
        s.push(pick(rng, from));
    }
    s
}

fn pick(rng: &mut SplitMix64, from: &[usize]) -> usize {
    from[rng.below(from.len() as u64) as usize]
}

#[cfg(all(test, not(loom), not(shuttle)))]
mod tests {
    use super::*;

    #[test]
    fn random_mappings_satisfy_the_rules() {
        let mut rng = SplitMix64::new(11);
        for shards in 1..=4 {
            let table = ClassTable::sharded(shards);
            for threads in 1..=6 {
                for _ in 0..50 {
                    let m = random_mapping(shards, threads, &mut rng);
                    if let Err(v) = m.validate(&table) {
                        panic!("{m:?} breaks {}", psmr_mapping::rules::describe(&v));
                    }
                }
            }
        }
    }

    #[test]
    fn table1_satisfies_the_rules() {
        assert_eq!(table1().validate(&ClassTable::sharded(2)), Ok(()));
    }
}

/// Run `scheduler` with `threads` workers on `stream` (tracing off, each
/// request paced `pace_ns`) while another thread cancels the run once it
/// has seen `after` deliveries; check that the run was cancelled in time
/// (`after` or more deliveries, not all), is correct for what it
/// delivered, and ran exactly that.
pub fn run_cancelled_after(
    scheduler: &dyn Scheduler,
    stream: &Stream,
    threads: usize,
    after: u64,
    pace_ns: u64,
) -> RunResult {
    let cancel = CancelToken::default();
    let progress = Progress::new(threads + 1);
    let r = std::thread::scope(|sc| {
        sc.spawn(|| {
            while progress.delivered() < after {
                std::thread::yield_now();
            }
            cancel.cancel();
        });
        let knobs = Knobs {
            trace: TraceConfig::OFF,
            cancel: &cancel,
            pace_ns,
            progress: &progress,
        };
        run_progress(scheduler, stream, threads, knobs)
            .unwrap_or_else(|e| panic!("run failed: {e}"))
    });
    assert_correct(&r);
    let id = scheduler.id();
    assert!(r.cancelled, "{id}");
    let delivered = r.output.delivered as usize;
    assert!(
        (after as usize..stream.requests.len()).contains(&delivered),
        "{id} delivered {delivered}"
    );
    assert_eq!(r.metrics.requests as usize, delivered, "{id}");
    r
}

/// Run `scheduler` on one worker thread with a cancel set in advance after
/// `k` deliveries.
pub fn run_progress_cancel_after(
    scheduler: &dyn Scheduler,
    stream: &Stream,
    k: usize,
    cancel: &CancelToken,
    progress: &Progress,
) -> RunResult {
    cancel.cancel_at(k as u64);
    let knobs = Knobs {
        trace: TraceConfig::on(),
        cancel,
        pace_ns: 0,
        progress,
    };
    run_progress(scheduler, stream, 1, knobs).unwrap_or_else(|e| panic!("run failed: {e}"))
}

/// A random commit stream over the spin app's `shards` cells: `instances`
/// instances of one or two single-shard commands, `writes` the share of
/// writing commands. Dependencies follow ePaxos's interference property
/// (every conflicting pair is related through dependencies): each command
/// depends on the latest earlier write of its shard and, for a write, on
/// the reads since; some instances also depend on a later conflicting one
/// (a dependency on a later commit), which makes cycles. Sequence numbers
/// are random, so the order inside an SCC is not the commit order.
pub fn commit_stream(seed: u64, instances: usize, shards: usize, writes: f64) -> Stream {
    use psmr_core::cell::Span;
    use psmr_core::stream::{CommitTable, StreamBuilder};
    use psmr_core::{Op, ShardSet};
    let app = spin(shards, 0);
    let classes = app.classes();
    let mut rng = SplitMix64::new(seed);
    let mut b = StreamBuilder::new(app.cell_space(), instances * 2);
    let mut first = vec![0u32];
    // Per shard: the last writing instance and the instances reading since.
    let mut last_write: Vec<Option<u32>> = vec![None; shards];
    let mut reads_since: Vec<Vec<u32>> = vec![Vec::new(); shards];
    let mut deps: Vec<Vec<u32>> = vec![Vec::new(); instances];
    let mut touched: Vec<Vec<(usize, bool)>> = vec![Vec::new(); instances];
    for i in 0..instances as u32 {
        for _ in 0..1 + rng.below(2) {
            let shard = rng.below(shards as u64) as usize;
            let write = rng.unit() < writes;
            let class = classes.local(shard, write).unwrap_or(0);
            let op = Op::Spin {
                ns: 0,
                shards: ShardSet::single(shard),
                write,
            };
            b.push(class, op, &[Span::one(shard as u64, write)]);
            touched[i as usize].push((shard, write));
            if let Some(w) = last_write[shard].filter(|w| *w != i) {
                deps[i as usize].push(w);
            }
            if write {
                deps[i as usize].extend(reads_since[shard].iter().filter(|r| **r != i));
                reads_since[shard].clear();
                last_write[shard] = Some(i);
            } else {
                reads_since[shard].push(i);
            }
        }
        first.push(b.len() as u32);
    }
    // Forward dependencies: instance i also depends on a later instance
    // it conflicts with (committed later, as under a collision).
    for i in 0..instances {
        if rng.unit() < 0.3 {
            let j = i + 1 + rng.below(4) as usize;
            let clash = j < instances
                && touched[i]
                    .iter()
                    .any(|&(s, w)| touched[j].iter().any(|&(t, v)| s == t && (w || v)));
            if clash {
                deps[i].push(j as u32);
            }
        }
    }
    let seq = (0..instances).map(|_| rng.below(1000)).collect();
    for d in &mut deps {
        d.sort_unstable();
        d.dedup();
    }
    let table = CommitTable::new(first, &deps, seq);
    let stream = b.finish_commits(table).expect("a valid commit table");
    Stream::from_parts(app, classes, stream)
}

/// A random event forest over the handlers app: `roots` trees, each event
/// with up to `fanout` children (depth at most 3), colors drawn from
/// `colors`.
pub fn event_stream(seed: u64, roots: usize, fanout: u64, colors: u32) -> Stream {
    event_stream_spin(seed, roots, fanout, colors, 0)
}

/// [`event_stream`] whose events spin up to `max_ns` nanoseconds each, with
/// random homes (hashed, near, a fixed core), annotated costs and penalties,
/// so that runtimes place, batch and steal in every way.
pub fn event_stream_spin(seed: u64, roots: usize, fanout: u64, colors: u32, max_ns: u32) -> Stream {
    use psmr_core::cell::Span;
    use psmr_core::stream::{EventForest, StreamBuilder};
    use psmr_core::{EventOp, Home, Op, NO_REQUEST};
    let app = AppSpec::Handlers {
        colors,
        data_sets: 0,
        data_kib: 0,
    };
    let classes = app.classes();
    let mut rng = SplitMix64::new(seed);
    let mut b = StreamBuilder::new(app.cell_space(), roots * 4);
    let mut parent = Vec::new();
    for _ in 0..roots {
        // Breadth first: (parent, depth) of events still to create.
        let mut level = std::collections::VecDeque::from([(NO_REQUEST, 0u32)]);
        while let Some((p, depth)) = level.pop_front() {
            let color = rng.below(colors as u64) as u32;
            let ns = rng.below(max_ns as u64 + 1) as u32;
            let home = match rng.below(3) {
                0 => Home::Hash,
                1 => Home::Near,
                _ => Home::Core(rng.below(8) as u16),
            };
            let op = EventOp {
                cost_ns: rng.below(20_000) as u32,
                penalty: 1 + rng.below(4) as u16,
                home,
                ..EventOp::spin(color, rng.next_u64() as u32, ns)
            };
            let id = b.push(0, Op::Event(op), &[Span::one(color as u64, true)]);
            parent.push(p);
            if depth < 3 {
                for _ in 0..rng.below(fanout + 1) {
                    level.push_back((id, depth + 1));
                }
            }
        }
    }
    let forest = EventForest::from_parents(parent).expect("breadth-first ids");
    let stream = b.finish_events(forest).expect("events write one color");
    Stream::from_parts(app, classes, stream)
}
